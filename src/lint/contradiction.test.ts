import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config/defaults.js';
import { kbPaths } from '../kb/paths.js';
import { exampleEntry } from './entry-info.js';
import { loadLintInput } from './input.js';
import { lint } from './lint.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** Contradiction findings when each of `heights` is stated by its own source entry about the tower. */
async function contradictions(heights: number[], times = 1): Promise<number> {
  const root = mkdtempSync(join(tmpdir(), 'kb-contra-'));
  roots.push(root);
  mkdirSync(join(root, 'raw'));
  mkdirSync(join(root, 'wiki', 'sources'), { recursive: true });
  mkdirSync(join(root, 'wiki', 'concepts'), { recursive: true });
  writeFileSync(
    join(root, 'wiki', 'concepts', 'Eiffel Tower.md'),
    exampleEntry({ title: 'Eiffel Tower' }, '# Eiffel Tower\n\nA tower in Paris.\n'),
  );
  heights.forEach((h, i) => {
    const body = `# Trip ${i}\n\nWe saw the [[Eiffel Tower]].${` The Eiffel Tower is ${h} metres tall.\n`.repeat(times)}`;
    writeFileSync(
      join(root, 'wiki', 'sources', `Trip ${i}.md`),
      exampleEntry({ title: `Trip ${i}`, kind: 'source', source_ref: [`raw/t${i}.md`] }, body),
    );
  });
  const report = await lint(await loadLintInput(kbPaths(root), DEFAULT_CONFIG, {}), { rules: ['contradiction'] });
  return report.findings.length;
}

describe('contradiction', () => {
  it('flags two or three figures given for one fact', async () => {
    expect(await contradictions([330, 330, 300])).toBe(2);
    expect(await contradictions([330, 300, 324])).toBe(3);
  });

  it('reports a pair of entries once, however often each states its figure', async () => {
    expect(await contradictions([330, 300], 3)).toBe(1);
    expect(await contradictions([330, 330, 300], 2)).toBe(2);
  });

  it('does not compare a subject given many different figures (not one fact: versions, several events)', async () => {
    // Every pair disagreed before: 15 findings for six entries, growing with the square of the entries.
    expect(await contradictions([301, 302, 303, 304, 305, 306])).toBe(0);
  });
});
