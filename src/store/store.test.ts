import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Chunk } from '../types.js';
import { byCodePoint, Store, VECTORS_STALE, type DocumentRow, type EntryRow } from './store.js';
import { encodeScanRow } from '../entry/scan-row.js';

const DIMS = 4;
const dbPath = () => join(mkdtempSync(join(tmpdir(), 'kb-store-')), 'embeddings.db');
const open = (path: string, fingerprint = 'fp-a', dims = DIMS) => new Store(path, { fingerprint, dims });
const vec = (...xs: number[]) => new Float32Array(xs);

function doc(rawPath: string, over: Partial<DocumentRow> = {}): DocumentRow {
  return {
    raw_path: rawPath,
    hash: `h-${rawPath}`,
    type: 'markdown',
    title: rawPath,
    entry_id: `source/${rawPath}`,
    size: 1,
    mtime_ms: 0,
    lang: 'en',
    status: 'ok',
    error: null,
    compiled_at: 1,
    compiler: 'offline',
    ...over,
  };
}

function entry(id: string, over: Partial<EntryRow> = {}): EntryRow {
  const title = id.split('/')[1] ?? id;
  return {
    id,
    kind: id.split('/')[0] ?? 'concept',
    title,
    path: `x/${title}.md`,
    aliases: [],
    summary: `${title} summary`,
    source_ref: [],
    content_hash: `c-${id}`,
    human_edited: false,
    updated: 1,
    ...over,
  };
}

function chunk(ord: number, text: string): Chunk {
  return { ord, headings: ['H'], text, tokens: 3, line: ord + 1 };
}

describe('Store: named queries', () => {
  it('documents: put, get, hashes, compiler mark, attachments, delete with their entities and chunks', () => {
    const s = open(dbPath());
    s.transaction(() => {
      s.putDocument(doc('b.md'));
      s.putDocument(doc('a.md'));
      s.putDocument(doc('img/diagram.png', { type: 'attachment' }));
      s.putEntities('a.md', [
        { key: 'rag', surface: 'RAG', aliases: ['检索增强生成'], count: 2, snippets: ['RAG is…'] },
      ]);
      s.putChunks('source/a.md', 'a.md', [chunk(0, 'alpha text')], [vec(1, 0, 0, 0)]);
    });
    expect(s.getDocument('a.md')).toEqual({
      ...doc('a.md'),
      file: 'a.md',
      work: '',
      marks: '',
      headings: '',
      paragraphs: '',
    }); // a whole file: its own file
    expect(s.documentHashes()).toEqual([
      { raw_path: 'a.md', hash: 'h-a.md' },
      { raw_path: 'b.md', hash: 'h-b.md' },
      { raw_path: 'img/diagram.png', hash: 'h-img/diagram.png' },
    ]);
    expect(s.attachmentPaths()).toEqual(['img/diagram.png']);
    s.setDocumentCompiler('a.md', 'model:x!retry');
    expect(s.getDocument('a.md')?.compiler).toBe('model:x!retry');
    expect(s.allEntities()).toEqual([
      {
        raw_path: 'a.md',
        key: 'rag',
        surface: 'RAG',
        aliases: ['检索增强生成'],
        count: 2,
        snippets: ['RAG is…'],
        sections: '',
      },
    ]);
    expect(s.counts()).toMatchObject({ documents: 3, chunks: 1, vectors: 1 });

    s.deleteDocument('a.md');
    expect(s.getDocument('a.md')).toBeUndefined();
    expect(s.allEntities()).toEqual([]);
    expect(s.counts()).toMatchObject({ documents: 2, chunks: 0, vectors: 0 });
    s.close();
  });

  it('entries: put with links and vector, hashes by id, backlinks, replace, delete with chunks', () => {
    const s = open(dbPath());
    s.putEntry(entry('concept/rag', { aliases: ['检索增强生成'] }), ['source/a', 'concept/rag'], vec(1, 0, 0, 0));
    s.putEntry(entry('source/a'), ['concept/rag']);
    expect(s.getEntry('concept/rag')).toEqual(entry('concept/rag', { aliases: ['检索增强生成'] }));
    expect(s.linksFrom('concept/rag')).toEqual(['source/a']); // a link to itself is no link
    expect(s.linksTo('concept/rag')).toEqual(['source/a']);
    expect([...s.entryVector('concept/rag')!]).toEqual([1, 0, 0, 0]);
    expect(s.entryVector('source/a')).toBeUndefined();
    expect(s.entryHashes()).toEqual([
      { id: 'concept/rag', content_hash: 'c-concept/rag', path: 'x/rag.md' },
      { id: 'source/a', content_hash: 'c-source/a', path: 'x/a.md' },
    ]);

    s.putEntry(entry('concept/rag', { title: 'RAG', content_hash: 'c2' }), [], vec(0, 1, 0, 0));
    expect(s.getEntry('concept/rag')).toMatchObject({ title: 'RAG', content_hash: 'c2' });
    expect(s.linksFrom('concept/rag')).toEqual([]);
    expect([...s.entryVector('concept/rag')!]).toEqual([0, 1, 0, 0]);
    expect(s.counts().entries).toBe(2);

    s.putChunks('concept/rag', null, [chunk(0, 'one'), chunk(1, 'two')], [vec(1, 0, 0, 0), vec(0, 0, 1, 0)]);
    expect(s.chunksOfEntry('concept/rag').map((c) => [c.ord, c.heading, c.text])).toEqual([
      [0, 'H', 'one'],
      [1, 'H', 'two'],
    ]);
    s.deleteEntry('concept/rag');
    expect(s.getEntry('concept/rag')).toBeUndefined();
    expect(s.chunksOfEntry('concept/rag')).toEqual([]);
    expect(s.counts()).toMatchObject({ entries: 1, chunks: 0, vectors: 0 });
    expect(s.entriesWithoutVectors().map((e) => e.id)).toEqual(['source/a']);
    s.close();
  });

  it('a transaction that throws leaves nothing behind', () => {
    const s = open(dbPath());
    expect(() =>
      s.transaction(() => {
        s.putDocument(doc('a.md'));
        s.putEntry(entry('source/a'), [], vec(1, 0, 0, 0));
        throw new Error('crash in the middle of a document');
      }),
    ).toThrow('crash in the middle');
    expect(s.getDocument('a.md')).toBeUndefined();
    expect(s.getEntry('source/a')).toBeUndefined();
    expect(s.counts()).toMatchObject({ documents: 0, entries: 0 });
    s.close();
  });

  it('copyTo makes a store another process can open', () => {
    const s = open(dbPath());
    s.putEntry(entry('concept/rag'), [], vec(1, 0, 0, 0));
    const copy = join(mkdtempSync(join(tmpdir(), 'kb-store-')), 'copy.db');
    s.copyTo(copy);
    s.close();
    const c = open(copy);
    expect(c.getEntry('concept/rag')?.title).toBe('rag');
    expect([...c.entryVector('concept/rag')!]).toEqual([1, 0, 0, 0]);
    c.close();
  });
});

describe('Store: entity rows in order', () => {
  it('gives every row by key and then raw path, as SQLite orders them (code points, not UTF-16 units)', () => {
    const s = open(dbPath());
    // A character beyond U+FFFF (🚀, a surrogate pair in UTF-16) comes after one of U+E000..U+FFFF (ｚ).
    const keys = ['zeta', '向量', 'alpha', '🚀rocket', 'ｚfull', 'beta'];
    const paths = ['b.md', 'a.md', 'c/🚀.md', 'c/ｚ.md'];
    s.transaction(() => {
      for (const p of paths)
        s.putEntities(
          p,
          keys.map((key) => ({ key, surface: key, aliases: [], count: 1, snippets: [] })),
        );
    });
    const want = paths
      .flatMap((p) => keys.map((k) => [k, p] as const))
      .sort(
        (a, b) =>
          Buffer.compare(Buffer.from(a[0]), Buffer.from(b[0])) || Buffer.compare(Buffer.from(a[1]), Buffer.from(b[1])),
      );
    expect(s.allEntities().map((r) => [r.key, r.raw_path])).toEqual(want);
    expect(['🚀', 'ｚ', 'a'].sort(byCodePoint)).toEqual(['a', 'ｚ', '🚀']);
    s.close();
  });
});

describe('Store: entity rows read a document at a time', () => {
  const rows = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      key: `k${i}`,
      surface: `K${i}`,
      aliases: i % 2 ? [`alias ${i}`] : [],
      count: i + 1,
      snippets: i % 3 ? [] : [`K${i} is…`],
      sections: i ? '' : '1 2',
      ...(i === 1
        ? { salient: true }
        : i === 2
          ? { salient: true, subject: true, named: true }
          : i === 3
            ? { weak: true }
            : {}),
    }));
  /** doc_entities as SQL orders it: what each document's stored set must give back. */
  const fromTable = (path: string) => {
    const db = new Database(path, { readonly: true });
    const out = db
      .prepare(
        `SELECT raw_path, key, surface, aliases, count, snippets, salient, sections FROM doc_entities ORDER BY key, raw_path`,
      )
      .all() as {
      raw_path: string;
      key: string;
      surface: string;
      aliases: string;
      count: number;
      snippets: string;
      salient: number;
      sections: string;
    }[];
    db.close();
    return out.map((r) => ({
      raw_path: r.raw_path,
      key: r.key,
      surface: r.surface,
      aliases: JSON.parse(r.aliases),
      count: r.count,
      snippets: JSON.parse(r.snippets),
      sections: r.sections,
      ...((r.salient & 3) >= 1 ? { salient: true } : {}),
      ...((r.salient & 3) === 2 ? { subject: true } : {}),
      ...(r.salient & 4 ? { named: true } : {}),
      ...(r.salient & 8 ? { weak: true } : {}),
    }));
  };

  /** A store holding these documents' rows, changed behind its back by `change` (plain SQL), opened again. */
  const changedBehind = (docs: [string, number][], change: (db: Database.Database) => void) => {
    const path = dbPath();
    const s = open(path);
    s.transaction(() => {
      for (const [p, n] of docs) s.putEntities(p, rows(n));
    });
    s.close();
    const db = new Database(path);
    change(db);
    db.close();
    return { path, store: open(path) };
  };

  it('gives what doc_entities holds, after puts, a put of nothing and a delete', () => {
    const path = dbPath();
    const s = open(path);
    s.transaction(() => {
      s.putEntities('a.md', rows(5));
      s.putEntities('b.md', rows(3));
      s.putEntities('c.md', rows(2));
    });
    s.putEntities('b.md', rows(4)); // changed
    s.putEntities('c.md', []); // no names any more
    expect(s.allEntities()).toEqual(fromTable(path));
    expect(new Set(s.allEntities().map((r) => r.raw_path))).toEqual(new Set(['a.md', 'b.md']));
    s.deleteDocument('a.md');
    expect(s.allEntities()).toEqual(fromTable(path));
    expect(s.allEntities().every((r) => r.raw_path === 'b.md')).toBe(true);
    s.close();
  });

  it('reads from doc_entities the documents whose rows another writer changed (an older kb): none read stale', () => {
    // An older kb knows doc_entities only: it changes a document's rows and adds a new document's.
    const { path, store: again } = changedBehind(
      [
        ['a.md', 3],
        ['b.md', 3],
        ['c.md', 2],
      ],
      (db) => {
        db.prepare(`DELETE FROM doc_entities WHERE raw_path = 'a.md'`).run();
        const ins = db.prepare(
          `INSERT INTO doc_entities (raw_path, key, surface, aliases, count, snippets, salient, sections) VALUES (?, ?, ?, '[]', 1, '["new"]', 0, '')`,
        );
        ins.run('a.md', 'fresh', 'Fresh');
        ins.run('n.md', 'other', 'Other');
        // A row added to a document whose array stands, none removed.
        ins.run('c.md', 'added', 'Added');
        db.prepare(`UPDATE doc_entities SET count = 9 WHERE raw_path = 'b.md' AND key = 'k0'`).run();
      },
    );
    const got = again.allEntities();
    expect(got).toEqual(fromTable(path));
    expect(got.find((r) => r.raw_path === 'a.md')?.key).toBe('fresh');
    expect(got.find((r) => r.raw_path === 'b.md' && r.key === 'k0')?.count).toBe(9);
    expect(got.some((r) => r.raw_path === 'n.md')).toBe(true);
    expect(got.filter((r) => r.raw_path === 'c.md').map((r) => r.key)).toContain('added');
    again.close();
  });

  it('gathers a store made before the sets were kept, once, on open', () => {
    const { path, store: again } = changedBehind(
      [
        ['a.md', 4],
        ['b.md', 2],
      ],
      (db) => db.exec(`DELETE FROM doc_entity_rows; DELETE FROM meta WHERE key = 'entity_rows'`),
    );
    expect(again.allEntities()).toEqual(fromTable(path));
    again.close();
    const check = new Database(path, { readonly: true });
    expect(check.prepare(`SELECT count(*) FROM doc_entity_rows WHERE rows IS NOT NULL`).pluck().get()).toBe(2);
    check.close();
  });
});

describe('Store: fingerprint', () => {
  it('vectors made under another fingerprint are dropped, never mixed; rows and text stay', () => {
    const path = dbPath();
    const s = open(path, 'fp-a');
    expect(s.vectorsReset).toBe(false);
    s.putEntry(entry('concept/rag'), [], vec(1, 0, 0, 0));
    s.putChunks('concept/rag', null, [chunk(0, 'one')], [vec(0, 1, 0, 0)]);
    expect(s.vectorsMissing()).toBe(false);
    s.close();

    const same = open(path, 'fp-a');
    expect(same.vectorsReset).toBe(false);
    expect(same.vectorsMissing()).toBe(false);
    same.close();

    const other = open(path, 'fp-b', 8);
    expect(other.vectorsReset).toBe(true);
    expect(other.getMeta(VECTORS_STALE)).toBe('1');
    expect(other.vectorsMissing()).toBe(true);
    expect(other.getEntry('concept/rag')?.title).toBe('rag');
    expect(other.entryVector('concept/rag')).toBeUndefined();
    expect(other.entriesWithoutVectors().map((e) => e.id)).toEqual(['concept/rag']);
    const missing = other.chunksWithoutVectors(10);
    expect(missing.map((c) => c.text)).toEqual(['one']);

    // Made again with the new embedder's dimensions.
    other.putEntryVector('concept/rag', new Float32Array(8).fill(0.5));
    other.putChunkVector(missing[0]!.id, new Float32Array(8).fill(0.25));
    other.setMeta(VECTORS_STALE, '0');
    expect(other.vectorsMissing()).toBe(false);
    other.close();
  });

  it('a store of an older layout is started over (it is derived from raw/ and wiki/)', () => {
    const path = dbPath();
    const s = open(path);
    s.putDocument(doc('a.md'));
    s.setMeta('store_version', '0');
    s.close();
    const again = open(path);
    expect(again.getDocument('a.md')).toBeUndefined();
    expect(again.getMeta('store_version')).not.toBe('0');
    again.close();
  });
});

describe('Store: scan cache', () => {
  it('keeps parsed frontmatter by path, size and mtime; a file written just now is not trusted by its mtime', () => {
    const s = open(dbPath());
    const cache = s.scanCache();
    const fm = { id: 'concept/rag', kind: 'concept', title: 'RAG' } as never;
    cache.put('concepts/Old.md', { mtimeMs: 1000, size: 10, fm, bodyHash: 'b' });
    cache.put('concepts/New.md', { mtimeMs: Date.now(), size: 10, fm, bodyHash: 'b' });
    const again = s.scanCache();
    expect(again.get('concepts/Old.md')).toEqual({ mtimeMs: 1000, size: 10, fm, bodyHash: 'b' });
    expect(again.get('concepts/New.md')?.mtimeMs).toBe(-1);
    expect(again.get('concepts/Missing.md')).toBeUndefined();
    // Handed over once: a scan asks once a file, and the row's text is let go.
    expect(again.get('concepts/Old.md')).toBeUndefined();
    expect(s.scanCache().get('concepts/Old.md')?.size).toBe(10);
    s.close();
  });

  it('records a row given encoded (as a compile holds the rows it writes) as it records the row itself', () => {
    const s = open(dbPath());
    const cache = s.scanCache();
    const fm = { id: 'concept/rag', kind: 'concept', title: 'RAG', backlinks: ['source/a'] } as never;
    const links = ['RAG', 'source/a'];
    const rows = [
      { mtimeMs: 1000, size: 10, fm, bodyHash: 'b', textHash: 't', links, ownLinks: links },
      { mtimeMs: 1000, size: 12, fm, bodyHash: 'c', links, ownLinks: ['RAG'] },
      { mtimeMs: 1000, size: 14, fm, bodyHash: 'd' },
    ];
    rows.forEach((r, i) => {
      cache.put(`concepts/Object-${i}.md`, r);
      cache.put(`concepts/Encoded-${i}.md`, encodeScanRow(r));
    });
    const again = s.scanCache();
    rows.forEach((r, i) => {
      const [object, encoded] = [again.get(`concepts/Object-${i}.md`), again.get(`concepts/Encoded-${i}.md`)];
      expect(encoded).toEqual(object);
      expect(encoded?.fm).toEqual(fm);
      expect(encoded?.links).toEqual(r.links);
      expect(encoded?.ownLinks).toEqual(r.ownLinks ?? r.links);
    });
    s.close();
  });

  it('trusts an mtime past the file system’s tick: whole seconds are a coarse clock, fractions a fine one', () => {
    const s = open(dbPath());
    const cache = s.scanCache();
    const fm = { id: 'concept/rag', kind: 'concept', title: 'RAG' } as never;
    const now = Date.now();
    const fine = Math.floor(now / 1000) * 1000 - 999.5; // fractions: a fine clock, over a tenth of a second ago
    const cases: [string, number, boolean][] = [
      // must be trusted: a fine mtime half a second old or more
      ['concepts/Fine-old.md', fine, true],
      // must not: a fine mtime within the tick, a whole-second mtime within two seconds, a future one
      // (each as far inside its tick as it can be, so a slow machine's delay before put() does not age it out:
      // a fine mtime half a millisecond old, a whole second 0.1–1.1 s old against a 2 s tick)
      ['concepts/Fine-new.md', now - 0.5, false],
      ['concepts/Coarse-new.md', Math.floor((now - 100) / 1000) * 1000, false],
      ['concepts/Future.md', Math.ceil(now / 1000) * 1000 + 10_000, false],
    ];
    for (const [path, mtimeMs] of cases) cache.put(path, { mtimeMs, size: 10, fm, bodyHash: 'b' });
    const again = s.scanCache();
    for (const [path, mtimeMs, trusted] of cases) expect(again.get(path)?.mtimeMs, path).toBe(trusted ? mtimeMs : -1);
    s.close();
  });
});

describe('Store.nameGroups', () => {
  it('gives every name written with other names, in the order they were stored', () => {
    const s = open(join(mkdtempSync(join(tmpdir(), 'kb-store-')), 'kb.db'));
    const row = (key: string, surface: string, aliases: string[]) => ({
      key,
      surface,
      aliases,
      count: 2,
      snippets: [],
    });
    s.transaction(() => {
      s.putEntities('b.md', [row('zettelkasten', 'Zettelkasten', ['卡片盒笔记法']), row('note', 'note', [])]);
      s.putEntities('a.md', [row('rag', 'RAG', ['检索增强生成']), row('bm25', 'BM25', [])]);
    });
    // Stored order, not the names' alphabetical order the index of aliased rows keeps.
    expect(s.nameGroups()).toEqual([
      ['Zettelkasten', '卡片盒笔记法'],
      ['RAG', '检索增强生成'],
    ]);
    s.close();
  });
});

describe('Store.tidySearchIndex', () => {
  /** Rows of FTS5's own table of segments: one structure row and the segments' pages. */
  const segments = (path: string) => {
    const db = new Database(path, { readonly: true });
    try {
      return db.prepare(`SELECT count(*) AS n FROM chunks_fts_data`).get() as { n: number };
    } finally {
      db.close();
    }
  };

  it('merges the index once the passages removed since the last merge reach a fifth of them, with the same results', () => {
    const path = dbPath();
    const s = open(path);
    // One commit a document, as compile stores them.
    const put = (i: number, text: string) =>
      s.transaction(() => s.putChunks(`source/d${i}`, `d${i}.md`, [chunk(0, text)], [vec(1, 0, 0, i)]));
    for (let i = 0; i < 40; i++) put(i, `alpha beta note ${i} gamma`);
    expect(s.tidySearchIndex(0), 'only added: nothing to merge').toBe(false);
    // Compiled again: ten passages replaced, a fourth of the forty.
    for (let i = 0; i < 10; i++) put(i, `alpha beta note ${i} delta`);
    const hits = s.searchChunks('alpha', 50);
    expect(hits).toHaveLength(40);
    expect(s.tidySearchIndex(1_000), 'too few passages to be worth it').toBe(false);
    expect(s.getMeta('fts_deleted')).toBe('10');
    s.close();
    const before = segments(path).n;
    const again = open(path);
    expect(again.tidySearchIndex(0)).toBe(true);
    expect(again.getMeta('fts_deleted')).toBe('0');
    expect(again.searchChunks('alpha', 50)).toEqual(hits);
    // One passage of forty replaced: no merge.
    again.transaction(() => again.putChunks('source/d0', 'd0.md', [chunk(0, 'alpha epsilon')], [vec(0, 1, 0, 0)]));
    expect(again.tidySearchIndex(0)).toBe(false);
    expect(again.getMeta('fts_deleted')).toBe('1');
    again.close();
    expect(segments(path).n).toBeLessThan(before);
  });
});
