import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { fixture, KB_BIN, runKb } from './helpers.js';

const DOCS = 1500;

function pendingRows(root: string, table = 'documents'): number {
  const path = join(root, 'wiki', 'embeddings.db');
  if (!existsSync(path)) return 0;
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      const where = table === 'documents' ? ` WHERE status = 'pending'` : '';
      return (db.prepare(`SELECT COUNT(*) AS n FROM ${table}${where}`).get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return 0; // being created
  }
}

describe('kb compile killed with SIGKILL', () => {
  it('keeps the documents it stored: the next compile ingests only the rest and writes every entry', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < DOCS; i++)
      files[`raw/d${i}.md`] =
        `# Note ${i}\n\nNote ${i} is about topic ${i % 17}, retrieval with BM25 and vectors, and the card ${i}.\n\nA second paragraph of note ${i} on SQLite and Obsidian.\n`;
    const root = fixture(files);
    const child = spawn(process.execPath, [KB_BIN, 'compile'], { cwd: root, stdio: 'ignore' });
    const exited = new Promise<void>((ok) => child.on('exit', () => ok()));
    // Killed once a fifth of the documents is stored (each whole: one transaction per batch).
    let stored = 0;
    for (let i = 0; i < 2000 && stored < DOCS / 5; i++) {
      await new Promise((ok) => setTimeout(ok, 20));
      stored = pendingRows(root);
    }
    child.kill('SIGKILL');
    await exited;
    stored = pendingRows(root);
    expect(stored).toBeGreaterThan(0);
    expect(stored).toBeLessThan(DOCS);
    // Each stored document keeps its source draft, stored with it: the entries are written from those.
    expect(pendingRows(root, 'pending_drafts')).toBe(stored);

    const r = await runKb(['compile', '--verbose'], { cwd: root, timeoutMs: 300_000 });
    expect(r.code, r.stderr).toBe(0);
    const ingested = r.stderr.split('\n').filter((l) => /^(?:new|update)\s+raw\//.test(l)).length;
    expect(ingested).toBe(DOCS - stored);
    expect(readdirSync(join(root, 'wiki', 'sources'))).toHaveLength(DOCS);
    expect(pendingRows(root, 'pending_drafts')).toBe(0);
    const again = await runKb(['compile'], { cwd: root });
    expect(again.stdout).toMatch(new RegExp(`0 new, 0 updated, ${DOCS} unchanged`));
  }, 400_000);
});
