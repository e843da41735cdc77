import { describe, expect, it } from 'vitest';
import { plainPairs, queryTerms } from './retrieve.js';

describe('plainPairs: the Chinese words of a question that name nothing', () => {
  const pairs = (q: string) => plainPairs(q, queryTerms([q]));

  it('takes everyday words and pairs across two words, never a pair inside a longer word', () => {
    const plain = pairs('Go 的 recover 在实际开发中有用吗？');
    // Everyday words and pairs that straddle two words.
    for (const t of ['实际', '开发', '际开', '发中']) expect(plain).toContain(t);
    const detector = pairs('Go 的竞态检测器是基于 ThreadSanitizer 吗？');
    // 检测 and 测器 stand inside 检测器: part of what the question names.
    expect(detector).not.toContain('检测');
    expect(detector).not.toContain('测器');
    expect(detector).toContain('基于');
  });

  it('finds none in a question without Chinese words', () => {
    expect(pairs('When is recover useful in Go?')).toEqual([]);
  });
});

describe('queryTerms: qualified names', () => {
  it('keeps a qualified name as one phrase, its function word too, and no abbreviation with dots', () => {
    const terms = queryTerms(['errors.Is versus errors.As: what does each one check?']);
    expect(terms).toContain('errors is');
    expect(terms).toContain('errors as');
    expect(terms).not.toContain('is');
    expect(queryTerms(['Who won in the U.S. in 1990?']).some((t) => t.includes(' '))).toBe(false);
  });
});
