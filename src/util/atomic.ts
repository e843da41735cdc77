import { mkdirSync, renameSync, writeFileSync, rmSync, openSync, fsyncSync, closeSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';

let counter = 0;

/** Write a file whole: a temp file next to it, fsync, then rename over the target. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${counter++}.tmp`);
  try {
    writeFileSync(tmp, data);
    const fd = openSync(tmp, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
