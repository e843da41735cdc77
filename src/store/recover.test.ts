import { copyFileSync, existsSync, mkdtempSync, openSync, readFileSync, closeSync, writeSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { checkOnOpen, damage } from './recover.js';

const PAGE = 4096;

/**
 * The files a checkpoint leaves when a full disk stops it after page 1: the database file holds the
 * pages of the last checkpoint and a page 1 whose header counts the pages still in the log.
 */
function checkpointStoppedByFullDisk(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kb-wal-'));
  const live = join(dir, 'live.db');
  const db = new Database(live);
  db.pragma(`page_size = ${PAGE}`);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE t (x TEXT)');
  db.pragma('wal_checkpoint(TRUNCATE)');
  const insert = db.prepare('INSERT INTO t VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < 40; i++) insert.run('x'.repeat(3000));
  })();
  const copy = join(dir, 'embeddings.db');
  copyFileSync(live, copy);
  copyFileSync(`${live}-wal`, `${copy}-wal`);
  db.close();
  // Page 1 as the log has it last: 24-byte frame headers after a 32-byte log header.
  const wal = readFileSync(`${copy}-wal`);
  let page1: Buffer | undefined;
  for (let at = 32; at + 24 + PAGE <= wal.length; at += 24 + PAGE)
    if (wal.readUInt32BE(at) === 1) page1 = wal.subarray(at + 24, at + 24 + PAGE);
  if (!page1) throw new Error('no page 1 in the log');
  const fd = openSync(copy, 'r+');
  writeSync(fd, page1, 0, PAGE, 0);
  closeSync(fd);
  return copy;
}

describe('the damage check', () => {
  it('takes a database whose pages wait in its write-ahead log (a checkpoint a full disk stopped) for sound', () => {
    const path = checkpointStoppedByFullDisk();
    const head = readFileSync(path).subarray(0, 100);
    // The state of a full disk: the header counts more pages than the file holds.
    expect(head.readUInt32BE(28) * PAGE).toBeGreaterThan(statSync(path).size);
    expect(damage(path, { deep: false })).toBeUndefined();
    expect(damage(path, { deep: true })).toBeUndefined();
    expect(checkOnOpen(path, 'store')).toBeUndefined();
    expect(existsSync(path)).toBe(true);
    const db = new Database(path, { fileMustExist: true });
    expect((db.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n).toBe(40);
    db.close();
  });
});
