import { describe, expect, it } from 'vitest';
import { uiLanguage, WORDS, wordsFor } from './words.js';

describe('uiLanguage follows the wiki', () => {
  const cases: [string, Parameters<typeof uiLanguage>[0], string[], string][] = [
    ['set to English', 'en', ['向量数据库', '检索'], 'en'],
    ['set to Chinese', 'zh', ['BM25', 'Vector databases'], 'zh'],
    ['set to Traditional', 'zh-TW', [], 'zh-TW'],
    ['auto, mostly English', 'auto', ['BM25 scores documents', 'Vector databases', '向量数据库'], 'en'],
    ['auto, mostly Chinese', 'auto', ['向量数据库', '中文分词与全文检索', 'BM25'], 'zh'],
    ['auto, empty wiki', 'auto', [], 'en'],
  ];
  for (const [name, setting, sample, want] of cases) it(name, () => expect(uiLanguage(setting, sample)).toBe(want));

  it('has every word in both languages, and Traditional through OpenCC', () => {
    expect(Object.keys(WORDS.zh).sort()).toEqual(Object.keys(WORDS.en).sort());
    expect(wordsFor('zh-TW').search).toBe('搜索');
    expect(wordsFor('zh-TW').graph).toBe('圖譜');
  });
});
