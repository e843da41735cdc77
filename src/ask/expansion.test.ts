import { describe, expect, it } from 'vitest';
import { abbreviationsIn, expands, spells } from './expansion.js';

describe('expansion: what an abbreviation stands for, spelt out beside it', () => {
  it.each([
    ['MOC（Map of Contents）的常用中文翻译是「内容地图」。', 'MOC'],
    ['Hybrid search merges the lists with Reciprocal Rank Fusion (RRF), k = 60.', 'RRF'],
    ['HNSW (Hierarchical Navigable Small World) graphs answer nearest-neighbour queries.', 'HNSW'],
    ['检索增强生成（Retrieval-Augmented Generation，RAG）', 'RAG'],
    ['Agents use the ADK (Agent Development Kit, from Google).', 'ADK'],
  ])('%s spells out %s', (text, abbr) => {
    expect(expands(text, abbr)).toBe(true);
  });

  it.each([
    ['MOC 是一种笔记，用来组织其他笔记。', 'MOC'],
    ['The RRF score (a sum over lists) is simple.', 'RRF'],
    ['We tried HNSW (it was fast) on the data.', 'HNSW'],
    ['Reciprocal Rank Fusion (fusion of ranks) is old.', 'RRF'],
  ])('%s does not spell out %s', (text, abbr) => {
    expect(expands(text, abbr)).toBe(false);
  });

  it('reads the abbreviations a question names, and initials with or without function words', () => {
    expect(abbreviationsIn('MOC 是什么的缩写，中文一般怎么叫？')).toEqual(['MOC']);
    expect(abbreviationsIn('What do APIs and BM25 stand for?')).toEqual(['API', 'BM25']);
    expect(abbreviationsIn('What does it stand for?')).toEqual([]);
    expect(spells('Map of Contents', 'MOC')).toBe(true);
    expect(spells('Map of Contents', 'MC')).toBe(true);
    expect(spells('Contents', 'C')).toBe(false);
  });
});
