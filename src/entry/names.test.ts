import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../util/atomic.js';
import { cleanTitle, safeFileName } from './names.js';

describe('safeFileName', () => {
  const table: [string, string, string][] = [
    ['right-to-left override (U+202E)', 'invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['left-to-right and pop embeddings (U+202A, U+202C)', 'a\u202Ab\u202C', 'ab'],
    ['bidi isolates (U+2066–U+2069)', 'x\u2066y\u2067z\u2068w\u2069', 'xyzw'],
    ['zero-width space, joiners, marks (U+200B–U+200F)', 'a\u200Bb\u200Cc\u200Dd\u200Ee\u200Ff', 'abcdef'],
    ['byte order mark and word joiner', '\uFEFFTitle\u2060', 'Title'],
    ['soft hyphen', 'co\u00ADoperate', 'cooperate'],
    ['C0 controls and DEL become spaces', 'a\u0000b\u0007c\u001bd\u007fe', 'a b c d e'],
    ['C1 controls (U+0080–U+009F) become spaces', 'a\u0085b\u009bc', 'a b c'],
    ['line and paragraph separators', 'a\u2028b\u2029c', 'a b c'],
    ['a lone surrogate', 'a\uD800b', 'ab'],
    ['Chinese with an override inside', '中文\u202E标题', '中文标题'],
    ['emoji are kept', '🐼 Panda', '🐼 Panda'],
    ['path and link characters', 'a/b\\c:d*e?f"g<h>i|j#k^l[m]n', 'a b c d e f g h i j k l m n'],
    ['leading dots, trailing dots and spaces', '..hidden. ', 'hidden'],
    ['Windows device names', 'con', 'con_'],
  ];
  it.each(table)('%s', (_case, title, name) => {
    expect(safeFileName(title)).toBe(name);
  });

  it('a name of only invisible characters is still a name', () => {
    expect(safeFileName('\u202E\u200B\uFEFF')).toMatch(/^untitled [0-9a-f]{8}$/);
  });

  it('bounds long names by bytes as well as characters, so Chinese names fit the file system', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-names-'));
    for (const title of [
      '潮汐'.repeat(70),
      'a'.repeat(300),
      '🐼'.repeat(100),
      `${'长城'.repeat(40)}\u202E${'x'.repeat(40)}`,
    ]) {
      const name = safeFileName(title);
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(180);
      expect(Array.from(name).length).toBeLessThanOrEqual(120);
      expect(name).toMatch(/ [0-9a-f]{8}$/);
      expect(name).not.toMatch(/[\uD800-\uDFFF](?![\uDC00-\uDFFF])/u);
      // The longest name kb makes from it, written the way kb writes files.
      writeFileAtomic(join(dir, `${name} (answer 12).md`), 'x');
    }
    expect(readdirSync(dir)).toHaveLength(4);
    expect(safeFileName('潮汐'.repeat(70))).not.toBe(safeFileName(`${'潮汐'.repeat(70)}了`));
  });
});

describe('cleanTitle', () => {
  it('removes invisible characters and puts the title on one line', () => {
    expect(cleanTitle('  What\u202E is\n\tRAG?\u200B ')).toBe('What is RAG?');
    expect(cleanTitle('什么是\u2066检索增强生成\u2069？')).toBe('什么是检索增强生成？');
  });
});
