import { isAbsolute, relative } from 'node:path';
import { KbError } from './errors.js';

/**
 * The disk (or the person's quota) is full. Nothing is damaged: what kb writes is whole or not at
 * all (files by rename, databases by transaction), so the next run, with space, finishes the work.
 */
export class DiskFullError extends KbError {
  /** What was being written, as shown (relative to the current folder when inside it). */
  readonly path: string;
  constructor(path: string, options?: { cause?: unknown }) {
    super(`the disk is full while writing ${path}: free some space and run again`, 1, options);
    this.name = 'DiskFullError';
    this.path = path;
  }
}

const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

/** The error code of `err` or of an error in its cause chain that says the disk is full, or undefined. */
export function diskFullCode(err: unknown, depth = 0): string | undefined {
  if (typeof err !== 'object' || err === null || depth > 4) return undefined;
  const code = 'code' in err ? String(err.code) : '';
  if (FULL_CODES.has(code)) return code;
  // A worker's error arrives as a copy: the code may survive only in the message.
  const msg = 'message' in err ? String(err.message) : '';
  if (/database or disk is full/i.test(msg)) return 'SQLITE_FULL';
  if (/\bENOSPC\b|no space left on device/i.test(msg)) return 'ENOSPC';
  return 'cause' in err ? diskFullCode(err.cause, depth + 1) : undefined;
}

/** A path as a person reads it: relative to the current folder when inside it. */
export function shownPath(path: string, cwd = process.cwd()): string {
  if (!isAbsolute(path)) return path;
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** The file an fs error names, without the temporary name kb writes it under (`.name.pid.n.tmp`). */
function writtenPath(err: unknown, depth = 0): string | undefined {
  if (typeof err !== 'object' || err === null || depth > 4) return undefined;
  if ('path' in err && typeof err.path === 'string')
    return err.path.replace(/(^|[\\/])\.([^\\/]+)\.\d+\.\d+\.tmp$/, '$1$2');
  return 'cause' in err ? writtenPath(err.cause, depth + 1) : undefined;
}

/**
 * `err` as a DiskFullError when it says the disk is full, else undefined. SQLite does not say which
 * file it was writing: `databases` (those the run opened) are named instead.
 */
export function asDiskFull(err: unknown, databases: readonly string[] = []): DiskFullError | undefined {
  if (err instanceof DiskFullError) return err;
  const code = diskFullCode(err);
  if (!code) return undefined;
  const file = writtenPath(err);
  const what = file
    ? shownPath(file)
    : code === 'SQLITE_FULL' && databases.length
      ? databases.map((d) => shownPath(d)).join(' or ')
      : 'a file';
  return new DiskFullError(what, { cause: err });
}
