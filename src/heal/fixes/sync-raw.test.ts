import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syncRaw, type FixLog } from './structural.js';

describe('syncRaw (heal takes raw files from the checkout into its worktree)', () => {
  const setup = () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-sync-raw-'));
    const from = join(dir, 'checkout', 'raw');
    const to = join(dir, 'worktree', 'raw');
    mkdirSync(from, { recursive: true });
    mkdirSync(to, { recursive: true });
    return { dir, from, to, log: { changes: [], cannot: [] } as FixLog };
  };

  it('finds a file named in NFD under its NFC key, and copies it under its own name', () => {
    const { from, to, log } = setup();
    const nfd = 'caf\u00e9.md'.normalize('NFD');
    writeFileSync(join(from, nfd), '# Café\n');
    syncRaw(from, to, ['caf\u00e9.md'], log);
    expect(readdirSync(to)).toEqual([nfd]);
    expect(readFileSync(join(to, nfd), 'utf8')).toBe('# Café\n');
    expect(log.changes).toEqual(['raw/café.md: taken from your checkout']);
  });

  it('never copies what a link out of raw/ points at', () => {
    const { dir, from, to, log } = setup();
    writeFileSync(join(dir, 'shadow'), 'root:secret\n');
    symlinkSync(join(dir, 'shadow'), join(from, 'shadow.md'));
    syncRaw(from, to, ['shadow.md'], log);
    expect(existsSync(join(to, 'shadow.md'))).toBe(false);
    expect(log.changes).toEqual([]);
  });
});
