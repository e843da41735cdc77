import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { everydayInTable, idfOf, isEverydayWord } from './jieba.js';
import { mainlandWord } from './fold.js';
import { HAN } from './script.js';

describe('isEverydayWord', () => {
  it('judges by the dictionary count: 上下文 and 新世界 are everyday, 知识库 and 评估器 terms; Taiwan words as Mainland ones', () => {
    for (const w of ['上下文', '新世界', '入场券', '模型']) expect(isEverydayWord(w), w).toBe(true);
    for (const w of ['知识库', '脚手架', '评估器', '的', 'abc']) expect(isEverydayWord(w), w).toBe(false);
    expect(isEverydayWord('程式碼')).toBe(isEverydayWord('代码'));
  });

  it('answers a lookup in the table as the whole table read into a set does', () => {
    const require = createRequire(import.meta.url);
    const { dict } = require('@node-rs/jieba/dict') as { dict: Uint8Array };
    const lines = Buffer.from(dict).toString('utf8').split('\n');
    // Every 997th word of the table, its first and last, and words it does not hold.
    const words = [
      ...lines.filter((_, i) => i % 997 === 0 || i === lines.length - 2).map((l) => l.split(' ')[0]!),
      '知识库之外',
      'x',
      '',
    ];
    for (let i = 0; i < 100; i++) isEverydayWord('上下文'); // past the lookups: the set answers from here on
    const differ = words.filter((w) => everydayInTable(mainlandWord(w)) !== isEverydayWord(w));
    expect(differ).toEqual([]);
    expect(words.filter((w) => everydayInTable(mainlandWord(w))).length).toBeGreaterThan(10);
  });
});

describe('idfOf', () => {
  it('knows Chinese words only: the table holds no other word below 9, so others are answered without reading it', () => {
    const require = createRequire(import.meta.url);
    const { idf } = require('@node-rs/jieba/dict') as { idf: Uint8Array };
    const kept = Buffer.from(idf)
      .toString('utf8')
      .split('\n')
      .map((l) => l.split(' '))
      .filter(([w, v]) => w && Number(v) < 9);
    expect(kept.length).toBeGreaterThan(10_000);
    expect(kept.filter(([w]) => !HAN.test(w!)).map(([w]) => w)).toEqual([]);
    expect(idfOf('模型')).toBeLessThan(9);
    expect(idfOf('model')).toBeUndefined();
  });
});
