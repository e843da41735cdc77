import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EntryFrontmatter } from '../types.js';
import { stringifyEntry } from './frontmatter.js';
import { letTextGo, type ScanCache, type ScanRow, scanWiki } from './wiki.js';
import { encodeScanRow } from './scan-row.js';

/** A scan cache in memory, as the store keeps it (rows handed over once, stored encoded). */
function memoryCache(): ScanCache & { rows: Map<string, ScanRow> } {
  const rows = new Map<string, ScanRow>();
  return {
    rows,
    get: (p) => {
      const r = rows.get(p);
      rows.delete(p);
      return r;
    },
    put: (p, row) => {
      const fm = typeof row.fm === 'string' ? (JSON.parse(row.fm) as EntryFrontmatter) : row.fm;
      rows.set(p, { mtimeMs: row.mtimeMs, size: row.size, fm, bodyHash: row.bodyHash });
    },
  };
}

describe('letTextGo', () => {
  const fm = { id: 'concept/rag', kind: 'concept', title: 'RAG', content_hash: 'x' } as unknown as EntryFrontmatter;
  const wiki = () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-wiki-'));
    mkdirSync(join(dir, 'concepts'));
    const file = join(dir, 'concepts', 'RAG.md');
    writeFileSync(file, stringifyEntry(fm, 'The old text.\n'));
    return { dir, file };
  };

  it('an entry read through the scan cache lets its text go, and reads its file again when asked', () => {
    const { dir, file } = wiki();
    const cache = memoryCache();
    scanWiki(dir, cache);
    const [e] = scanWiki(dir, cache).entries;
    expect(e!.body.trim()).toBe('The old text.');
    writeFileSync(file, stringifyEntry(fm, 'The new text.\n'));
    // Kept until let go: what was read is what the entry says.
    expect(e!.body.trim()).toBe('The old text.');
    letTextGo(e!);
    expect(e!.body.trim()).toBe('The new text.');
    expect(e!.text).toContain('The new text.');
  });

  it('an entry parsed from its file keeps its text', () => {
    const { dir, file } = wiki();
    const [e] = scanWiki(dir).entries;
    writeFileSync(file, stringifyEntry(fm, 'The new text.\n'));
    letTextGo(e!);
    expect(e!.body.trim()).toBe('The old text.');
  });

  it('an encoded row is the row as JSON: the frontmatter as it was when encoded', () => {
    const mutable = { ...fm, backlinks: ['source/a'] } as EntryFrontmatter;
    const row = encodeScanRow({ mtimeMs: 1, size: 2, fm: mutable, bodyHash: 'b' });
    mutable.backlinks!.push('source/b');
    expect(JSON.parse(row.fm).backlinks).toEqual(['source/a']);
    expect(row).toMatchObject({ links: '', ownLinks: '', textHash: '' });
  });
});
