import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LoadedEntry } from '../entry/wiki.js';
import { makeResolver } from './entry-info.js';
import { extractFacts, SubjectNames } from './facts.js';

const LATIN = /[a-z0-9]/;

/** The slow path: every position of the text tried against every name starting with its character. */
function mentionsSlow(names: { name: string; title: string }[], lower: string): { title: string; end: number }[] {
  const list = names.map((n) => ({ ...n, lower: n.name.toLowerCase() })).filter((n) => Array.from(n.name).length >= 3);
  const whole = (i: number, name: string) =>
    !(LATIN.test(lower[i - 1] ?? ' ') && LATIN.test(name[0] ?? '')) &&
    !(LATIN.test(lower[i + name.length] ?? ' ') && LATIN.test(name[name.length - 1] ?? ''));
  const out: { k: number; title: string; end: number }[] = [];
  list.forEach((n, k) => {
    for (let p = lower.indexOf(n.lower); p >= 0; p = lower.indexOf(n.lower, p + 1))
      if (whole(p, n.lower)) {
        out.push({ k, title: n.title, end: p + n.name.length });
        return;
      }
  });
  return out.sort((a, b) => a.k - b.k).map(({ title, end }) => ({ title, end }));
}

const NAMES = [
  { name: 'BM25', title: 'BM25' },
  { name: 'Okapi BM25', title: 'BM25' },
  { name: 'SQLite', title: 'SQLite' },
  { name: 'FTS5', title: 'FTS5' },
  { name: 'rank', title: 'Rank' },
  { name: 'Reciprocal Rank Fusion', title: 'Reciprocal Rank Fusion' },
  { name: 'RRF', title: 'Reciprocal Rank Fusion' },
  { name: 'cat', title: 'Cat' },
  { name: '倒数排名融合', title: 'Reciprocal Rank Fusion' },
  { name: '全文检索', title: 'Full-text search' },
  { name: 'C++', title: 'C++' },
  { name: '3D printing', title: '3D printing' },
];

function entry(path: string, body: string, title = 'Notes'): LoadedEntry {
  return { path, fm: { id: `source/${title}`, kind: 'source', title }, body, humanEdited: false } as LoadedEntry;
}

describe('facts: subject names in a sentence', () => {
  it('finds the same names at the same places as trying every position (the slow path)', () => {
    const names = new SubjectNames(NAMES);
    const texts = [
      'okapi bm25 (1994) ranks with bm25f; sqlite fts5 has bm25() since 2015. concatenate the cat, 3d printing',
      'reciprocal rank fusion (rrf) merges ranks; xrrf and rrfx are no names, nor is ranked or frank 60.',
      '混合检索用倒数排名融合（rrf），全文检索靠 fts5 与 sqlite 3.34。c++ 17 and 3d-printing 3d printing.',
      'bm25bm25 sqlite_fts5 fts5-sqlite cat.cat (cat) rank-rank sqlite全文检索 fts5倒数排名融合',
      ...['retrieval-augmented-generation-primer.md', 'bm25-and-full-text-search.md'].map((f) =>
        readFileSync(join(import.meta.dirname, '..', '..', 'raw', 'articles', f), 'utf8').toLowerCase(),
      ),
      readFileSync(
        join(import.meta.dirname, '..', '..', 'raw', 'zh', '混合检索与倒数排名融合.md'),
        'utf8',
      ).toLowerCase(),
    ];
    for (const t of texts) expect(names.mentions(t)).toEqual(mentionsSlow(NAMES, t));
  });

  it('a number whose only digits are in a link states its fact like any other', () => {
    const e = entry(
      'sources/Trip.md',
      '# Trip\n\nWe saw the [[Eiffel Tower|Eiffel Tower, 330 metres tall]] from the river.\n',
    );
    const tower = entry('concepts/Eiffel Tower.md', '# Eiffel Tower\n', 'Eiffel Tower');
    const facts = extractFacts(
      e,
      new SubjectNames([{ name: 'Eiffel Tower', title: 'Eiffel Tower' }]),
      makeResolver([e, tower], []),
    );
    expect(facts.map((f) => [f.key, f.value, f.line])).toEqual([['eiffel tower|saw|metre', '330', 3]]);
  });
});
