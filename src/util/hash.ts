import { createHash } from 'node:crypto';
import type { ContentHash } from '../types.js';

export function sha256(data: string | Uint8Array): ContentHash {
  return createHash('sha256').update(data).digest('hex') as ContentHash;
}

/** Short stable hash for suffixes and ids. */
export function shortHash(data: string, length = 8): string {
  return sha256(data).slice(0, length);
}
