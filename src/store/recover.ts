import { closeSync, existsSync, openSync, readSync, renameSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { message, type KbMessage } from '../diagnostics/message.js';

/**
 * kb's databases are caches: `wiki/embeddings.db` is rebuilt from raw/ and wiki/, `.kb/cache.db`
 * only saves model calls and answers, `.kb/lexicon.db` is built from the dictionary. A damaged one is set aside (renamed, never deleted) and started afresh,
 * and the person is told once. Damage is found when a database is opened (a header check always,
 * `PRAGMA quick_check` when the file is small enough for it to be cheap) and, past that, when a
 * command fails with SQLITE_CORRUPT or SQLITE_NOTADB: the CLI then checks every database the run
 * opened, sets the damaged ones aside and runs the command once more.
 */
export type DatabaseKind = 'store' | 'cache' | 'lexicon';

export interface Recovery {
  kind: DatabaseKind;
  /** The damaged file (absolute). */
  file: string;
  /** Where it was moved, next to it. */
  aside: string;
  reason: string;
}

/** quick_check reads every page: about 10 ms per MB. Above this size only the header is checked on open. */
export const QUICK_CHECK_MAX_BYTES = 8 * 1024 * 1024;

const opened = new Map<string, DatabaseKind>();
const listeners = new Set<(r: Recovery) => void>();

/** Hear about every database set aside in this process (the CLI prints it). */
export function onRecovery(fn: (r: Recovery) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Databases opened by this process, for the check after a corruption error. */
export function trackDatabase(path: string, kind: DatabaseKind): void {
  opened.set(path, kind);
}

/** The databases this process opened (absolute paths). */
export function openedDatabases(): string[] {
  return [...opened.keys()];
}

/** An error SQLite raises on a damaged file. */
export function isCorruption(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > 4) return false;
  const code = 'code' in err ? String(err.code) : '';
  return (
    code.startsWith('SQLITE_CORRUPT') ||
    code.startsWith('SQLITE_NOTADB') ||
    ('cause' in err && isCorruption(err.cause, depth + 1))
  );
}

/** Why the file at `path` is not a sound SQLite database, or undefined. `deep` runs `quick_check`. */
export function damage(path: string, opts: { deep: boolean }): string | undefined {
  if (!existsSync(path)) return undefined;
  const size = statSync(path).size;
  if (size === 0) return undefined;
  const head = Buffer.alloc(100);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, head, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  if (size < 100 || head.toString('latin1', 0, 16) !== 'SQLite format 3\0') return 'not a SQLite database';
  const raw = head.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  // The page count in the header is valid when its "version-valid-for" matches the change counter,
  // and says nothing while a write-ahead log holds pages not yet copied into the file (a checkpoint
  // a full disk stopped): SQLite reads those from the log.
  const pages = head.readUInt32BE(28);
  const logged = existsSync(`${path}-wal`) && statSync(`${path}-wal`).size > 0;
  if (!logged && pages > 0 && head.readUInt32BE(92) === head.readUInt32BE(24) && size < pages * pageSize) {
    return `cut short: ${size} of ${pages * pageSize} bytes`;
  }
  if (!opts.deep) return undefined;
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { fileMustExist: true, timeout: 5000 });
    const rows = db.pragma('quick_check(1)') as { quick_check: string }[];
    const first = rows[0]?.quick_check ?? 'ok';
    // "*** in database main ***\nTree 26 page 431: …": one line, no banner.
    return first === 'ok'
      ? undefined
      : first
          .replace(/\*\*\* in database \w+ \*\*\*/, '')
          .replace(/\s+/g, ' ')
          .trim()
          .slice(0, 200);
  } catch (err) {
    // Only SQLite's word for damage counts: a full disk, a lock or a missing folder is not damage.
    return isCorruption(err) ? (err as Error).message : undefined;
  } finally {
    db?.close();
  }
}

/**
 * Move a damaged database (and its -wal, -shm, -journal) to `<name>-corrupt-<time>` in the same
 * folder. The dash, not a dot: the `.gitignore` of every knowledge base has `wiki/embeddings.db-*`,
 * so a heal's commit never adds a damaged store to the person's history.
 */
export function setAside(path: string, reason: string, kind: DatabaseKind): Recovery {
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, '')
    .replace('T', '-');
  let aside = join(dirname(path), `${basename(path)}-corrupt-${stamp}`);
  for (let n = 2; existsSync(aside); n++) aside = join(dirname(path), `${basename(path)}-corrupt-${stamp}-${n}`);
  renameSync(path, aside);
  for (const ext of ['-wal', '-shm', '-journal']) {
    if (existsSync(path + ext)) renameSync(path + ext, aside + ext);
  }
  const r: Recovery = { kind, file: path, aside, reason };
  for (const fn of listeners) fn(r);
  return r;
}

/** Check and set aside at open: what the Store and the response cache do before they open their file. */
export function checkOnOpen(path: string, kind: DatabaseKind): Recovery | undefined {
  trackDatabase(path, kind);
  if (!existsSync(path)) return undefined;
  const why = damage(path, { deep: statSync(path).size <= QUICK_CHECK_MAX_BYTES });
  return why ? setAside(path, why, kind) : undefined;
}

/** After a corruption error: check every database this process opened, deeply, and set the damaged ones aside. */
export function recoverOpened(): Recovery[] {
  const out: Recovery[] = [];
  for (const [path, kind] of opened) {
    const why = damage(path, { deep: true });
    if (why) out.push(setAside(path, why, kind));
  }
  return out;
}

/** The diagnostic for a database set aside, with the path shown relative to the knowledge base. */
export function recoveryMessage(r: Recovery): KbMessage {
  const folder = r.kind === 'store' ? 'wiki' : '.kb';
  const shown = `${folder}/${basename(r.file)}`;
  const aside = `${folder}/${basename(r.aside)}`;
  const notes: Record<DatabaseKind, string> = {
    store: `kb set it aside as ${aside} and started a new one; \`kb compile\` fills it again from raw/ and wiki/ (model replies are cached: no new cost)`,
    cache: `kb set it aside as ${aside} and started a new one; model replies cached in it will be asked for again, and its record of spending stays in the old file`,
    lexicon: `kb set it aside as ${aside} and built a new one from its dictionary`,
  };
  return message(
    shown,
    `${r.kind}-corrupt`,
    `Unexpected damaged database (${r.reason}), expected a sound SQLite file`,
    { note: notes[r.kind] },
  );
}
