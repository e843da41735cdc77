import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { cosine } from './similarity.js';

/** sqlite-vec answers at most this many neighbours per query. */
const MAX_K = 4096;
/** Float32 arithmetic in sqlite-vec against doubles here: take a little more, the caller checks exactly. */
const SLACK = 1e-3;

/**
 * Pairs [i, j] (i < j, sorted) of vectors whose cosine may reach `min`, found with sqlite-vec's
 * k-nearest-neighbour search instead of comparing every pair: each vector asks for its nearest
 * neighbours, more of them while the farthest returned is still close enough. A superset of the
 * pairs with cosine ≥ min (the caller decides on the exact cosine). Missing or zero vectors pair
 * with nothing.
 */
export function closePairs(vectors: readonly (Float32Array | undefined)[], min: number): [number, number][] {
  const ids = vectors.flatMap((v, i) => (v?.some((x) => x !== 0) ? [i] : []));
  if (ids.length < 2) return [];
  const dims = vectors[ids[0]!]!.length;
  const db = new Database(':memory:');
  try {
    sqliteVec.load(db);
    db.exec(`CREATE VIRTUAL TABLE v USING vec0(embedding float[${dims}] distance_metric=cosine)`);
    const put = db.prepare(`INSERT INTO v (rowid, embedding) VALUES (?, ?)`);
    db.transaction(() => {
      for (const i of ids) put.run(BigInt(i), vectors[i]!);
    })();
    const near = db.prepare(`SELECT rowid AS id, distance FROM v WHERE embedding MATCH ? AND k = ? ORDER BY distance`);
    const maxDistance = 1 - min + SLACK;
    const pairs = new Set<string>();
    const add = (i: number, j: number) => i !== j && pairs.add(i < j ? `${i} ${j}` : `${j} ${i}`);
    for (const i of ids) {
      const v = vectors[i]!;
      for (let k = Math.min(16, ids.length); ; k = Math.min(k * 4, ids.length, MAX_K)) {
        const rows = near.all(v, k) as { id: number | bigint; distance: number }[];
        for (const r of rows) if (r.distance <= maxDistance) add(i, Number(r.id));
        const farthest = rows.at(-1)?.distance ?? Infinity;
        if (rows.length < k || farthest > maxDistance || k === ids.length) break;
        if (k === MAX_K) {
          // More close neighbours than one query returns: compare this one with all.
          for (const j of ids) if (cosine(v, vectors[j]!) >= min - SLACK) add(i, j);
          break;
        }
      }
    }
    return [...pairs]
      .map((p) => p.split(' ').map(Number) as [number, number])
      .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  } finally {
    db.close();
  }
}
