import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic.js';
import type { ContentHash } from '../types.js';

/**
 * Results of the slow converters (OCR, PDF, Office, e-books) kept in `.kb/ingest/` by the content
 * hash of the file and the converter's version: an unchanged file is never read twice, not on
 * `--force`, not after a rename, not when an entry is re-rendered for its links. Only outcomes
 * are kept (a document or why not), never a crash, so a fixed bug is not remembered.
 */
export async function cached<T>(
  dir: string | undefined,
  hash: ContentHash,
  version: string,
  make: () => Promise<T>,
): Promise<T> {
  if (!dir) return make();
  const path = join(dir, hash.slice(0, 2), `${hash}.${version}.json`);
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    // not cached yet (or unreadable): make it
  }
  const value = await make();
  try {
    writeFileAtomic(path, JSON.stringify(value));
  } catch {
    // A read-only .kb/ only costs the next run the same work.
  }
  return value;
}
