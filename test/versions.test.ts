// A work saved in two languages: each version's source entry lists the other under `## Versions`,
// from the compile that finds them on, and no longer once one is gone.
import { describe, expect, it } from 'vitest';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fixture, read, REPO, runKbIn, writeFile } from './helpers.js';

const DOCS = join(REPO, 'bench', 'corpora', 'wiki', 'docs', 'raw');
const doc = (p: string) => readFileSync(join(DOCS, p), 'utf8');
const versions = (text: string) => /^## Versions\n([\s\S]*?)(?=^## |^<!--)/m.exec(text)?.[1]?.trim();

describe('versions of a work', () => {
  it('list each other once both are compiled, and stop when one is deleted', async () => {
    const root = fixture({
      'raw/en/conditional-rendering.md': doc('en/conditional-rendering.md'),
      'raw/en/state-as-a-snapshot.md': doc('en/state-as-a-snapshot.md'),
    });
    const first = await runKbIn(['compile'], { cwd: root });
    expect(first.code, first.stderr).toBe(0);
    const en = 'wiki/sources/Conditional Rendering.md';
    expect(versions(read(root, en))).toBeUndefined();

    // The translation comes later: the original's entry, unchanged itself, now lists it.
    writeFile(root, 'raw/zh/conditional-rendering.md', doc('zh/conditional-rendering.md'));
    const added = await runKbIn(['compile'], { cwd: root });
    expect(added.code, added.stderr).toBe(0);
    expect(versions(read(root, en))).toBe('- [[条件渲染]]');
    expect(versions(read(root, 'wiki/sources/条件渲染.md'))).toBe('- [[Conditional Rendering]]');
    // The other work is no version of it.
    expect(versions(read(root, 'wiki/sources/State as a Snapshot.md'))).toBeUndefined();

    // Nothing changed: nothing is written again.
    const again = await runKbIn(['compile'], { cwd: root });
    expect(again.stdout).toMatch(/0 new, 0 updated, 3 unchanged, 0 deleted/);
    expect(again.stdout).toMatch(/concepts 0 new, 0 updated, 0 removed/);

    rmSync(join(root, 'raw/zh/conditional-rendering.md'));
    const gone = await runKbIn(['compile'], { cwd: root });
    expect(gone.code, gone.stderr).toBe(0);
    const text = read(root, en);
    expect(versions(text)).toBeUndefined();
    expect(text).not.toContain('条件渲染');
  });
});
