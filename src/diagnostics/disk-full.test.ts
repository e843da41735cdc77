import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { KbError } from './errors.js';
import { asDiskFull, DiskFullError } from './disk-full.js';
import { isCorruption } from '../store/recover.js';

/** A real SQLITE_FULL: a database allowed fewer pages than the rows need. */
function sqliteFull(): { err: unknown; path: string } {
  const path = join(mkdtempSync(join(tmpdir(), 'kb-full-')), 'embeddings.db');
  const db = new Database(path);
  try {
    db.exec('CREATE TABLE t (x TEXT)');
    db.pragma('max_page_count = 3');
    for (let i = 0; i < 100; i++) db.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(4000));
  } catch (err) {
    return { err, path };
  } finally {
    db.close();
  }
  throw new Error('no SQLITE_FULL');
}

/** A real ENOSPC: /dev/full takes no byte. */
function enospc(): unknown {
  try {
    writeFileSync('/dev/full', 'x');
  } catch (err) {
    return err;
  }
  throw new Error('no ENOSPC');
}

describe('a full disk', () => {
  it('SQLITE_FULL names the databases the run opened, in one line, and is no damage', () => {
    const { err, path } = sqliteFull();
    expect((err as { code?: string }).code).toBe('SQLITE_FULL');
    expect(isCorruption(err)).toBe(false);
    const full = asDiskFull(err, [path]);
    expect(full).toBeInstanceOf(DiskFullError);
    expect(full).toBeInstanceOf(KbError);
    expect(full!.message).toBe(`the disk is full while writing ${path}: free some space and run again`);
    expect(full!.message).not.toContain('\n');
  });

  it.skipIf(process.platform !== 'linux')('ENOSPC from a file write is a full disk', () => {
    const err = enospc();
    expect((err as { code?: string }).code).toBe('ENOSPC');
    // A write names no file (writeFileAtomic names the one it writes).
    expect(asDiskFull(err)?.message).toBe('the disk is full while writing a file: free some space and run again');
  });

  it.each([
    ['a quota (EDQUOT)', Object.assign(new Error('EDQUOT: disk quota exceeded, write'), { code: 'EDQUOT' }), true],
    [
      'kb’s temporary name is the file it was writing',
      Object.assign(new Error('ENOSPC'), { code: 'ENOSPC', path: '/kb/wiki/.index.md.123.0.tmp' }),
      true,
    ],
    ['a full disk as a cause', new Error('could not save', { cause: { code: 'SQLITE_FULL' } }), true],
    ['a worker’s copy, code lost', new Error('SqliteError: database or disk is full'), true],
    ['damage', Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' }), false],
    ['a missing file', Object.assign(new Error('ENOENT'), { code: 'ENOENT' }), false],
    ['not an error', 'ENOSPC?', false],
  ])('%s', (_what, err, full) => {
    expect(asDiskFull(err) !== undefined).toBe(full);
  });

  it('names the file behind a temporary name', () => {
    const err = Object.assign(new Error('ENOSPC'), { code: 'ENOSPC', path: '/kb/wiki/.index.md.123.0.tmp' });
    expect(asDiskFull(err)?.path).toBe('/kb/wiki/index.md');
  });
});
