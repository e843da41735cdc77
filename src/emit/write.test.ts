import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EntryFrontmatter, EntryId, EntryKind } from '../types.js';
import { bodyHash, entryBody } from '../entry/frontmatter.js';
import { entryValidator } from '../entry/validate.js';
import type { Final, Finals } from './types.js';
import { writeFinals } from './write.js';

function final(kind: EntryKind, n: number): Final {
  const id = `${kind}/e${n}` as EntryId;
  const title = `Entry ${n}`;
  const fm = {
    id,
    kind,
    title,
    aliases: [],
    summary: `Entry ${n} is about a thing.`,
    source_ref: kind === 'source' ? [`raw/e${n}.md`] : [],
    entities: [],
    backlinks: [],
    version: 1,
    last_heal_timestamp: '',
    content_hash: '',
  } as EntryFrontmatter;
  const path = `${kind === 'source' ? 'sources' : 'concepts'}/${title}.md`;
  return {
    id,
    kind,
    title,
    path,
    fm,
    body: `Body of entry ${n}.\n`,
    links: new Set(),
    humanEdited: false,
    rendered: true,
    old: undefined,
  };
}

/** writeFinals of one entry into `dir`, keeping nothing. */
function writeAlone(f: Final, dir: string, recordScan: boolean): void {
  writeFinals(new Map([[f.id, f]]), [], {
    wikiDir: dir,
    validate: entryValidator(dir),
    heldBack: new Set(),
    recordScan,
    store: { deleteEntry: () => {} },
    keep: () => {},
  });
}

describe('writeFinals', () => {
  it('hands what it wrote to keep a batch at a time, and lets a written body go but keeps its hash', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-write-'));
    const finals: Finals = new Map();
    for (let i = 0; i < 300; i++) {
      const f = final(i % 3 === 0 ? 'concept' : 'source', i);
      finals.set(f.id, f);
    }
    const batches: number[] = [];
    const bases = new Map<string, string>();
    const w = writeFinals(finals, [], {
      wikiDir: dir,
      validate: entryValidator(dir),
      heldBack: new Set(),
      recordScan: true,
      store: { deleteEntry: () => {} },
      keep: (rows, written) => {
        batches.push(rows.length);
        for (const [id, body] of written) bases.set(id, body);
      },
    });
    expect(batches).toEqual([256, 44]);
    expect(w.cacheRows).toEqual([]);
    expect(w.based).toHaveLength(300);
    expect(bases.get('source/e1')).toBe('Body of entry 1.\n');
    const source = finals.get('source/e1')!;
    expect(source.body).toBe('');
    expect(source.hash).toBe(bodyHash('Body of entry 1.\n'));
    expect(readFileSync(join(dir, source.path), 'utf8')).toContain('Body of entry 1.');
    // A concept page is let go too (it is indexed from its file): read back, the file gives its body.
    const concept = finals.get('concept/e0')!;
    expect(concept.body).toBe('');
    expect(concept.hash).toBe(bodyHash('Body of entry 0.\n'));
    expect(entryBody(readFileSync(join(dir, concept.path), 'utf8'))).toBe('Body of entry 0.\n');
  });

  it('keeps the body of a concept page whose file would not give it back as it is (a line kb trims)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-write-'));
    const f = final('concept', 1);
    f.body = 'A line with a hard break  \nand the next.\n';
    writeAlone(f, dir, false);
    expect(f.body).toBe('A line with a hard break  \nand the next.\n');
  });

  it('does not read the body of a kept entry nothing changed (its file is read only when asked)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-write-'));
    const kept = final('source', 1);
    let reads = 0;
    Object.defineProperty(kept, 'body', {
      get: () => {
        reads++;
        return 'Body of entry 1.\n';
      },
    });
    Object.assign(kept, { rendered: false, old: { path: kept.path, fm: kept.fm, body: '', humanEdited: false } });
    writeAlone(kept, dir, true);
    expect(reads).toBe(0);
    expect(kept.hash).toBeUndefined();
  });
});
