import { describe, expect, it } from 'vitest';
import type { EntryRow } from '../store/store.js';
import { ownReadingFirst, readingOf, type VersionLookup } from './versions.js';

function row(id: string, title: string, summary: string, kind = 'source'): EntryRow {
  return {
    id,
    kind,
    title,
    path: `${kind}s/${title}.md`,
    aliases: [],
    summary,
    source_ref: [],
    content_hash: '',
    human_edited: false,
    updated: 0,
  };
}

/** A wiki of entries by rowid, with links between ids. */
function wiki(entries: EntryRow[], links: [string, string][]): { rows: Map<number, EntryRow>; look: VersionLookup } {
  const byId = new Map(entries.map((e, i) => [e.id, { e, rowid: i + 1 }]));
  return {
    rows: new Map(),
    look: {
      linksFrom: (id) => links.filter(([a]) => a === id).map(([, b]) => b),
      linksTo: (id) => links.filter(([, b]) => b === id).map(([a]) => a),
      rowid: (id) => byId.get(id)?.rowid,
      entry: (id) => byId.get(id)?.e,
    },
  };
}

const en = row('source/branching', 'Git Branching', 'A branch in Git is simply a lightweight movable pointer.');
const hans = row('source/分支', 'Git 分支', 'Git 中的分支，其实本质上仅仅是个指向 commit 对象的可变指针。');
const hant = row('source/分支-2', 'Git 分支', 'Git 中的分支，其實本質上僅僅是個指向 commit 物件的可變指標。');
const other = row('source/notes', 'Branch notes', 'Notes on branches and what they are for.');
/** The three versions list each other (their Versions sections); the notes link to one of them only. */
const versionLinks: [string, string][] = [
  [en.id, hans.id],
  [hans.id, en.id],
  [en.id, hant.id],
  [hant.id, en.id],
  [hans.id, hant.id],
  [hant.id, hans.id],
  [hans.id, other.id],
];

describe('readingOf', () => {
  it('tells English from Chinese, and Simplified from Traditional script', () => {
    expect(readingOf('What is a branch?')).toBe('en');
    expect(readingOf('分支是什么？')).toBe('zh-Hans');
    expect(readingOf('分支是什麼？')).toBe('zh-Hant');
    expect(readingOf('git rebase 是做什么的？')).toBe('zh-Hans');
  });
});

describe('ownReadingFirst', () => {
  const found = (scores: [EntryRow, number][]) => {
    const w = wiki([en, hans, hant, other], versionLinks);
    const ids = new Map([en, hans, hant, other].map((e, i) => [e.id, i + 1]));
    for (const [e] of scores) w.rows.set(ids.get(e.id)!, e);
    const map = new Map(scores.map(([e, s]) => [ids.get(e.id)!, s]));
    return { ...w, scores: map, ids };
  };

  it('puts the version in the question’s language first, with the best score of its versions', () => {
    const f = found([
      [hans, 0.9],
      [hant, 0.85],
      [en, 0.5],
      [other, 0.6],
    ]);
    const got = ownReadingFirst('What is a branch?', f.scores, f.rows, f.look, 10);
    const order = [...f.scores].sort((a, b) => b[1] - a[1]).map(([r]) => f.rows.get(r)!.id);
    expect(order).toEqual([en.id, hans.id, hant.id, other.id]);
    expect(f.scores.get(f.ids.get(en.id)!)).toBe(0.9);
    expect(got.readAs).toEqual(
      new Map([
        [f.ids.get(hans.id)!, en.id],
        [f.ids.get(hant.id)!, en.id],
      ]),
    );
    expect(got.standing).toEqual([f.ids.get(en.id)!]);
    expect(got.added).toEqual([]);
  });

  it('brings in the version the search did not find, and reads Traditional and Simplified apart', () => {
    const f = found([[hans, 0.9]]);
    const got = ownReadingFirst('分支是什麼？', f.scores, f.rows, f.look, 10);
    expect(got.added).toEqual([f.ids.get(hant.id)!]);
    expect(f.rows.get(f.ids.get(hant.id)!)).toBe(hant);
    expect(f.scores.get(f.ids.get(hant.id)!)).toBe(0.9);
    expect(f.scores.get(f.ids.get(hans.id)!)).toBeLessThan(0.9);
  });

  it('leaves alone a work with no version in the question’s language, a link one way, and concept pages', () => {
    const f = found([
      [hans, 0.9],
      [other, 0.5],
    ]);
    // English: the Chinese note links to the English notes, which do not link back (no version).
    const w = wiki([hans, other], [[hans.id, other.id]]);
    const rows = new Map([
      [1, hans],
      [2, other],
    ]);
    const scores = new Map([
      [1, 0.9],
      [2, 0.5],
    ]);
    expect(ownReadingFirst('What are branches for?', scores, rows, w.look, 10)).toEqual({
      standing: [],
      added: [],
      readAs: new Map(),
    });
    expect([...scores]).toEqual([
      [1, 0.9],
      [2, 0.5],
    ]);
    // A question in the language the best entry is written in: nothing moves.
    const before = [...f.scores];
    ownReadingFirst('分支是什么？', f.scores, f.rows, f.look, 10);
    expect([...f.scores]).toEqual(before);
    const concept = row('concept/branch', '分支', '分支是指针。', 'concept');
    const c = wiki(
      [concept, en],
      [
        [concept.id, en.id],
        [en.id, concept.id],
      ],
    );
    const cScores = new Map([[1, 0.9]]);
    ownReadingFirst('What is a branch?', cScores, new Map([[1, concept]]), c.look, 10);
    expect([...cScores]).toEqual([[1, 0.9]]);
  });
});
