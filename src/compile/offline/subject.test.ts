import { describe, expect, it } from 'vitest';
import { titleSubjects } from './subject.js';

const say = (term: string, n: number, filler = 'Other words fill the line.') =>
  Array.from({ length: n }, (_, i) => `Sentence ${i} is about ${term}. ${filler}`).join('\n');

describe('titleSubjects: the terms of a title the text keeps returning to', () => {
  it.each([
    ['Specialization Review, 2020-02-03', say('specialization', 5), ['Specialization']],
    ['Design Meeting: Shipping const generics MVP', say('const generics', 4), ['const generics']],
    ['Do we need provenance?', say('provenance', 6), ['provenance']],
    ['Stream trait design meeting', `${say('the Stream trait', 3)}\n${say('Stream', 3)}`, ['Stream trait']],
    [
      'Defer, Panic, and Recover',
      `${say('defer', 4)}\n${say('panic', 3)}\n${say('recover', 3)}`,
      ['Defer', 'Panic', 'Recover'],
    ],
    ['2021 Edition Design Meeting', say('the edition', 5), ['Edition']],
    ['RFC 2229 Update', say('RFC 2229', 3), ['RFC 2229']],
    ['Git Branching', `${say('Git', 4)}\n${say('branching', 3)}`, ['Branching']],
    ['Git 分支', '分支是指向提交的指针。新建分支很快。切换分支也很快。合并分支。', ['分支']],
    ['向量数据库简介', '向量数据库存储向量。向量数据库支持近邻检索。常见的向量数据库有很多。', ['向量数据库']],
    ['CUDA local memory', `${say('local memory', 4)}\n${say('CUDA', 6)}`, ['local memory']],
    ['MOC的组织', `${say('MOC', 12)}\n组织一下。组织起来。组织。`, ['MOC']],
    // A title that says it lists commands or tips (常用命令, 使用技巧) is about what they are for.
    [
      'redis常用指令',
      'redis-cli 連線後可以下指令。以下指令最常用。redis 的 GET 指令讀值。SET 指令寫值。redis 也有刪除指令。redis 很快。指令不分大小寫。',
      ['redis'],
    ],
    // A word's mentions inside a longer term of the title are the longer term's.
    ['关于工具箱的工具', '工具箱是木头做的。工具箱很大。工具箱里有工具。工具箱分三层。', ['工具箱']],
    [
      '关于工具箱的工具',
      '工具箱是木头做的。工具箱很大。工具箱好用。工具箱很新。这件工具。那件工具。每件工具。',
      ['工具箱', '工具'],
    ],
  ])('%s → %j', (title, text, want) => {
    expect(
      titleSubjects(title, text)
        .map((s) => s.name)
        .sort(),
    ).toEqual([...want].sort());
  });

  it.each([
    ['2021-02-24: Lints and editions', 'Nothing here names the title at all.'],
    ['Getting Started', say('getting started', 5)],
    ['Weekly update, issue 12', say('weekly update', 5)],
    ['Notes on a trip', say('trip', 2)],
    ['Git 基础', '基础知识很重要。基础打好了。基础。'],
    ['Dyn upcasting coercion safety', say('coercion', 5)],
    ['git branching', `${say('git', 4)}\n${say('branching', 3)}`],
    ['（翻译）卡片盒', '翻译了。翻译很难。翻译。'],
  ])('%s has no subject', (title, text) => {
    expect(titleSubjects(title, text)).toEqual([]);
  });

  // A work's title that is one name and words of its kind names the work's subject, though the text
  // calls it by a part or names it once; a section's heading needs its section to keep naming it.
  it.each([
    ['cache-eviction design meeting', say('eviction', 6), ['cache-eviction']],
    ['RFC 1234 Update', `The implementation of RFC 1234 went on.\n${say('closures', 4)}`, ['RFC 1234']],
    ['Retry policy design meeting', `${say('the retry', 6)}`, ['Retry policy']],
    ['Lock fairness design meeting 2021.03.04', say('Lock', 8), ['Lock fairness']],
  ])('the work titled %s is about %j', (title, text, want) => {
    expect(titleSubjects(title, text, undefined, { work: true }).map((s) => s.name)).toEqual(want);
    expect(titleSubjects(title, text)).toEqual([]);
  });

  it.each([
    ['Notes on a trip', say('trip', 2)],
    ['design meeting 2020-07-01', say('transmute', 6)],
    ['Retry policy design meeting', say('Nothing here names it', 6)],
    // A title that is a name and a year says nothing of what kind of text it is: no piece of it is its subject.
    ['2019年度城市马拉松赛', '年度城市马拉松赛在江边举行。城市马拉松赛每年一次。'],
  ])('the work titled %s names no subject', (title, text) => {
    expect(titleSubjects(title, text, undefined, { work: true })).toEqual([]);
  });
});
