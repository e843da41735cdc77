import { createHash } from 'node:crypto';
import type { ContentHash } from '../types.js';

export function sha256(data: string | Uint8Array): ContentHash {
  return createHash('sha256').update(data).digest('hex') as ContentHash;
}

/** Pieces hashed at once, not one by one: each update is a call into native code. */
const PIECES_BYTES = 64 * 1024;

/**
 * The sha256 of pieces of text hashed in turn (the hash of their concatenation), without building
 * the whole: a render key's mentions at 10,000 documents are megabytes of text per concept.
 */
export function sha256Pieces(pieces: Iterable<string>): ContentHash {
  const h = createHash('sha256');
  let batch = '';
  for (const p of pieces) {
    batch += p;
    if (batch.length >= PIECES_BYTES) {
      h.update(batch);
      batch = '';
    }
  }
  if (batch) h.update(batch);
  return h.digest('hex') as ContentHash;
}

/** Short stable hash for suffixes and ids. */
export function shortHash(data: string, length = 8): string {
  return sha256(data).slice(0, length);
}
