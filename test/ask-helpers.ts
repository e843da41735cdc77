import { DEFAULT_CONFIG, type KbConfig } from '../src/config/defaults.js';
import type { Embedder } from '../src/embed/types.js';
import type { KbContext } from '../src/kb/context.js';
import { kbPaths } from '../src/kb/paths.js';
import { Store } from '../src/store/store.js';
import { searchTerms } from '../src/text/search.js';
import { sha256 } from '../src/util/hash.js';

/** A deterministic bag-of-terms embedder for tests: no download, no network. */
export function fakeEmbedder(dims = 64): Embedder {
  return {
    fingerprint: `test-bag-${dims}`,
    dims,
    async embed(texts: string[]): Promise<Float32Array[]> {
      return texts.map((t) => {
        const v = new Float32Array(dims);
        for (const term of searchTerms(t)) {
          const h = sha256(term);
          v[parseInt(h.slice(0, 6), 16) % dims]! += parseInt(h.slice(6, 8), 16) & 1 ? 1 : -1;
        }
        let n = 0;
        for (const x of v) n += x * x;
        n = Math.sqrt(n) || 1;
        for (let i = 0; i < dims; i++) v[i]! /= n;
        if (n === 1) v[0] = 1;
        return v;
      });
    },
  } as Embedder;
}

/** A knowledge-base context over a root folder with the fake embedder (no openKb: no real embedder needed). */
export function testContext(root: string, config: KbConfig = DEFAULT_CONFIG): KbContext {
  const paths = kbPaths(root);
  const embedder = fakeEmbedder();
  const store = new Store(paths.db, { fingerprint: embedder.fingerprint, dims: embedder.dims });
  return { paths, config, store, embedder, env: {} };
}
