import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type IndexItem, writeIndexes } from './indexes.js';

function item(n: number, kind = 'source'): IndexItem {
  return {
    id: `${kind}/e${n}`,
    kind,
    title: `Entry ${n} 条目`,
    path: `${kind}s/Entry ${n}.md`,
    summary: `What entry ${n} says, "quoted" — 说明 ${'x'.repeat(n % 300)}.`,
    source_ref: [`raw/e${n}.md`],
    links: [`concept/c${n % 7}`, `concept/a${n % 3}`],
  };
}

/** index.json as one JSON.stringify of the whole list writes it (the format before it was written in pieces). */
function whole(items: IndexItem[]): string {
  const byKindAndTitle = (a: IndexItem, b: IndexItem) => a.kind.localeCompare(b.kind) || a.title.localeCompare(b.title);
  const json = [...items].sort(byKindAndTitle).map(({ id, title, kind, path, summary, source_ref, links }) => ({
    id,
    title,
    kind,
    path,
    summary,
    source_ref,
    links: [...links].sort(),
  }));
  return `${JSON.stringify(json, null, 2)}\n`;
}

describe('writeIndexes: index.json written an entry at a time', () => {
  it('writes the bytes one stringify of the whole list gives, for none, one and many entries', () => {
    for (const items of [
      [],
      [item(1)],
      Array.from({ length: 6000 }, (_, n) => item(n, n % 5 ? 'source' : 'concept')),
    ]) {
      const dir = mkdtempSync(join(tmpdir(), 'kb-index-'));
      writeIndexes(dir, items);
      expect(readFileSync(join(dir, 'index.json'), 'utf8')).toBe(whole(items));
    }
  });

  it('leaves the file as it is when it already holds those bytes, and replaces it when not', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-index-'));
    const items = Array.from({ length: 50 }, (_, n) => item(n));
    writeIndexes(dir, items);
    const file = join(dir, 'index.json');
    const before = statSync(file).ino;
    writeIndexes(dir, items);
    expect(statSync(file).ino).toBe(before);
    const changed = [...items.slice(1), item(99)];
    writeIndexes(dir, changed);
    expect(statSync(file).ino).not.toBe(before);
    expect(readFileSync(file, 'utf8')).toBe(whole(changed));
  });
});

describe('writeIndexes: the order of the entries given', () => {
  it('changes neither file, two entries of one title included', () => {
    const twins = [item(1), item(2), { ...item(3), title: item(1).title }];
    const dirs = [twins, [...twins].reverse()].map((items) => {
      const dir = mkdtempSync(join(tmpdir(), 'kb-index-order-'));
      writeIndexes(dir, items);
      return ['index.md', 'index.json'].map((f) => readFileSync(join(dir, f), 'utf8'));
    });
    expect(dirs[1]).toEqual(dirs[0]);
  });
});
