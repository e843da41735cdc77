import { mkdirSync, renameSync, writeFileSync, rmSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { DiskFullError, diskFullCode, shownPath } from '../diagnostics/disk-full.js';

let counter = 0;

/** Write a file whole: a temp file next to it, fsync, then rename over the target. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${counter++}.tmp`);
  try {
    // No fsync per file: rename makes the write whole against a killed process, and an
    // interrupted compile redoes its pending work; fsync on thousands of entries costs seconds.
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    // A write error names no file: say which one it was.
    if (diskFullCode(err)) throw new DiskFullError(shownPath(path), { cause: err });
    throw err;
  }
}
