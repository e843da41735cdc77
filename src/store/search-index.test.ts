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
