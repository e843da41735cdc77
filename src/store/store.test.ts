import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Chunk } from '../types.js';
import { byCodePoint, Store, VECTORS_STALE, type DocumentRow, type EntityRow, type EntryRow } from './store.js';
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
  type Put = Omit<EntityRow, 'raw_path'>;
  /** The rows allEntities must give back for these documents' puts: by key, then raw path. */
  const wanted = (docs: [string, Put[]][]) =>
    docs
      .flatMap(([raw_path, list]) =>
        list.map(({ places: _, ...r }) => ({ raw_path, ...r, sections: r.sections ?? '' })),
      )
      .sort((a, b) => byCodePoint(a.key, b.key) || byCodePoint(a.raw_path, b.raw_path));

  it('gives back what was put, after puts, a put of nothing and a delete', () => {
    const s = open(dbPath());
    s.transaction(() => {
      s.putEntities('a.md', rows(5));
      s.putEntities('b.md', rows(3));
      s.putEntities('c.md', rows(2));
    });
    s.putEntities('b.md', rows(4)); // changed
    s.putEntities('c.md', []); // no names any more
    expect(s.allEntities()).toEqual(
      wanted([
        ['a.md', rows(5)],
        ['b.md', rows(4)],
      ]),
    );
    s.deleteDocument('a.md');
    expect(s.allEntities()).toEqual(wanted([['b.md', rows(4)]]));
    expect(s.nameGroups()).toEqual([
      ['K1', 'alias 1'],
      ['K3', 'alias 3'],
    ]);
    s.close();
  });

  it("keeps where each name stands among a document's paragraphs, read apart from the rows", () => {
    const s = open(dbPath());
    const placed = rows(3).map((r, i) => (i === 1 ? r : { ...r, places: `${i}.0 ${i}.2` }));
    s.putEntities('a.md', placed);
    expect(s.placesOf('a.md')).toEqual(
      new Map([
        ['k0', '0.0 0.2'],
        ['k2', '2.0 2.2'],
      ]),
    );
    expect(s.allEntities().some((r) => 'places' in r)).toBe(false);
    s.putEntities('a.md', rows(3));
    expect(s.placesOf('a.md')).toEqual(new Map());
    expect(s.placesOf('none.md')).toEqual(new Map());
    s.close();
  });

  it('brings a version 8 store forward in place: its rows, places and names kept, the table of a row per name gone', () => {
    const path = dbPath();
    open(path).close();
    // Version 8 kept a row per name in doc_entities beside each document's array, which its
    // triggers made NULL (stale) when an older kb wrote the rows; a store from before the arrays had none.
    const db = new Database(path);
    db.exec(`
      UPDATE meta SET value = '8' WHERE key = 'store_version';
      DROP TABLE doc_aliases;
      CREATE TABLE doc_entities (raw_path TEXT NOT NULL, key TEXT NOT NULL, surface TEXT NOT NULL, aliases TEXT NOT NULL,
        count INTEGER NOT NULL, snippets TEXT NOT NULL, salient INTEGER NOT NULL DEFAULT 0,
        sections TEXT NOT NULL DEFAULT '', places TEXT NOT NULL DEFAULT '', PRIMARY KEY (raw_path, key));
      CREATE INDEX doc_entities_aliased ON doc_entities(surface, aliases) WHERE aliases != '[]';
      CREATE TABLE old_rows (raw_path TEXT PRIMARY KEY, rows TEXT) WITHOUT ROWID;
      INSERT INTO old_rows SELECT raw_path, rows FROM doc_entity_rows;
      DROP TABLE doc_entity_rows;
      ALTER TABLE old_rows RENAME TO doc_entity_rows;
    `);
    const put = db.prepare(
      `INSERT INTO doc_entities (raw_path, key, surface, aliases, count, snippets, salient, sections, places) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const bits = (r: Put) => (r.subject ? 2 : r.salient ? 1 : 0) | (r.named ? 4 : 0) | (r.weak ? 8 : 0);
    const docs: [string, Put[]][] = [
      ['b.md', rows(4).map((r, i) => (i === 2 ? { ...r, places: '1.0 1.3' } : r))],
      ['a.md', rows(3)],
      ['c.md', rows(2)],
      ['n.md', rows(1)],
    ];
    for (const [p, list] of docs)
      for (const r of list)
        put.run(
          p,
          r.key,
          r.surface,
          JSON.stringify(r.aliases),
          r.count,
          JSON.stringify(r.snippets),
          bits(r),
          r.sections ?? '',
          r.places ?? '',
        );
    const array = (list: Put[]) =>
      JSON.stringify(list.map((r) => [r.key, r.surface, r.aliases, r.count, r.snippets, bits(r), r.sections ?? '']));
    const set = db.prepare(`INSERT INTO doc_entity_rows (raw_path, rows) VALUES (?, ?)`);
    set.run('a.md', array(rows(3))); // standing
    set.run('b.md', null); // stale
    set.run('gone.md', null); // stale, its rows all removed
    // c.md and n.md: no array (rows written before the arrays were kept)
    db.close();

    const s = open(path);
    expect(s.allEntities()).toEqual(wanted(docs));
    expect(s.placesOf('b.md')).toEqual(new Map([['k2', '1.0 1.3']]));
    expect(s.placesOf('a.md')).toEqual(new Map());
    // In the order the rows were written.
    expect(s.nameGroups()).toEqual([
      ['K1', 'alias 1'],
      ['K3', 'alias 3'],
      ['K1', 'alias 1'],
      ['K1', 'alias 1'],
    ]);
    s.close();
    const check = new Database(path, { readonly: true });
    expect(check.prepare(`SELECT value FROM meta WHERE key = 'store_version'`).pluck().get()).toBe('9');
    expect(check.prepare(`SELECT count(*) FROM sqlite_master WHERE tbl_name = 'doc_entities'`).pluck().get()).toBe(0);
    expect(check.prepare(`SELECT raw_path FROM doc_entity_rows ORDER BY raw_path`).pluck().all()).toEqual([
      'a.md',
      'b.md',
      'c.md',
      'n.md',
    ]);
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
  it('trusts a row put within its tick once the tick has passed, if its file is still as recorded', () => {
    const s = open(dbPath());
    const wiki = mkdtempSync(join(tmpdir(), 'kb-wiki-'));
    const cache = s.scanCache();
    const fm = { id: 'concept/rag', kind: 'concept', title: 'RAG' } as never;
    const put = (name: string) => {
      writeFileSync(join(wiki, name), 'text');
      const st = statSync(join(wiki, name));
      cache.put(name, { mtimeMs: st.mtimeMs, size: st.size, fm, bodyHash: 'b' });
      return st.mtimeMs;
    };
    const kept = put('Kept.md');
    put('Grown.md');
    put('Gone.md');
    expect(s.scanCache().get('Kept.md')?.mtimeMs).toBe(-1);
    appendFileSync(join(wiki, 'Grown.md'), ' more');
    rmSync(join(wiki, 'Gone.md'));
    // Still within its tick: stays untrusted. Past it: trusted when its size and mtime are as recorded.
    cache.settle?.(wiki, kept);
    expect(s.scanCache().get('Kept.md')?.mtimeMs).toBe(-1);
    cache.settle?.(wiki, kept + 60_000);
    const again = s.scanCache();
    expect(again.get('Kept.md')?.mtimeMs).toBe(kept);
    for (const name of ['Grown.md', 'Gone.md']) expect(again.get(name)?.mtimeMs, name).toBe(-1);
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
