import { describe, expect, it } from 'vitest';
import { abbreviatedWords, abbreviationsIn, expands, spells } from './expansion.js';

describe('expansion: what an abbreviation stands for, spelt out beside it', () => {
  it.each([
    ['SRS（Spaced Repetition System）的常用中文翻译是「间隔重复系统」。', 'SRS'],
    ['Hybrid search merges the lists with Reciprocal Rank Fusion (RRF), k = 60.', 'RRF'],
    ['HNSW (Hierarchical Navigable Small World) graphs answer nearest-neighbour queries.', 'HNSW'],
    ['检索增强生成（Retrieval-Augmented Generation，RAG）', 'RAG'],
    ['Agents use the ADK (Agent Development Kit, from Google).', 'ADK'],
  ])('%s spells out %s', (text, abbr) => {
    expect(expands(text, abbr)).toBe(true);
  });

  it.each([
    ['SRS 是一种复习方法，用来安排复习。', 'SRS'],
    ['The RRF score (a sum over lists) is simple.', 'RRF'],
    ['We tried HNSW (it was fast) on the data.', 'HNSW'],
    ['Reciprocal Rank Fusion (fusion of ranks) is old.', 'RRF'],
  ])('%s does not spell out %s', (text, abbr) => {
    expect(expands(text, abbr)).toBe(false);
  });

  it('reads the abbreviations a question names, and initials with or without function words', () => {
    expect(abbreviationsIn('SRS 是什么的缩写？')).toEqual(['SRS']);
    expect(abbreviationsIn('What do APIs and BM25 stand for?')).toEqual(['API', 'BM25']);
    expect(abbreviationsIn('What does it stand for?')).toEqual([]);
    expect(spells('Bill of Materials', 'BOM')).toBe(true);
    expect(spells('Bill of Materials', 'BM')).toBe(true);
    expect(spells('Contents', 'C')).toBe(false);
  });
});

describe('abbreviatedWords', () => {
  it('finds the abbreviation a text writes for words of the question, function words skipped inside', () => {
    const texts = ['A stale lock could cause a DL here.', 'The BOM lists every part.', 'It uses HTTP.'];
    expect([...abbreviatedWords('Why could a stale lock be a dead lock?', texts)]).toEqual([['DL', ['dead', 'lock']]]);
    expect([...abbreviatedWords('Where is the bill of materials kept?', texts)]).toEqual([
      ['BOM', ['bill', 'of', 'materials']],
    ]);
  });

  it('takes no run that opens or ends with a function word (it, of) or holds a name with a digit, and no abbreviation the question does not spell', () => {
    expect(abbreviatedWords('Is it of use?', ['An IOU is owed.']).size).toBe(0);
    expect(abbreviatedWords('Why does the cache miss?', ['HTTP caches differ.']).size).toBe(0);
    expect(abbreviatedWords('Who did infra2 partner with?', ['Each host has an IP.']).size).toBe(0);
  });
});
