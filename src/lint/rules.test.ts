import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config/defaults.js';
import { kbPaths } from '../kb/paths.js';
import { loadLintInput } from './input.js';
import { lint } from './lint.js';
import { RULES } from './rules/index.js';

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    res.statusCode = req.url === '/ok' ? 200 : 404;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  base = typeof a === 'object' && a ? `http://127.0.0.1:${a.port}` : '';
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function write(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'kb-lint-'));
  roots.push(root);
  mkdirSync(join(root, 'raw'), { recursive: true });
  mkdirSync(join(root, 'wiki'), { recursive: true });
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text.replace('{{ok}}', `${base}/ok`).replace('{{dead}}', `${base}/gone`));
  }
  return root;
}

async function run(id: string, files: Record<string, string>) {
  const root = write(files);
  const input = await loadLintInput(kbPaths(root), DEFAULT_CONFIG, { network: true });
  return (await lint(input, { rules: [id] })).findings;
}

describe.each(RULES.map((r) => [r.id, r] as const))('rule %s', (id, rule) => {
  it('has documentation', () => {
    expect(rule.docs.length).toBeGreaterThan(40);
    expect(['error', 'warning', 'info']).toContain(rule.severity);
  });
  it('passes its passing example', async () => {
    expect(await run(id, rule.examples.pass)).toEqual([]);
  });
  it('reports its failing example at the right place', async () => {
    const found = await run(id, rule.examples.fail);
    const where = found.map((f) => (f.place ? `${f.file}:${f.place.line}:${f.place.column}` : f.file));
    expect(where).toEqual(rule.examples.expect);
    for (const f of found) {
      expect(f.ruleId).toBe(id);
      expect(f.reason).toMatch(/^Unexpected .+, expected /);
      expect(f.note).toBeTruthy();
    }
  });
});

describe('dead-url', () => {
  it('a page that never answers reads "Unexpected timeout (no answer within 10 s) from <url>"', async () => {
    const root = write(RULES.find((r) => r.id === 'dead-url')!.examples.fail);
    const silent = (() =>
      Promise.reject(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))) as typeof fetch;
    const input = await loadLintInput(kbPaths(root), DEFAULT_CONFIG, { network: true, fetch: silent });
    const [found] = (await lint(input, { rules: ['dead-url'] })).findings;
    expect(found?.reason).toBe(
      `Unexpected timeout (no answer within 10 s) from <${base}/gone>, expected the page to answer`,
    );
  });
});
