import { describe, expect, it } from 'vitest';
import { fakeDictionary } from '../../test/fake-dictionary.js';
import type { EntityRow } from '../store/store.js';
import { headingNamePairs } from './heading-names.js';

const dict = fakeDictionary({
  检视: ['view', 'inspect'],
  提交: ['submit', 'refer'],
  历史: ['history'],
  记录: ['record'],
  集中: ['concentrate', 'centralize', 'centralized'],
  版本: ['version'],
  控制: ['control'],
  系统: ['system'],
  跟踪: ['follow', 'tracking'],
  远程: ['remote'],
  分支: ['branch'],
  向量: ['vector'],
  检索: ['retrieve', 'search'],
  短板: ['shortcoming'],
  遇到: ['encounter'],
  冲突: ['conflict'],
  合并: ['merge'],
  特性: ['feature', 'characteristic'],
  的: ['of'],
  时: ['time', 'when'],
});

const row = (raw_path: string, key: string, weak = false): EntityRow => ({
  raw_path,
  key,
  surface: key,
  aliases: [],
  count: 3,
  snippets: [],
  ...(weak ? { weak: true } : {}),
});

/** The name pairs of one English heading and its translation, each version with the names given. */
function pairOf(en: string, zh: string, enNames: string[], zhNames: (string | [string, 'weak'])[]): [string, string][] {
  const rowsA = enNames.map((k) => row('en.md', k));
  const rowsB = zhNames.map((k) => (typeof k === 'string' ? row('zh.md', k) : row('zh.md', k[0], true)));
  return headingNamePairs([[0, 0]], [[2, en]], [[2, zh]], rowsA, rowsB, dict);
}

describe('headingNamePairs: the one name a heading holds and the one its translation holds', () => {
  it('must: pairs the names of a heading and its translation, Traditional script and plurals read as keys', () => {
    expect(
      pairOf('Viewing the Commit History', '檢視提交的歷史記錄', ['commit history', 'commit'], ['历史记录']),
    ).toEqual([['commit history', '历史记录']]);
    expect(pairOf('Topic Branches', '特性分支', ['topic branch'], ['特性分支'])).toEqual([
      ['topic branch', '特性分支'],
    ]);
  });

  it('must not: a name with a word the other heading translates outside the other name', () => {
    // 集中 is "centralized": the Chinese name 版本控制系统 leaves it out.
    expect(
      pairOf(
        'Centralized Version Control Systems',
        '集中化的版本控制系统',
        ['centralized version control system'],
        ['版本控制系统'],
      ),
    ).toEqual([]);
    // 跟踪 is the English heading's "tracking": 远程分支 is not the tracking branch.
    expect(pairOf('Tracking Branches', '跟踪远程分支', ['tracking branch'], ['远程分支'])).toEqual([]);
    // 冲突 translates "conflict" outside 分支, the heading's only name.
    expect(pairOf('Basic Merge Conflicts', '遇到冲突时的分支合并', ['merge conflict'], ['分支'])).toEqual([]);
  });

  it('must not: names none of whose words translate each other (a free rendering)', () => {
    expect(pairOf('Where Embeddings Fall Short', '向量检索的短板', ['embedding'], ['向量检索'])).toEqual([]);
  });

  it('must not: a heading holding two names, none, or an everyday word only', () => {
    // 分支 translates the heading's "branches", which the name "remote" leaves out.
    expect(pairOf('Remote Branches', '远程分支', ['remote'], ['远程分支'])).toEqual([]);
    expect(pairOf('Remote Branches', '远程分支', ['remote branch', 'remote'], ['远程分支'])).toEqual([
      ['remote branch', '远程分支'],
    ]);
    expect(pairOf('Remote and Topic Branches', '远程分支', ['remote', 'topic branch'], ['远程分支'])).toEqual([]);
    expect(pairOf('Summary', '小结', ['summary'], [])).toEqual([]);
    expect(pairOf('Tracking Branches', '跟踪分支', ['tracking branch'], [['跟踪分支', 'weak']])).toEqual([]);
  });
});
