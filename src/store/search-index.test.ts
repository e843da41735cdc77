import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from './store.js';

const opts = { fingerprint: 'test', dims: 8 };
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the full-text index', () => {
  it('is built again from the stored text when the search terms change', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-store-'));
    dirs.push(dir);
    const path = join(dir, 'embeddings.db');
    let store = new Store(path, opts);
    // A chunk indexed the way an older kb did: bigrams only, no single characters.
    store.putChunks(
      'source/panda',
      'panda.md',
      [
        {
          ord: 0,
          headings: ['大熊猫'],
          text: '大熊猫吃竹子。',
          tokens: 8,
          line: 1,
          fts: '大熊 熊猫 熊猫 猫吃 吃竹 竹子',
        },
      ],
      [],
    );
    store.setMeta('search_terms', 'terms-v1');
    expect(store.searchChunks('"竹"', 10)).toEqual([]);
    store.close();

    store = new Store(path, opts);
    expect(store.searchChunks('"竹"', 10).map((r) => r.id)).toHaveLength(1);
    expect(store.termStats(['竹', '大熊', 'bamboo'])).toEqual({
      chunks: 1,
      df: new Map([
        ['竹', 1],
        ['大熊', 1],
        ['bamboo', 0],
      ]),
    });
    store.close();
  });
});

describe('a store mapped for search', () => {
  it('finds the same passages through a memory map, and maps only when asked', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-store-'));
    dirs.push(dir);
    const store = new Store(join(dir, 'embeddings.db'), opts);
    const unit = (i: number) => Float32Array.from({ length: 8 }, (_, j) => (j === i % 8 ? 1 : 0.1 * j));
    const chunks = Array.from({ length: 40 }, (_, i) => ({
      ord: i,
      headings: [],
      text: `passage ${i} about topic ${i % 5}`,
      tokens: 5,
      line: i + 1,
    }));
    store.putChunks(
      'source/topics',
      'topics.md',
      chunks,
      chunks.map((_c, i) => unit(i)),
    );
    const query = unit(3);
    const before = { near: store.nearestChunks(query, 10), words: store.searchChunks('"topic"', 10) };
    expect(store.mappedBytes()).toBe(0);
    store.mapForSearch();
    expect(store.mappedBytes()).toBeGreaterThan(0);
    expect(store.nearestChunks(query, 10)).toEqual(before.near);
    expect(store.searchChunks('"topic"', 10)).toEqual(before.words);
    store.close();
  });
});

describe('term statistics', () => {
  it('are counted again after any write, by this connection or another', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-store-'));
    dirs.push(dir);
    const path = join(dir, 'embeddings.db');
    const chunk = (ord: number, text: string) => ({ ord, headings: [], text, tokens: 3, line: ord + 1 });
    const store = new Store(path, opts);
    store.putChunks('source/a', 'a.md', [chunk(0, 'vector search'), chunk(1, 'keyword search')], []);
    expect(store.termStats(['search', 'vector'])).toEqual({
      chunks: 2,
      df: new Map([
        ['search', 2],
        ['vector', 1],
      ]),
    });
    store.putChunks('source/b', 'b.md', [chunk(0, 'vector index')], []);
    expect(store.termStats(['search', 'vector'])).toEqual({
      chunks: 3,
      df: new Map([
        ['search', 2],
        ['vector', 2],
      ]),
    });
    const other = new Store(path, opts);
    other.putChunks('source/c', 'c.md', [chunk(0, 'vector store')], []);
    other.close();
    expect(store.termStats(['vector'])).toEqual({ chunks: 4, df: new Map([['vector', 3]]) });
    store.close();
  });
});
