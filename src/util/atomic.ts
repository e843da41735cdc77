import { createHash } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
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

/** How much text is gathered before it is written: a few writes a megabyte, not one a chunk. */
const FLUSH_CHARS = 1 << 20;

/**
 * Write a file whole from chunks of text, holding one megabyte at a time rather than the whole
 * text: a temp file next to it, then renamed over the target — unless the target already holds
 * exactly these bytes (same size and SHA-256, read back in pieces), when it is left as it is.
 * Returns whether the file was written.
 */
export function writeChunksAtomicIfChanged(path: string, chunks: Iterable<string>): boolean {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${counter++}.tmp`);
  try {
    const hash = createHash('sha256');
    let size = 0;
    const fd = openSync(tmp, 'w');
    try {
      let pending = '';
      const flush = () => {
        const buf = Buffer.from(pending, 'utf8');
        hash.update(buf);
        size += buf.length;
        for (let at = 0; at < buf.length; ) at += writeSync(fd, buf, at);
        pending = '';
      };
      for (const c of chunks) {
        pending += c;
        if (pending.length >= FLUSH_CHARS) flush();
      }
      flush();
    } finally {
      closeSync(fd);
    }
    if (sameFile(path, size, hash.digest('hex'))) {
      rmSync(tmp, { force: true });
      return false;
    }
    renameSync(tmp, path);
    return true;
  } catch (err) {
    rmSync(tmp, { force: true });
    if (diskFullCode(err)) throw new DiskFullError(shownPath(path), { cause: err });
    throw err;
  }
}

/** Whether the file at `path` is `size` bytes whose SHA-256 is `sha256`, read a megabyte at a time. */
function sameFile(path: string, size: number, sha256: string): boolean {
  let fd: number;
  try {
    if (statSync(path).size !== size) return false;
    fd = openSync(path, 'r');
  } catch {
    return false;
  }
  try {
    const hash = createHash('sha256');
    const buf = Buffer.allocUnsafe(1 << 20);
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) hash.update(buf.subarray(0, n));
    return hash.digest('hex') === sha256;
  } finally {
    closeSync(fd);
  }
}
