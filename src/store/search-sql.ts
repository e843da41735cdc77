/** The two searches a question runs most, shared by the store and its search thread (search-thread.ts), and the counter they share queries by. */

/** Chunk rowids matching an FTS5 expression with their BM25 scores (higher is better), best first. */
export const CHUNKS_MATCHING = `SELECT rowid AS id, -bm25(chunks_fts) AS score FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY bm25(chunks_fts) LIMIT ?`;

/** Chunk rowids nearest to a vector (sqlite-vec; k at most 4096), nearest first. */
export const CHUNKS_NEAREST = `SELECT rowid AS id FROM vec_chunks WHERE embedding MATCH ? AND k = ? ORDER BY distance`;

/** The next of `n` shared queries for whoever asks (a counter in shared memory), or undefined when all are taken. */
export function takeNext(taken: Int32Array, n: number): number | undefined {
  const i = Atomics.add(taken, 0, 1);
  return i < n ? i : undefined;
}

/** A counter of shared queries taken, for `chunksMatchingShared` and `takeNext`. */
export function sharedCounter(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4));
}
