/**
 * The search thread's side (search-thread.ts): its own read-only connection to the store, answering
 * full-text and vector searches one message at a time. A message `{ close: true }` closes it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { CHUNKS_MATCHING, CHUNKS_NEAREST, takeNext } from './search-sql.js';

export type SearchRequest =
  | { id: number; vector: Float32Array; k: number; taken: Int32Array }
  | { id: number; matches: string[]; limit: number; taken: Int32Array }
  | { close: true };

const { path, mmapBytes } = workerData as { path: string; mmapBytes: number };
const db = new Database(path, { readonly: true, fileMustExist: true });
sqliteVec.load(db);
db.pragma('busy_timeout = 5000');
db.pragma(`mmap_size = ${mmapBytes}`);
const matching = db.prepare(CHUNKS_MATCHING);
const nearest = db.prepare(CHUNKS_NEAREST);

parentPort!.on('message', (m: SearchRequest) => {
  if ('close' in m) {
    db.close();
    parentPort!.close();
    return;
  }
  try {
    const result =
      'matches' in m
        ? shared(m.matches, m.limit, m.taken)
        : takeNext(m.taken, 1) === undefined
          ? null
          : (nearest.all(m.vector, Math.min(4096, m.k)) as { id: number | bigint }[]).map((r) => Number(r.id));
    parentPort!.postMessage({ id: m.id, result });
  } catch (err) {
    parentPort!.postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) });
  }
});

/** The shared queries this thread takes while any is left, each with its index. */
function shared(matches: string[], limit: number, taken: Int32Array): [number, unknown[]][] {
  const out: [number, unknown[]][] = [];
  for (let i = takeNext(taken, matches.length); i !== undefined; i = takeNext(taken, matches.length))
    out.push([i, matching.all(matches[i], limit)]);
  return out;
}
