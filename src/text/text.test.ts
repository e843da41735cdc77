import { describe, expect, it } from 'vitest';
import { countTokens } from './tokens.js';
import { searchTerms } from './search.js';
import { mainlandWord } from './fold.js';
import { detectLang } from './script.js';
import { mendQuotes } from './quotes.js';
import { segmentWords, sentenceSpans, sentences } from './segment.js';
import { stemWord } from './english.js';
import { withoutInterrogatives } from './lang/zh.js';

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
    ['向量数据库', ['向', '量', '数', '据', '库', '向量', '量数', '数据', '据库']],
    ['检', ['检']],
    ['RAG 检索', ['rag', '检', '索', '检索']],
    // A number or a Latin word written against Han text is a term of its own.
    ['1991年亚马逊', ['1991', '年', '亚', '马', '逊', '年亚', '亚马', '马逊']],
    ['NASUWT是', ['nasuwt', '是']],
    // Full-width letters and digits read as ASCII.
    ['ＡＩ２０２４', ['ai2024']],
  ])('%j', (text, terms) => expect(searchTerms(text)).toEqual(terms));

  it('folds Traditional Chinese to Simplified, so either finds the other', () => {
    expect(searchTerms('資料庫與檢索')).toEqual(searchTerms('资料库与检索'));
    expect(searchTerms('軟體開發')).toEqual(searchTerms('软体开发'));
    expect(searchTerms('向量資料庫')[0]).toBe('向');
    expect(searchTerms('臺灣的大熊貓')).toEqual(searchTerms('台湾的大熊猫'));
    // Simplified and English text come through as they are.
    expect(searchTerms('大熊猫 giant panda')).toEqual(['大', '熊', '猫', '大熊', '熊猫', 'giant', 'panda']);
  });

  it('reads a Taiwan word as Mainland Chinese writes it, for judging words, and leaves Simplified words alone', () => {
    expect(mainlandWord('程式碼')).toBe('代码');
    expect(mainlandWord('開源專案')).toBe('开源项目');
    expect(mainlandWord('智慧體')).toBe('智能体');
    // 著 is a Simplified character too: only Taiwan's character variants apply.
    expect(mainlandWord('意味著')).toBe('意味着');
    // No vocabulary change in a Simplified word (the phrase table would make 向量 矢量).
    expect(mainlandWord('向量')).toBe('向量');
    expect(mainlandWord('context window')).toBe('context window');
  });

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
    expect(sentences('第一句。第二句！Third one. Fourth?')).toEqual(
      ['第一句。', '第二句！', 'Third one. ', 'Fourth?'].map((s) => s.trim()),
    );
  });
});

describe('sentenceSpans', () => {
  it('gives each sentence as offsets into the text, as written', () => {
    const text = 'First one. Second one!\n\n第一句。第二句？';
    const spans = sentenceSpans(text);
    expect(spans.map(([a, b]) => text.slice(a, b))).toEqual(['First one.', 'Second one!', '第一句。', '第二句？']);
  });
});

describe('segmentWords on punctuation', () => {
  it('gives the segments ICU gives for ASCII without letters, digits or _ (checked on 5,000 random strings)', () => {
    const icu = new Intl.Segmenter('zh', { granularity: 'word' });
    const chars = ' \t\n\r!"#$%&\'()*+,-./:;<=>?@[\\]^`{|}~\x01\x7f\x0b\x0c';
    let seed = 42;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let k = 0; k < 5000; k++) {
      let s = '';
      for (let i = 0, n = 1 + Math.floor(rand() * 40); i < n; i++) s += chars[Math.floor(rand() * chars.length)];
      const want = [...icu.segment(s)].map((x) => ({ text: x.segment, index: x.index, isWord: x.isWordLike === true }));
      expect(segmentWords(s), JSON.stringify(s)).toEqual(want);
    }
  });
});

describe('mendQuotes', () => {
  it('joins an English sentence that opens with a quoted question and goes on in lower case', () => {
    expect(
      mendQuotes(['“Is this design beautiful?”', 'is hard to answer consistently.', '“Why?”', 'He asked.']),
    ).toEqual(['“Is this design beautiful?” is hard to answer consistently.', '“Why?”', 'He asked.']);
  });
});

describe('withoutInterrogatives', () => {
  it('blanks the words that shape a question about several things, not the same characters in a statement', () => {
    const left = (q: string) => withoutInterrogatives(q).replace(/\s+/g, ' ').trim();
    expect(left('Lint 和 Heal 分别做什么？')).toBe('Lint 和 Heal 做 ？');
    expect(left('上下文重置和压缩有什么区别？')).toBe('上下文重置和压缩有 ？');
    expect(left('他们各自负责什么？')).toBe('他们 负责 ？');
    expect(left('区别对待的原则是什么')).toBe('区别对待的原则是');
  });

  it('blanks the words of a question about a purpose, not a verb the question asks about', () => {
    const left = (q: string) => withoutInterrogatives(q).replace(/\s+/g, ' ').trim();
    expect(left('React 编译器是做什么用的？')).toBe('React 编译器 ？');
    expect(left('git bisect 是用来做什么的？')).toBe('git bisect ？');
    expect(left('嵌入有什么用？')).toBe('嵌入 ？');
    expect(left('他们平时做什么运动？')).toBe('他们平时做 运动？');
  });

  it('blanks 什么 with the time or case it asks for, and leaves a measure word, not those words in a statement', () => {
    const left = (q: string) => withoutInterrogatives(q).replace(/\s+/g, ' ').trim();
    expect(left('Go 的 recover 什么时候才有用？')).toBe('Go 的 recover 才有用？');
    expect(left('一个组件在什么情况下会渲染？')).toBe('一个组件 会渲染？');
    expect(left('竞态检测器是基于哪个库实现的？')).toBe('竞态检测器是基于 个库实现的？');
    expect(left('记笔记的目的分成哪几类？')).toBe('记笔记的目的分成 类？');
    expect(left('有几种方法？')).toBe('有 种方法？');
    expect(left('这个时候一个方法就够了')).toBe('这个时候一个方法就够了');
  });
});

describe('stemWord', () => {
  it('gives the forms of an English word one stem and leaves other text alone', () => {
    expect(stemWord('meetings')).toBe(stemWord('meeting'));
    expect(stemWord('attended')).toBe('attend');
    expect(stemWord('stored')).toBe(stemWord('store'));
    for (const w of ['the', '分词', 'x86', 'gpt4o']) expect(stemWord(w)).toBe(w);
    // Who does or undergoes the action stems as the verb (attendees, attended); not a doubled consonant's word.
    expect(stemWord('attendees')).toBe(stemWord('attended'));
    expect(stemWord('employee')).toBe(stemWord('employed'));
    expect(stemWord('committee')).not.toBe(stemWord('commit'));
  });
});
