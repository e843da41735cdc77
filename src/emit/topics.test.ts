import { describe, expect, it } from 'vitest';
import { indexTopics, type TopicItem } from './topics.js';

const c = (id: string): TopicItem => ({ id: `concept/${id}`, kind: 'concept', title: id, links: [] });
const s = (id: string, ...links: string[]): TopicItem => ({
  id: `source/${id}`,
  kind: 'source',
  title: id,
  links: links.map((l) => `concept/${l}`),
});

describe('indexTopics: the index grouped by what sources share', () => {
  it('puts a concept in the topic of the most cited concept whose sources overlap its own, and each source in one topic', () => {
    const items = [
      c('BM25'),
      c('IDF'),
      c('inverted index'),
      c('Zettelkasten'),
      c('Luhmann'),
      c('lonely'),
      s('a', 'BM25', 'IDF'),
      s('b', 'BM25', 'inverted index'),
      s('c', 'BM25', 'IDF'),
      s('d', 'Zettelkasten', 'Luhmann'),
      s('e', 'Zettelkasten'),
      s('f', 'lonely'),
      s('g', 'BM25', 'inverted index'),
    ];
    const { topics, rest } = indexTopics(items);
    expect(topics.map((t) => t.head)).toEqual(['concept/BM25', 'concept/Zettelkasten']);
    expect(topics[0]!.concepts).toEqual(['concept/BM25', 'concept/IDF', 'concept/inverted index']);
    expect(topics[0]!.sources).toEqual(['source/a', 'source/b', 'source/c', 'source/g']);
    expect(topics[1]!.concepts).toEqual(['concept/Zettelkasten', 'concept/Luhmann']);
    expect(rest).toEqual(['concept/lonely']);
  });

  it('leaves a concept that shares too little with every head to a topic of its own', () => {
    const items = [
      c('hub'),
      c('rare'),
      s('a', 'hub'),
      s('b', 'hub'),
      s('c', 'hub', 'rare'),
      s('d', 'rare'),
      s('e', 'rare'),
    ];
    const { topics } = indexTopics(items);
    expect(topics.map((t) => t.concepts)).toEqual([['concept/hub'], ['concept/rare']]);
  });

  it('gives the same topics whatever the order of the entries', () => {
    const items = [c('A'), c('B'), c('C'), s('x', 'A', 'B'), s('y', 'B', 'C'), s('z', 'A', 'C')];
    expect(indexTopics([...items].reverse())).toEqual(indexTopics(items));
  });

  it('groups alike whether pairs are counted in a table or in a Map', () => {
    // A small generated knowledge base: 40 concepts, 300 sources linking 2 to 9 of them.
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    const items: TopicItem[] = Array.from({ length: 40 }, (_, i) => c(`c${i}`));
    for (let i = 0; i < 300; i++)
      items.push(s(`s${i}`, ...Array.from({ length: 2 + (next() % 8) }, () => `c${next() % 40}`)));
    const inTable = indexTopics(items);
    expect(inTable.topics.length).toBeGreaterThan(1);
    expect(indexTopics(items, 0)).toEqual(inTable);
  });
});

describe('indexTopics: the order of the entries given', () => {
  it('changes nothing, two sources or concepts of one title included', () => {
    const twin = (id: string, title: string, ...links: string[]): TopicItem => ({ ...s(id, ...links), title });
    const items = [
      c('BM25'),
      c('IDF'),
      { ...c('branch'), id: 'concept/branch-2' },
      c('branch'),
      twin('git-branching', 'Git 分支', 'branch', 'BM25'),
      twin('git-branching-2', 'Git 分支', 'branch', 'BM25'),
      s('a', 'BM25', 'IDF'),
      s('b', 'BM25', 'IDF', 'branch'),
      s('c', 'branch-2', 'BM25'),
    ];
    const once = indexTopics(items);
    expect(once.topics.length).toBeGreaterThan(0);
    expect(indexTopics([...items].reverse())).toEqual(once);
    expect(indexTopics([...items.slice(4), ...items.slice(0, 4)])).toEqual(once);
  });
});
