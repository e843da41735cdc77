import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { checkOnOpen } from '../store/recover.js';
import type { KbPaths } from './paths.js';

/** `.kb/cache.db`: what was paid for (model replies, usage) and answers; outside wiki/ so deleting the wiki keeps it. */
export function cachePath(paths: KbPaths): string {
  return join(paths.state, 'cache.db');
}

/** Opens `.kb/cache.db` (WAL, waits on a busy writer) and creates the caller's tables. Several caches share the file. */
export function openCacheDb(paths: KbPaths, tables: string): Database.Database {
  mkdirSync(paths.state, { recursive: true });
  // A damaged cache is set aside and started afresh (it only holds what can be fetched again).
  checkOnOpen(cachePath(paths), 'cache');
  const db = new Database(cachePath(paths));
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.exec(tables);
  return db;
}
