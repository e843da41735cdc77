import { describe, expect, it } from 'vitest';
import { usualChinese } from './dictionary.js';

describe('usualChinese: the usual Chinese of an English name', () => {
  const back = (table: Record<string, string>) => (zh: string) => table[zh];
  const cases: { why: string; key: string; senses: [string, number][]; back: Record<string, string>; zh?: string }[] = [
    {
      why: 'must: its best sense, a word',
      key: 'protocol',
      senses: [
        ['协议', 1],
        ['议定书', 0.8],
      ],
      back: {},
      zh: '协议',
    },
    {
      why: 'must: past a one-character best, the word that translates back to it (patch: 补丁)',
      key: 'patch',
      senses: [
        ['补', 1],
        ['补丁', 0.72],
        ['花斑', 0.64],
      ],
      back: { 补丁: 'patch' },
      zh: '补丁',
    },
    {
      why: 'must not: past a one-character best, a word that translates back to another word',
      key: 'spot',
      senses: [
        ['点', 1],
        ['斑点', 0.7],
      ],
      back: { 斑点: 'speck' },
    },
    { why: 'must not: a best sense the dictionary is unsure of', key: 'hub', senses: [['中心', 0.6]], back: {} },
  ];
  for (const c of cases)
    it(c.why, () => {
      const senses = c.senses.map(([term, weight]) => ({ term, weight }));
      expect(usualChinese(c.key, senses, back(c.back))).toBe(c.zh);
    });
});
