import { describe, expect, it } from 'vitest';
import { exampleEntry } from '../src/lint/entry-info.js';
import { fixture, runKb, runKbIn } from './helpers.js';

const broken = () =>
  fixture({
    'raw/a.md': '# A\n\nText.\n',
    'wiki/sources/A.md': exampleEntry(
      { title: 'A', kind: 'source', source_ref: ['raw/a.md'] },
      '# A\n\nSee [[Missing]].\n',
    ),
    'wiki/concepts/Thing.md': exampleEntry({ title: 'Thing', summary: 'Thing' }, '# Thing\n\nA thing.\n'),
  });

describe('kb lint', () => {
  it('reports findings grouped by file with place, rule and fix, and exits 1 on errors', async () => {
    const root = broken();
    const r = await runKb(['lint'], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('wiki/sources/A.md\n');
    expect(r.stdout).toMatch(
      / {2}\d+:5 +error +Unexpected link to `Missing` that names no file, expected a link to an entry in the wiki +broken-link/,
    );
    expect(r.stdout).toMatch(/→ /);
    expect(r.stdout).toMatch(
      /wiki\/concepts\/Thing\.md\n[\s\S]*?warning +Unexpected summary that only repeats the title/,
    );
    expect(r.stdout).toMatch(/\d+ findings: 1 error, 1 warning/);
    // Lint reads: no store, no wiki/ files made.
    expect(r.stderr).toBe('');
  });

  it('--json prints findings with file, place, rule and severity', async () => {
    const root = broken();
    const r = await runKbIn(['lint', '--json'], { cwd: root });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as {
      findings: {
        ruleId: string;
        file: string;
        place?: { line: number; column: number };
        severity: string;
        note?: string;
      }[];
      counts: Record<string, number>;
    };
    const link = report.findings.find((f) => f.ruleId === 'broken-link');
    expect(link).toMatchObject({ file: 'wiki/sources/A.md', severity: 'error', place: { column: 5 } });
    expect(link?.note).toBeTruthy();
    expect(report.counts['error']).toBe(1);
  });

  it('--rule runs some rules; severities come from kb.config.json; off disables', async () => {
    const root = broken();
    let r = await runKbIn(['lint', '--rule', 'missing-summary'], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('broken-link');
    r = await runKbIn(['lint', '--rule', 'missing-summary', '--frail'], { cwd: root });
    expect(r.code).toBe(1);
    const { writeFile } = await import('./helpers.js');
    writeFile(
      root,
      'kb.config.json',
      JSON.stringify({ lint: { rules: { 'broken-link': 'warning', 'missing-summary': 'off' } } }),
    );
    r = await runKbIn(['lint', '--json'], { cwd: root });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { findings: { ruleId: string; severity: string }[] };
    expect(report.findings.find((f) => f.ruleId === 'broken-link')?.severity).toBe('warning');
    expect(report.findings.some((f) => f.ruleId === 'missing-summary')).toBe(false);
  });

  it('an unknown rule is a usage error', async () => {
    const r = await runKbIn(['lint', '--rule', 'no-such-rule'], { cwd: broken() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Unknown rule `no-such-rule`');
  });

  it('a clean wiki exits 0', async () => {
    const root = fixture({ 'wiki/concepts/A.md': exampleEntry({ title: 'A' }, '# A\n\nText.\n') });
    const r = await runKbIn(['lint'], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no problems');
  });

  it('--list-rules documents every rule', async () => {
    const r = await runKbIn(['lint', '--list-rules', '--json'], { cwd: fixture() });
    const rules = JSON.parse(r.stdout) as { id: string; fixable: string }[];
    expect(rules.map((x) => x.id)).toEqual(
      expect.arrayContaining(['broken-link', 'contradiction', 'dead-url', 'missing-citation']),
    );
  });
});
