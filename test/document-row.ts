import type { DocumentRow } from '../src/store/store.js';
import { OFFLINE_COMPILER } from '../src/compile/offline/writer.js';

/** A stored document as the offline compiler leaves it, its path as its hash, entry and title. */
export function documentRow(path: string, fields: Partial<DocumentRow> = {}): DocumentRow {
  return {
    raw_path: path,
    hash: path,
    type: 'markdown',
    title: `Doc ${path}`,
    entry_id: `source/${path}`,
    size: 1,
    mtime_ms: 0,
    lang: 'en',
    status: 'ok',
    error: null,
    compiled_at: 0,
    compiler: OFFLINE_COMPILER,
    ...fields,
  };
}
