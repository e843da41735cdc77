import { describe, expect, it } from 'vitest';
import { wordsOf } from './dictionary.js';
import { glossedSenses, usedAlike, withSenses } from './glossed-senses.js';
import type { DocumentRow, EntityRow } from '../store/store.js';
import { fakeDictionary } from '../../test/fake-dictionary.js';

const dict = fakeDictionary({
  版本控制: ['version control'],
  仓库: ['depot', 'storehouse', 'warehouse'],
  储藏: ['store', 'deposit'],
  主干: ['trunk', 'core'],
  分支: ['branch'],
  远程: ['remote'],
  分页: ['paging'],
  程序: ['procedure', 'program'],
  冲突: ['conflict'],
});

function glossed(key: string, alias: string): EntityRow {
  return { raw_path: 'zh.md', key, surface: key, aliases: [alias], count: 3, snippets: [], salient: true };
}

describe("glossedSenses: the technical senses a translator's glosses teach", () => {
  // The names the knowledge base uses (and that the usage check lets through).
  const names = new Set(['repository', 'stash', 'master', 'remote', 'conflict', 'stroustrup']);
  const every = (_zh: string, en: string) => names.has(en);
  const cases: { row: EntityRow; learns?: [string, string]; why: string }[] = [
    {
      row: glossed('版本控制仓库', 'repository'),
      learns: ['仓库', 'repository'],
      why: 'the head word, its modifier left out',
    },
    { row: glossed('储藏', 'Stashing'), learns: ['储藏', 'stash'], why: 'a whole word glossed, -ing taken off' },
    { row: glossed('远程仓库', 'remote repositories'), learns: ['仓库', 'repository'], why: 'a phrase: head to head' },
    { row: glossed('冲突', 'conflict'), why: 'the dictionary already gives the sense' },
    { row: glossed('远程分支', 'remote'), why: 'the gloss translates the modifier: no sense of the head' },
    { row: glossed('斯特劳斯特鲁普', 'Stroustrup'), why: 'a word the dictionary does not know: a name, not a sense' },
    { row: glossed('版本控制仓库', 'repo 1'), why: 'not an English phrase' },
  ];
  for (const { row, learns, why } of cases)
    it(`${row.surface}（${row.aliases[0]}）: ${why}`, () => {
      const got = [...glossedSenses([row], dict, every)].flatMap(([zh, en]) => [...en].map((e) => [zh, e]));
      expect(got).toEqual(learns ? [learns] : []);
    });

  it('learns nothing where the two words are not used alike (主干分支（master）: 分支 far more often)', () => {
    const rows = [glossed('主干分支', 'master')];
    expect([...glossedSenses(rows, dict, every)]).toEqual([['分支', new Set(['master'])]]);
    expect([...glossedSenses(rows, dict, () => false)]).toEqual([]);
  });

  it("adds a taught sense to the dictionary's own, once", () => {
    const taught = withSenses(dict, new Map([['仓库', new Set(['repository', 'depot'])]]));
    expect(taught.english('仓库')).toEqual(['depot', 'storehouse', 'warehouse', 'repository']);
    expect(taught.english('分支')).toEqual(['branch']);
    expect(withSenses(dict, new Map())).toBe(dict);
  });
});

describe("usedAlike: a word and its translation are used about as often in a work's versions", () => {
  const doc = (raw_path: string, lang: string) => ({ raw_path, lang }) as DocumentRow;
  const row = (raw_path: string, key: string, count: number) =>
    ({ raw_path, key, surface: key, aliases: [], count, snippets: [], salient: false }) as EntityRow;
  const okDocs = new Map(
    ['en.md', 'zh.md', 'tw.md', 'other.md'].map((p) => [p, doc(p, p === 'en.md' || p === 'other.md' ? 'en' : 'zh')]),
  );
  const workOf = new Map([
    ['en.md', 'w'],
    ['zh.md', 'w'],
    ['tw.md', 'w'],
  ]);
  const rows = [
    row('en.md', 'repository', 37),
    row('zh.md', '仓库', 75),
    row('tw.md', '仓库', 66),
    row('en.md', 'master', 20),
    row('zh.md', '分支', 200),
    row('tw.md', '分支', 180),
    row('other.md', 'branch', 190),
  ];
  const alike = usedAlike(rows, okDocs, workOf);
  it("compares the mean over each language's versions", () => expect(alike('仓库', 'repository')).toBe(true));
  it('not a word used ten times as often', () => expect(alike('分支', 'master')).toBe(false));
  it('only within one work', () => expect(alike('分支', 'branch')).toBe(false));
});

describe('wordsOf: a Traditional run cut as its Simplified spelling is', () => {
  const cut = (run: string) => dict.words(run);
  it("gives the pieces in the run's own characters", () => expect(wordsOf('遠程倉庫', cut)).toEqual(['遠程', '倉庫']));
  it('cuts a Simplified run as it is', () => expect(wordsOf('远程仓库', cut)).toEqual(['远程', '仓库']));
});
