import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { LockError } from '../diagnostics/errors.js';

export interface LockInfo {
  pid: number;
  host: string;
  command: string;
  started: number;
}

export interface Lock {
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readLock(path: string): LockInfo | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockInfo;
  } catch {
    return undefined;
  }
}

/**
 * One writer at a time (compile, watch, heal): a lock file created with O_EXCL holding the
 * holder's pid. A lock left by a dead process on this host is taken over. With `waitMs`,
 * waits that long for the holder to finish; otherwise fails at once naming the holder.
 */
export async function acquireLock(path: string, command: string, opts: { waitMs?: number } = {}): Promise<Lock> {
  mkdirSync(dirname(path), { recursive: true });
  const deadline = Date.now() + (opts.waitMs ?? 0);
  for (;;) {
    try {
      const fd = openSync(path, 'wx');
      const info: LockInfo = { pid: process.pid, host: hostname(), command, started: Math.floor(Date.now() / 1000) };
      writeSync(fd, JSON.stringify(info));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        const now = readLock(path);
        if (now?.pid === process.pid) rmSync(path, { force: true });
        process.off('exit', release);
      };
      process.on('exit', release);
      return { release };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readLock(path);
    if (!holder || (holder.host === hostname() && !alive(holder.pid))) {
      // Stale (the holder died) or half-written: take it over.
      rmSync(path, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      const since = new Date(holder.started * 1000).toISOString();
      throw new LockError(
        `Another kb process holds the lock: \`kb ${holder.command}\` (pid ${holder.pid} on ${holder.host}, since ${since}). Wait for it to finish, or stop it; the lock is ${path}.`,
        holder.pid,
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
