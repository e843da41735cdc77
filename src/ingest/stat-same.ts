import type { RawFile } from './types.js';

/** What the store recorded of a raw file when it was compiled. */
export interface RecordedFile {
  size: number;
  mtime_ms: number;
  /** Unix seconds. */
  compiled_at: number;
}

/**
 * Same size and modification time as when compiled: unchanged, without reading it (as git and make
 * do). A file modified within two seconds of that compile is read anyway (racy timestamps). Compile
 * skips such a file and `kb status` counts it compiled: both by this one rule.
 */
export function statSame(prev: RecordedFile | undefined, file: Pick<RawFile, 'size' | 'mtimeMs'>): boolean {
  return Boolean(
    prev && prev.size === file.size && prev.mtime_ms === file.mtimeMs && file.mtimeMs < prev.compiled_at * 1000 - 2000,
  );
}
