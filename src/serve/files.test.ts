import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wikiFile } from './files.js';

describe('wikiFile: only files inside wiki/ are served', () => {
  const root = mkdtempSync(join(tmpdir(), 'kb-files-'));
  const wiki = join(root, 'wiki');
  mkdirSync(join(wiki, 'attachments'), { recursive: true });
  writeFileSync(join(root, 'kb.config.json'), '{}');
  writeFileSync(join(wiki, 'attachments', 'a b.png'), 'png');
  writeFileSync(join(wiki, 'attachments', '图.png'), 'png');
  writeFileSync(join(wiki, 'embeddings.db'), 'db');
  writeFileSync(join(wiki, '.hidden'), 'x');
  symlinkSync(join(root, 'kb.config.json'), join(wiki, 'attachments', 'leak.png'));
  symlinkSync(root, join(wiki, 'attachments', 'up'));
  symlinkSync(join(wiki, 'attachments', 'a b.png'), join(wiki, 'attachments', 'inside.png'));

  const cases: [string, string, boolean][] = [
    ['a file', 'attachments/a%20b.png', true],
    ['a Chinese name', `attachments/${encodeURIComponent('图.png')}`, true],
    ['a symlink to a file inside wiki/', 'attachments/inside.png', true],
    ['..', '../kb.config.json', false],
    ['encoded ..', '..%2fkb.config.json', false],
    ['encoded dots', '%2e%2e/kb.config.json', false],
    ['.. deeper', 'attachments/..%2f..%2fkb.config.json', false],
    ['a backslash', 'attachments\\..\\..\\kb.config.json', false],
    ['an encoded backslash', 'attachments%5c..%5c..%5ckb.config.json', false],
    ['a NUL', 'attachments/a%00.png', false],
    ['a symlink to a file outside', 'attachments/leak.png', false],
    ['through a symlinked folder outside', 'attachments/up/kb.config.json', false],
    ['the store', 'embeddings.db', false],
    ['a hidden file', '.hidden', false],
    ['a folder', 'attachments', false],
    ['an absolute path', '%2fetc%2fpasswd', false],
    ['bad encoding', '%E0%A4%A', false],
  ];
  for (const [name, path, ok] of cases)
    it(name, () => {
      expect(Boolean(wikiFile(wiki, path))).toBe(ok);
    });
});
