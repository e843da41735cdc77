import { mkdirSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { LockError } from '../diagnostics/errors.js';
import { writeFileAtomic } from '../util/atomic.js';

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

function sqliteCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string'
    ? err.code
    : undefined;
}

/**
 * The exclusive lock on `dbPath`, or undefined when another connection holds it. kb never writes
 * to this database: a transaction is opened only for its lock. A file that is not a database (it
 * holds nothing of anyone's) is emptied in place, which keeps any lock on it valid.
 */
function holdDatabase(dbPath: string): Database.Database | undefined {
  for (let attempt = 0; ; attempt++) {
    const db = new Database(dbPath, { timeout: 0 });
    try {
      db.exec('BEGIN EXCLUSIVE');
      return db;
    } catch (err) {
      db.close();
      const code = sqliteCode(err);
      if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return undefined;
      if ((code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') && attempt === 0) {
        truncateSync(dbPath, 0);
        continue;
      }
      throw err;
    }
  }
}

/** Whom the info file names, when that one may really be holding the lock. */
function otherHolder(info: LockInfo | undefined): LockInfo | undefined {
  if (!info || (info.pid === process.pid && info.host === hostname())) return undefined;
  // A process on another machine (a shared folder) cannot be checked: it counts as alive.
  return info.host !== hostname() || alive(info.pid) ? info : undefined;
}

/**
 * One writer at a time (compile, watch, heal, ask --save). The lock itself is an exclusive SQLite
 * transaction on `<path>.db`: the operating system drops it when its process ends, however it ends
 * (`kill -9`, a crash), so a dead holder's lock is never "taken over" — there is nothing to race
 * for, and two processes can never both hold it. `<path>` says who holds it (pid, host, command,
 * since), written whole by the holder only. An info file naming a live process that does not hold
 * the database lock (an older kb) is respected as well. With `waitMs`, waits that long for the
 * holder to finish; otherwise fails at once naming the holder.
 */
export async function acquireLock(path: string, command: string, opts: { waitMs?: number } = {}): Promise<Lock> {
  mkdirSync(dirname(path), { recursive: true });
  const deadline = Date.now() + (opts.waitMs ?? 0);
  for (;;) {
    const db = holdDatabase(`${path}.db`);
    let holder: LockInfo | undefined;
    if (db) {
      holder = otherHolder(readLock(path));
      if (!holder) return holdWith(db, path, command);
      db.exec('ROLLBACK');
      db.close();
    } else {
      holder = readLock(path);
    }
    if (Date.now() >= deadline) {
      const who = holder
        ? `\`kb ${holder.command}\` (pid ${holder.pid} on ${holder.host}, since ${new Date(holder.started * 1000).toISOString()})`
        : 'a kb process that is just starting';
      throw new LockError(
        `Another kb process holds the lock: ${who}. Wait for it to finish, or stop it; the lock is ${path}.`,
        holder?.pid ?? 0,
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

function holdWith(db: Database.Database, path: string, command: string): Lock {
  const info: LockInfo = { pid: process.pid, host: hostname(), command, started: Math.floor(Date.now() / 1000) };
  try {
    writeFileAtomic(path, JSON.stringify(info));
  } catch (err) {
    db.exec('ROLLBACK');
    db.close();
    throw err;
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    // The info goes first: whoever gets the database lock next finds no stale holder named.
    const now = readLock(path);
    if (now?.pid === process.pid) rmSync(path, { force: true });
    try {
      db.exec('ROLLBACK');
    } finally {
      db.close();
    }
  };
  process.on('exit', release);
  return { release };
}
