import { describe, expect, it } from 'vitest';
import { countTokens } from './tokens.js';
import { searchTerms } from './search.js';
import { detectLang } from './script.js';
import { sentences } from './segment.js';

describe('countTokens', () => {
  it.each([
    ['', 0],
    ['a', 1],
    ['Hello world', 4],
    // One Han character is about one token: Chinese is not undercounted.
    ['检索增强生成', 7],
    ['向量数据库（vector database）', 12],
  ])('%j → %i', (text, n) => expect(countTokens(text)).toBe(n));

  it('counts Chinese at about a token per character and English at about 4 characters per token', () => {
    const zh = '中文分词是全文检索的第一步。'.repeat(20);
    const en = 'Full-text search starts with tokenization of the text. '.repeat(20);
    expect(countTokens(zh) / Array.from(zh).length).toBeGreaterThan(0.9);
    expect(countTokens(en) / en.length).toBeGreaterThan(0.2);
    expect(countTokens(en) / en.length).toBeLessThan(0.35);
  });
});

describe('searchTerms', () => {
  it.each([
    ['Vector Databases', ['vector', 'databases']],
    ['向量数据库', ['向量', '量数', '数据', '据库']],
    ['检', ['检']],
    ['RAG 检索', ['rag', '检索']],
  ])('%j', (text, terms) => expect(searchTerms(text)).toEqual(terms));

  it('finds a Chinese word inside a longer run (the query and the text share bigrams)', () => {
    const doc = new Set(searchTerms('倒排索引需要中文分词'));
    for (const t of searchTerms('中文分词')) expect(doc.has(t)).toBe(true);
  });
});

describe('detectLang and sentences', () => {
  it.each([
    ['The quick brown fox.', 'en'],
    ['检索增强生成是一种方法。', 'zh'],
    ['检索增强生成 (Retrieval-Augmented Generation) is a method for answering.', 'mixed'],
  ])('%j → %s', (t, l) => expect(detectLang(t)).toBe(l));

  it('splits Chinese and English sentences', () => {
    expect(sentences('第一句。第二句！Third one. Fourth?')).toEqual(['第一句。', '第二句！', 'Third one. ', 'Fourth?'].map((s) => s.trim()));
  });
});
