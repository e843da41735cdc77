import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../diagnostics/errors.js';
import { findCompileRoot, findKbRoot } from './paths.js';

/** A temporary tree: folders end in `/`, other paths are files. */
function tree(paths: string[]): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'kb-paths-')));
  for (const p of paths) {
    if (p.endsWith('/')) mkdirSync(join(root, p), { recursive: true });
    else {
      mkdirSync(join(root, p, '..'), { recursive: true });
      writeFileSync(join(root, p), '{}');
    }
  }
  return root;
}

/** What `f` returns, or null for a usage error. */
function outcome<T>(f: () => T): T | null {
  try {
    return f();
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return null;
  }
}

describe('findKbRoot', () => {
  // [what, tree, cwd (relative), --kb (relative to cwd), the root found (relative) or a usage error]
  const table: [string, string[], string, string | undefined, string | null][] = [
    ['kb.config.json here', ['kb.config.json', 'raw/'], '.', undefined, '.'],
    ['kb.config.json above, from raw/sub', ['kb.config.json', 'raw/sub/'], 'raw/sub', undefined, '.'],
    ['a stray raw/ above is no knowledge base', ['raw/', 'notes/'], 'notes', undefined, null],
    ['a stray wiki/ above is no knowledge base', ['wiki/', 'notes/'], 'notes', undefined, null],
    ['raw/ here without kb.config.json is none yet', ['raw/'], '.', undefined, null],
    [
      'the nearest kb.config.json wins',
      ['kb.config.json', 'inner/kb.config.json', 'inner/x/'],
      'inner/x',
      undefined,
      'inner',
    ],
    ['--kb a folder with kb.config.json', ['k/kb.config.json', 'elsewhere/'], 'elsewhere', '../k', 'k'],
    ['--kb a folder with raw/ only', ['k/raw/'], '.', 'k', 'k'],
    ['--kb a folder with wiki/ only', ['k/wiki/'], '.', 'k', 'k'],
    ['--kb an empty folder', ['k/'], '.', 'k', null],
    ['--kb a folder that is not there', [], '.', 'nope', null],
  ];
  for (const [what, paths, cwd, kb, expected] of table)
    it(what, () => {
      const root = tree(paths);
      expect(outcome(() => findKbRoot(kb, join(root, cwd)))).toBe(expected === null ? null : join(root, expected));
    });

  it('names the folder and the way out when there is none', () => {
    const root = tree(['raw/']);
    expect(() => findKbRoot(undefined, root)).toThrow(
      new RegExp(`No knowledge base in ${root} .*kb\\.config\\.json.*Run \`kb init\`.*\`kb compile\` here`),
    );
    expect(() => findKbRoot('k', tree(['k/']))).toThrow(/is not a knowledge base.*Run `kb init k`/);
  });
});

describe('findCompileRoot', () => {
  // [what, tree, cwd, --kb, root found or null (usage error), adopt]
  const table: [string, string[], string, string | undefined, string | null, boolean][] = [
    ['kb.config.json here', ['kb.config.json', 'raw/'], '.', undefined, '.', false],
    ['kb.config.json above wins over raw/ here', ['kb.config.json', 'raw/'], 'raw', undefined, '.', false],
    ['raw/ here and no kb.config.json up the tree: adopted', ['raw/'], '.', undefined, '.', true],
    ['a stray raw/ above is not adopted', ['raw/', 'notes/'], 'notes', undefined, null, false],
    ['nothing here', ['notes/'], 'notes', undefined, null, false],
    ['--kb a folder with raw/ only: adopted', ['k/raw/', 'elsewhere/'], 'elsewhere', '../k', 'k', true],
    ['--kb a folder with kb.config.json', ['k/kb.config.json'], '.', 'k', 'k', false],
    ['--kb a folder with wiki/ only', ['k/wiki/'], '.', 'k', null, false],
  ];
  for (const [what, paths, cwd, kb, expected, adopt] of table)
    it(what, () => {
      const root = tree(paths);
      expect(outcome(() => findCompileRoot(kb, join(root, cwd)))).toEqual(
        expected === null ? null : { root: join(root, expected), adopt },
      );
    });
});
