import type Database from 'better-sqlite3';
import { openCacheDb } from '../kb/cache-db.js';
import type { KbPaths } from '../kb/paths.js';
import type { Store } from '../store/store.js';
import { sha256 } from '../util/hash.js';

/**
 * The wiki's current version: a hash over every entry's id and content hash and every raw
 * document's hash. Any change to the wiki (compile, a saved answer, a reindexed edit) changes it.
 */
export function wikiVersion(store: Store): string {
  const entries = store.entryHashes();
  const docs = store.documentHashes();
  const h = sha256(
    `${entries.map((e) => `${e.id}\t${e.content_hash}\t${e.path}`).join('\n')}\n--\n${docs.map((d) => `${d.raw_path}\t${d.hash}`).join('\n')}`,
  );
  return h.slice(0, 32);
}

/** Questions that differ only in case, spacing, width or a final question mark are the same question. */
export function normalizeQuestion(q: string): string {
  return q
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[?？!！.。\s]+$/u, '');
}

/**
 * Answers by (normalized question, answer settings, wiki version), in `.kb/cache.db`, kept for a
 * TTL. A new wiki version misses by construction; old rows are swept when they expire.
 */
export class AnswerCache {
  private constructor(
    private readonly db: Database.Database,
    private readonly ttlSeconds: number,
  ) {}

  static open(paths: KbPaths, ttlSeconds: number): AnswerCache {
    const db = openCacheDb(
      paths,
      `CREATE TABLE IF NOT EXISTS answers (
      key TEXT PRIMARY KEY,
      question TEXT NOT NULL,
      wiki_version TEXT NOT NULL,
      created INTEGER NOT NULL,
      payload TEXT NOT NULL
    )`,
    );
    return new AnswerCache(db, ttlSeconds);
  }

  static key(question: string, settings: string, version: string): string {
    return sha256(JSON.stringify([normalizeQuestion(question), settings, version]));
  }

  get<T>(key: string, now = Math.floor(Date.now() / 1000)): T | undefined {
    if (this.ttlSeconds <= 0) return undefined;
    const row = this.db.prepare(`SELECT payload, created FROM answers WHERE key = ?`).get(key) as
      | { payload: string; created: number }
      | undefined;
    if (!row || now - row.created >= this.ttlSeconds) return undefined;
    return JSON.parse(row.payload) as T;
  }

  put(key: string, question: string, version: string, payload: unknown, now = Math.floor(Date.now() / 1000)): void {
    if (this.ttlSeconds <= 0) return;
    this.db.prepare(`DELETE FROM answers WHERE created <= ?`).run(now - this.ttlSeconds);
    this.db
      .prepare(`INSERT OR REPLACE INTO answers (key, question, wiki_version, created, payload) VALUES (?, ?, ?, ?, ?)`)
      .run(key, question, version, now, JSON.stringify(payload));
  }

  close(): void {
    this.db.close();
  }
}
