import { existsSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { cachePath, openCacheDb } from '../kb/cache-db.js';
import type { KbPaths } from '../kb/paths.js';
import { addUsage, zeroUsage, type ModelResponse, type ModelUsage } from './usage.js';

const TABLES = `
CREATE TABLE IF NOT EXISTS responses (
  key TEXT PRIMARY KEY,
  model TEXT NOT NULL,
  task TEXT NOT NULL,
  text TEXT NOT NULL,
  stop_reason TEXT NOT NULL,
  usage TEXT NOT NULL,
  created INTEGER NOT NULL
);
-- One row per paid call (cache hits are free and not recorded).
CREATE TABLE IF NOT EXISTS usage (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  model TEXT NOT NULL,
  task TEXT NOT NULL,
  input_tokens INTEGER NOT NULL,
  output_tokens INTEGER NOT NULL,
  cache_creation_input_tokens INTEGER NOT NULL,
  cache_read_input_tokens INTEGER NOT NULL,
  usd REAL NOT NULL,
  batch INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

export { cachePath };

/**
 * `.kb/cache.db`: model replies by request hash, the usage of every paid call, and small state
 * (a pending batch id). Lives outside wiki/ so deleting the wiki keeps what was paid for.
 */
export class ResponseCache {
  private constructor(private readonly db: Database.Database) {}

  static open(paths: KbPaths): ResponseCache {
    return new ResponseCache(openCacheDb(paths, TABLES));
  }

  get(key: string): Omit<ModelResponse, 'cached'> | undefined {
    const row = this.db.prepare(`SELECT text, stop_reason, usage FROM responses WHERE key = ?`).get(key) as
      | { text: string; stop_reason: string; usage: string }
      | undefined;
    if (!row) return undefined;
    return { text: row.text, stopReason: row.stop_reason, usage: JSON.parse(row.usage) as ModelUsage };
  }

  put(key: string, model: string, task: string, res: Omit<ModelResponse, 'cached'>, usd: number, batch = false): void {
    const now = Math.floor(Date.now() / 1000);
    const u = res.usage;
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT OR REPLACE INTO responses (key, model, task, text, stop_reason, usage, created) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(key, model, task, res.text, res.stopReason, JSON.stringify(u), now);
      this.db
        .prepare(
          `INSERT INTO usage (at, model, task, input_tokens, output_tokens, cache_creation_input_tokens, cache_read_input_tokens, usd, batch) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          now,
          model,
          task,
          u.input_tokens,
          u.output_tokens,
          u.cache_creation_input_tokens,
          u.cache_read_input_tokens,
          usd,
          batch ? 1 : 0,
        );
    })();
  }

  /** Forget a reply (one that fails its checks): the next request for it asks the model. */
  drop(key: string): void {
    this.db.prepare(`DELETE FROM responses WHERE key = ?`).run(key);
  }

  getState(key: string): string | undefined {
    return (this.db.prepare(`SELECT value FROM state WHERE key = ?`).get(key) as { value: string } | undefined)?.value;
  }

  setState(key: string, value: string | undefined): void {
    if (value === undefined) this.db.prepare(`DELETE FROM state WHERE key = ?`).run(key);
    else this.db.prepare(`INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)`).run(key, value);
  }

  /** Every paid call's usage added up, and how many replies are kept. */
  spend(): SpendSummary {
    const row = this.db
      .prepare(
        `SELECT COUNT(*) AS calls, COALESCE(SUM(input_tokens),0) AS i, COALESCE(SUM(output_tokens),0) AS o,
                COALESCE(SUM(cache_creation_input_tokens),0) AS cw, COALESCE(SUM(cache_read_input_tokens),0) AS cr, COALESCE(SUM(usd),0) AS usd FROM usage`,
      )
      .get() as { calls: number; i: number; o: number; cw: number; cr: number; usd: number };
    return {
      calls: row.calls,
      usage: addUsage(zeroUsage(), {
        input_tokens: row.i,
        output_tokens: row.o,
        cache_creation_input_tokens: row.cw,
        cache_read_input_tokens: row.cr,
      }),
      usd: row.usd,
      cachedReplies: (this.db.prepare(`SELECT COUNT(*) AS n FROM responses`).get() as { n: number }).n,
      byModel: this.db
        .prepare(
          `SELECT model, COUNT(*) AS calls, SUM(input_tokens + cache_creation_input_tokens + cache_read_input_tokens) AS inputTokens,
                  SUM(output_tokens) AS outputTokens, SUM(usd) AS usd FROM usage GROUP BY model ORDER BY calls DESC, model`,
        )
        .all() as SpendSummary['byModel'],
    };
  }

  /**
   * Repair calls per first call of compile's tasks (sources, their parts, combining them, concepts)
   * over the paid calls recorded, and how many first calls that is measured on.
   */
  repairShare(): { share: number; calls: number } {
    const row = this.db
      .prepare(
        `SELECT SUM(repair) AS repairs, SUM(1 - repair) AS calls FROM (
           SELECT task LIKE '%-repair' AS repair, replace(task, '-repair', '') AS base FROM usage
         ) WHERE base LIKE 'compile-source%' OR base IN ('combine-source', 'concept')`,
      )
      .get() as { repairs: number | null; calls: number | null };
    const calls = row.calls ?? 0;
    return { share: calls ? (row.repairs ?? 0) / calls : 0, calls };
  }

  close(): void {
    this.db.close();
  }
}

export interface SpendSummary {
  calls: number;
  usage: ModelUsage;
  usd: number;
  cachedReplies: number;
  /** The same per model (provider/name for providers other than Claude), most calls first. */
  byModel: { model: string; calls: number; inputTokens: number; outputTokens: number; usd: number }[];
}

/** Total model spend recorded in `.kb/cache.db` (for `kb status`); zero when there is none. */
export function readSpend(paths: KbPaths): SpendSummary {
  const out: SpendSummary = { calls: 0, usage: zeroUsage(), usd: 0, cachedReplies: 0, byModel: [] };
  if (!existsSync(cachePath(paths))) return out;
  let cache: ResponseCache;
  try {
    cache = ResponseCache.open(paths);
  } catch {
    return out;
  }
  try {
    return cache.spend();
  } finally {
    cache.close();
  }
}
