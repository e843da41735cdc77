import { deflateRawSync, inflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { availableParallelism } from 'node:os';
import { CHUNKS_MATCHING, CHUNKS_NEAREST } from './search-sql.js';
import { SearchThread } from './search-thread.js';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Chunk, EntryFrontmatter } from '../types.js';
import type { ScanCache } from '../entry/wiki.js';
import { encodeScanRow, type EncodedScanRow, type ScanRow } from '../entry/scan-row.js';
import { SEARCH_TERMS_VERSION, searchText } from '../text/search.js';
import { MIGRATES_FROM, STORE_VERSION, TABLES, vecTables } from './schema.js';
import { checkOnOpen, type Recovery } from './recover.js';
import { entityRowsOfVersion8 } from './migrate-entities.js';
import { byCodePoint } from '../util/order.js';

export { byCodePoint };

/**
 * Entry bases and pending drafts are written once per entry each compile and read rarely: zlib's
 * fastest level (5% larger than its default on compiled entries, in about half the time).
 */
const FAST_DEFLATE = { level: 1 };

export interface DocumentRow {
  /** The source's key: the raw file's path, or `file#anchor` for a post of a multi-post file. */
  raw_path: string;
  /** The raw file the row belongs to (= raw_path unless a post); putDocument fills it in when absent. */
  file?: string;
  hash: string;
  type: string;
  title: string;
  entry_id: string | null;
  size: number;
  mtime_ms: number;
  lang: string;
  status: 'ok' | 'failed' | 'skipped' | 'pending';
  error: string | null;
  compiled_at: number;
  compiler: string;
  /** The work it holds (compile/works.ts): documents of one work share one source entry. */
  work?: string;
  /** What a translation of it would keep as written (text/marks.ts), space-separated. */
  marks?: string;
  /** Its section headings with their depths (text/outline.ts). */
  headings?: string;
  /** How many paragraphs each section of its outline holds (text/outline.ts), space-separated. */
  paragraphs?: string;
}

/** Meta key: vectors of another embedder were dropped and are not made again yet. */
export const VECTORS_STALE = 'vectors_stale';

/** The raw file a document row belongs to. */
export function fileOfRow(d: Pick<DocumentRow, 'raw_path' | 'file'>): string {
  return d.file || d.raw_path;
}

/**
 * One row standing for a whole raw file (its posts' rows share hash, size and mtime): pending if
 * any post is, and marked for a retry if any post is.
 */
export function fileRow(rows: readonly DocumentRow[]): DocumentRow {
  const first = rows[0]!;
  const pending = rows.find((r) => r.status === 'pending');
  const retry = rows.find((r) => r.compiler !== first.compiler);
  return {
    ...first,
    raw_path: fileOfRow(first),
    ...(pending ? { status: 'pending' as const } : {}),
    ...(retry ? { compiler: retry.compiler.endsWith('!retry') ? retry.compiler : `${first.compiler}!mixed` } : {}),
  };
}

/** The store says ingest found nothing in this file. */
export function emptySkip(d: Pick<DocumentRow, 'status' | 'error'>): boolean {
  return d.status === 'skipped' && (d.error ?? '').startsWith('ingest-empty\t');
}

/** The salient bit of an entity row a model named (the low bits: 1 salient, 2 subject). */
const NAMED = 4;
/** The salient bit of an everyday word kept as a mention only (EntityRow.weak). */
const WEAK = 8;

/** One string for each text seen: rows that repeat a name or a path hold the same string, not copies of it. */
function interner(): (s: string) => string {
  const seen = new Map<string, string>();
  return (s) => {
    const had = seen.get(s);
    if (had !== undefined) return had;
    seen.set(s, s);
    return s;
  };
}

/** An entity row as doc_entity_rows keeps it: key, surface, aliases, count, snippets, salient bits, sections. */
type EntityCells = [string, string, string[], number, string[], number, string];

/** An entity row's salient bits: 1 salient, 2 the subject, with the NAMED and WEAK bits. */
function salientBits(r: Omit<EntityRow, 'raw_path'>): number {
  return (r.subject ? 2 : r.salient ? 1 : 0) | (r.named ? NAMED : 0) | (r.weak ? WEAK : 0);
}

/** A stored row as compile reads it: names and paths shared (`intern`), an empty list the shared one. */
function entityRow(intern: (s: string) => string, rawPath: string, cells: EntityCells): EntityRow {
  const [key, surface, aliases, count, snippets, salient, sections] = cells;
  const row: EntityRow = {
    raw_path: rawPath,
    key: intern(key),
    surface: intern(surface),
    aliases: aliases.length ? aliases : NO_STRINGS,
    count,
    snippets: snippets.length ? snippets : NO_STRINGS,
    sections: intern(sections),
  };
  if ((salient & 3) >= 1) row.salient = true;
  if ((salient & 3) === 2) row.subject = true;
  if (salient & NAMED) row.named = true;
  if (salient & WEAK) row.weak = true;
  return row;
}

/** A stored vector's blob as a vector of its own (the blob's memory is better-sqlite3's, and may be unaligned). */
function vectorOf(blob: Buffer): Float32Array {
  return new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
}

/** The one empty list entity rows share (never changed in place). */
const NO_STRINGS: string[] = Object.freeze([]) as unknown as string[];

export interface EntityRow {
  raw_path: string;
  key: string;
  surface: string;
  aliases: string[];
  count: number;
  snippets: string[];
  /** The document introduces or stresses it (a translation or abbreviation, emphasis, a heading). */
  salient?: boolean;
  /** The work's title names it and its text keeps coming back to it: what the work is about. */
  subject?: boolean;
  /** A model that wrote the work's entry named it as what the work is substantially about. */
  named?: boolean;
  /** An everyday word the document keeps using: a mention of a concept named otherwise, never a concept alone. */
  weak?: boolean;
  /** The sections of the document's outline that name it (text/outline.ts), space-separated. */
  sections?: string;
  /**
   * The paragraphs of those sections that name it (`section.paragraph`), space-separated: stored
   * with the row, read only by placesOf (allEntities leaves it out).
   */
  places?: string;
}

export interface EntryRow {
  id: string;
  kind: string;
  title: string;
  path: string;
  aliases: string[];
  summary: string;
  source_ref: string[];
  content_hash: string;
  human_edited: boolean;
  updated: number;
}

export interface ChunkRow {
  id: number;
  entry_id: string;
  raw_path: string | null;
  ord: number;
  heading: string;
  text: string;
  tokens: number;
  line: number;
}

/** How an entry's own chunks change (Store.patchEntryChunks). */
export interface ChunkPatch {
  kept: { id: number; ord: number; line: number; tokens: number }[];
  dropped: number[];
  added: Chunk[];
  /** One per added chunk. */
  vectors: Float32Array[];
}

export interface StoreOptions {
  /** Fingerprint of the embedder + chunker: vectors made under another one are dropped, never mixed. */
  fingerprint: string;
  dims: number;
  readonly?: boolean;
  /**
   * false for commands that only read: where no store file is, they get an empty store held in
   * memory, and neither the file nor its folder is made.
   */
  create?: boolean;
}

type Stmt = Database.Statement<unknown[], unknown>;

/** Passages below which the search index is left to FTS5's own merging (Store.tidySearchIndex). */
const MERGE_MIN_PASSAGES = 20_000;

/**
 * The derived store `wiki/embeddings.db`: documents, entities, entries, links, chunks,
 * FTS5 indexes and sqlite-vec vectors. Everything here can be rebuilt from raw/ and wiki/.
 */
export class Store {
  /** Private: every caller uses a named query below, so the SQL of the store lives in this file. */
  private readonly db: Database.Database;
  readonly dims: number;
  /** True when this open found vectors of another fingerprint and dropped them. */
  readonly vectorsReset: boolean;
  /** Set when the file was damaged: it was set aside, and this store starts empty. */
  readonly recovered: Recovery | undefined;
  private readonly stmts = new Map<string, Stmt>();
  /** Held in memory only: there was no store file, and this open made none (`create: false`). */
  readonly ephemeral: boolean;
  private thread: SearchThread | undefined;

  constructor(path: string, opts: StoreOptions) {
    this.ephemeral = opts.create === false && path !== ':memory:' && !existsSync(path);
    if (this.ephemeral) path = ':memory:';
    if (path !== ':memory:') {
      mkdirSync(dirname(path), { recursive: true });
      // Damage found later, in use, is handled by the CLI (it checks again and reruns the command).
      this.recovered = checkOnOpen(path, 'store');
    }
    let db = openDb(path);
    const version = storeVersion(db);
    if (version !== undefined && version !== STORE_VERSION && !MIGRATES_FROM.has(version) && path !== ':memory:') {
      // An older layout: the store is derived from raw/ and wiki/, so start over.
      db.close();
      for (const p of [path, `${path}-wal`, `${path}-shm`]) rmSync(p, { force: true });
      db = openDb(path);
    }
    this.db = db;
    this.dims = opts.dims;
    this.vectorsReset = this.migrate(opts);
  }

  private migrate(opts: StoreOptions): boolean {
    const db = this.db;
    db.exec(TABLES);
    // Added after version 5 shipped: columns, not a rebuild (the cache fills itself again).
    const columnsOf = (table: string) =>
      new Set((db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name));
    const columns = columnsOf('wiki_files');
    if (!columns.has('text_hash')) db.exec(`ALTER TABLE wiki_files ADD COLUMN text_hash TEXT NOT NULL DEFAULT ''`);
    if (!columns.has('links')) db.exec(`ALTER TABLE wiki_files ADD COLUMN links TEXT NOT NULL DEFAULT ''`);
    if (!columns.has('own_links')) db.exec(`ALTER TABLE wiki_files ADD COLUMN own_links TEXT NOT NULL DEFAULT ''`);
    const documentColumns = columnsOf('documents');
    if (!documentColumns.has('marks')) db.exec(`ALTER TABLE documents ADD COLUMN marks TEXT NOT NULL DEFAULT ''`);
    if (!documentColumns.has('headings')) db.exec(`ALTER TABLE documents ADD COLUMN headings TEXT NOT NULL DEFAULT ''`);
    if (!documentColumns.has('paragraphs'))
      db.exec(`ALTER TABLE documents ADD COLUMN paragraphs TEXT NOT NULL DEFAULT ''`);
    // A version 8 store brought forward (migrate-entities.ts): under the write lock, checked again
    // there, so two kb processes opening it at once do it once.
    if (!columnsOf('doc_entity_rows').has('places') || columnsOf('doc_entities').size)
      db.transaction(() => {
        if (!columnsOf('doc_entity_rows').has('places'))
          db.exec(`ALTER TABLE doc_entity_rows ADD COLUMN places TEXT NOT NULL DEFAULT ''`);
        const old = columnsOf('doc_entities');
        if (old.size) entityRowsOfVersion8(db, old);
      }).immediate();
    this.setMeta('store_version', STORE_VERSION);
    const old = this.getMeta('fingerprint');
    let reset = false;
    if (old !== undefined && old !== opts.fingerprint) {
      db.exec(`DROP TABLE IF EXISTS vec_chunks; DROP TABLE IF EXISTS vec_entries;`);
      // Until the next compile embeds everything again (it reads this mark), search has keywords only.
      this.setMeta(VECTORS_STALE, '1');
      reset = true;
    }
    db.exec(vecTables(opts.dims));
    this.setMeta('fingerprint', opts.fingerprint);
    if (this.getMeta('search_terms') !== SEARCH_TERMS_VERSION) this.transaction(() => this.rebuildSearchIndex());
    // A store from before the count (tidySearchIndex): its index's history is unknown, so the next
    // compile merges it once, as if every passage had been removed since.
    if (this.getMeta('fts_deleted') === undefined) this.setMeta('fts_deleted', String(this.chunkCount()));
    return reset;
  }

  /** Index every chunk and entry again with today's search terms (the text is all in the tables). */
  private rebuildSearchIndex(): void {
    this.ftsDeleted += this.chunkCount();
    this.db.exec(`DELETE FROM chunks_fts; DELETE FROM entries_fts;`);
    const chunk = this.db.prepare(`INSERT INTO chunks_fts (rowid, body) VALUES (?, ?)`);
    const chunks = this.db.prepare(`SELECT id, heading, text FROM chunks WHERE id > ? ORDER BY id LIMIT 1000`);
    for (let last = -1; ; ) {
      const page = chunks.all(last) as { id: number; heading: string; text: string }[];
      if (!page.length) break;
      for (const c of page) chunk.run(BigInt(c.id), chunkFtsText(c.heading, c.text));
      last = page[page.length - 1]!.id;
    }
    const entry = this.db.prepare(`INSERT INTO entries_fts (rowid, title, body) VALUES (?, ?, ?)`);
    for (const e of this.db.prepare(`SELECT rowid, title, aliases, summary FROM entries`).all() as {
      rowid: number;
      title: string;
      aliases: string;
      summary: string;
    }[]) {
      entry.run(
        BigInt(e.rowid),
        searchText([e.title, ...(JSON.parse(e.aliases) as string[])].join(' ')),
        searchText(e.summary),
      );
    }
    this.setMeta('search_terms', SEARCH_TERMS_VERSION);
  }

  private stmt(sql: string): Stmt {
    let s = this.stmts.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.stmts.set(sql, s);
    }
    return s;
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  close(): void {
    this.thread?.close();
    this.db.close();
  }

  /** A consistent copy of the whole store in a new file (`VACUUM INTO`). */
  copyTo(path: string): void {
    this.db.prepare('VACUUM INTO ?').run(path);
  }

  // ---- meta

  getMeta(key: string): string | undefined {
    return (this.stmt(`SELECT value FROM meta WHERE key = ?`).get(key) as { value: string } | undefined)?.value;
  }

  setMeta(key: string, value: string): void {
    this.stmt(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(
      key,
      value,
    );
  }

  // ---- documents

  /** Record which compiler a document was compiled by (`<name>!retry`: compile it again next time). */
  setDocumentCompiler(rawPath: string, compiler: string): void {
    this.stmt(`UPDATE documents SET compiler = ? WHERE raw_path = ?`).run(compiler, rawPath);
  }

  /** Every document's hash, by raw path (what the wiki was compiled from). */
  documentHashes(): { raw_path: string; hash: string }[] {
    return this.stmt(`SELECT raw_path, hash FROM documents ORDER BY raw_path`).all() as {
      raw_path: string;
      hash: string;
    }[];
  }

  getDocument(rawPath: string): DocumentRow | undefined {
    return this.stmt(`SELECT * FROM documents WHERE raw_path = ?`).get(rawPath) as DocumentRow | undefined;
  }

  allDocuments(): DocumentRow[] {
    return this.stmt(`SELECT * FROM documents ORDER BY raw_path`).all() as DocumentRow[];
  }

  /** The source entry of every document ('' for none), without reading the rest of each row. */
  entryIdsOfDocuments(): string[] {
    return this.stmt(`SELECT coalesce(entry_id, '') FROM documents`).pluck().all() as string[];
  }

  /** Every document stored as pending is compiled: its entry is written (one statement, not a read and a write a row). */
  settlePending(): void {
    this.stmt(`UPDATE documents SET status = 'ok' WHERE status = 'pending'`).run();
  }

  /**
   * Raw paths of the files whose original is copied into wiki/attachments/ under its own name:
   * attachments, and documents (PDF, Office, e-books) that Obsidian can open.
   */
  attachmentPaths(): string[] {
    return (
      this.stmt(`SELECT raw_path FROM documents WHERE type IN ('attachment', 'document') ORDER BY raw_path`).all() as {
        raw_path: string;
      }[]
    ).map((r) => r.raw_path);
  }

  /**
   * The rows of each raw file, by file: one for most files, one per post for a multi-post file.
   * What a file was compiled from (hash, size, mtime, compiler) is the same on all its rows.
   */
  documentsByFile(): Map<string, DocumentRow[]> {
    const out = new Map<string, DocumentRow[]>();
    for (const d of this.allDocuments()) {
      const f = fileOfRow(d);
      const list = out.get(f);
      if (list) list.push(d);
      else out.set(f, [d]);
    }
    return out;
  }

  /** Forget a raw file: its row, or the rows of all its posts, with their entities and chunks. */
  deleteFile(file: string): void {
    const keys = (
      this.stmt(`SELECT raw_path FROM documents WHERE file = ? OR raw_path = ?`).all(file, file) as {
        raw_path: string;
      }[]
    ).map((r) => r.raw_path);
    for (const k of keys) this.deleteDocument(k);
  }

  putDocument(row: DocumentRow): void {
    this.stmt(
      `INSERT INTO documents (raw_path, file, hash, type, title, entry_id, size, mtime_ms, lang, status, error, compiled_at, compiler, work, marks, headings, paragraphs)
       VALUES (@raw_path, @file, @hash, @type, @title, @entry_id, @size, @mtime_ms, @lang, @status, @error, @compiled_at, @compiler, @work, @marks, @headings, @paragraphs)
       ON CONFLICT(raw_path) DO UPDATE SET file = excluded.file, hash = excluded.hash, type = excluded.type, title = excluded.title,
         entry_id = excluded.entry_id, size = excluded.size, mtime_ms = excluded.mtime_ms, lang = excluded.lang, status = excluded.status,
         error = excluded.error, compiled_at = excluded.compiled_at, compiler = excluded.compiler, work = excluded.work,
         marks = excluded.marks, headings = excluded.headings, paragraphs = excluded.paragraphs`,
    ).run({
      ...row,
      file: row.file || row.raw_path,
      work: row.work ?? '',
      marks: row.marks ?? '',
      headings: row.headings ?? '',
      paragraphs: row.paragraphs ?? '',
    });
  }

  /** Move a document (and its chunks) to another source entry: copies of one work share one. */
  setDocumentEntry(rawPath: string, entryId: string): void {
    this.stmt(`UPDATE documents SET entry_id = ? WHERE raw_path = ?`).run(entryId, rawPath);
    this.stmt(`UPDATE chunks SET entry_id = ? WHERE raw_path = ?`).run(entryId, rawPath);
  }

  deleteDocument(rawPath: string): void {
    this.stmt(`DELETE FROM documents WHERE raw_path = ?`).run(rawPath);
    this.stmt(`DELETE FROM pending_drafts WHERE raw_path = ?`).run(rawPath);
    this.stmt(`DELETE FROM doc_entity_rows WHERE raw_path = ?`).run(rawPath);
    this.stmt(`DELETE FROM doc_aliases WHERE raw_path = ?`).run(rawPath);
    this.deleteChunksOfRaw(rawPath);
  }

  // ---- entities

  /** A document's entity rows, in place of those it had (none: it names nothing). */
  putEntities(rawPath: string, rows: Omit<EntityRow, 'raw_path'>[]): void {
    this.stmt(`DELETE FROM doc_aliases WHERE raw_path = ?`).run(rawPath);
    const alias = this.stmt(`INSERT INTO doc_aliases (raw_path, surface, aliases) VALUES (?, ?, ?)`);
    for (const r of rows) if (r.aliases.length) alias.run(rawPath, r.surface, JSON.stringify(r.aliases));
    if (!rows.length) {
      this.stmt(`DELETE FROM doc_entity_rows WHERE raw_path = ?`).run(rawPath);
      return;
    }
    const placed = rows.filter((r) => r.places).map((r): [string, string] => [r.key, r.places!]);
    this.stmt(`INSERT OR REPLACE INTO doc_entity_rows (raw_path, rows, places) VALUES (?, ?, ?)`).run(
      rawPath,
      JSON.stringify(
        rows.map(
          (r): EntityCells => [r.key, r.surface, r.aliases, r.count, r.snippets, salientBits(r), r.sections ?? ''],
        ),
      ),
      placed.length ? JSON.stringify(placed.sort((x, y) => byCodePoint(x[0], y[0]))) : '',
    );
  }

  /**
   * Every entity row, by key and then raw path (as `ORDER BY key, raw_path` would give them). At
   * 10,000 documents these are ~400,000 rows of ~2,000 names: each document's rows are read as one
   * JSON array (doc_entity_rows), and put in order by name, a few thousand names each with its
   * rows; names and paths are shared strings, and an empty list is one shared empty array (half the
   * rows are everyday words with no sentence).
   */
  allEntities(): EntityRow[] {
    const intern = interner();
    const byKey = new Map<string, EntityRow[]>();
    // In raw path order (the primary key's: code points), so each name's rows come in that order too.
    const sets = this.stmt(`SELECT raw_path, rows FROM doc_entity_rows WHERE rows IS NOT NULL ORDER BY raw_path`)
      .raw(true)
      .iterate() as IterableIterator<[string, string]>;
    for (const [rawPath, json] of sets) {
      const path = intern(rawPath);
      for (const cells of JSON.parse(json) as EntityCells[]) {
        const row = entityRow(intern, path, cells);
        const same = byKey.get(row.key);
        if (same) same.push(row);
        else byKey.set(row.key, [row]);
      }
    }
    const out: EntityRow[] = [];
    for (const key of [...byKey.keys()].sort(byCodePoint)) out.push(...byKey.get(key)!);
    return out;
  }

  /**
   * Where each name of one document stands among its paragraphs (EntityRow.places), by key: read for
   * the versions of a work only (compile/aligned-paragraphs.ts), not with every row of allEntities.
   */
  placesOf(rawPath: string): Map<string, string> {
    const places = this.stmt(`SELECT places FROM doc_entity_rows WHERE raw_path = ?`).pluck().get(rawPath) as
      | string
      | undefined;
    return new Map(places ? (JSON.parse(places) as [string, string][]) : []);
  }

  // ---- entries

  /** An entry by id; without its list of sources when `sources` is false (entriesByRowids). */
  getEntry(id: string, sources = true): EntryRow | undefined {
    const r = this.stmt(`SELECT ${sources ? '*' : NO_SOURCES} FROM entries WHERE id = ?`).get(id) as
      | RawEntryRow
      | undefined;
    return r && toEntry(r);
  }

  allEntries(): EntryRow[] {
    return (this.stmt(`SELECT * FROM entries ORDER BY kind, title`).all() as RawEntryRow[]).map(toEntry);
  }

  /** Every entry's id, content hash and path, by id (what the wiki holds now). */
  entryHashes(): { id: string; content_hash: string; path: string }[] {
    return this.stmt(`SELECT id, content_hash, path FROM entries ORDER BY id`).all() as {
      id: string;
      content_hash: string;
      path: string;
    }[];
  }

  entryRowid(id: string): number | undefined {
    return (this.stmt(`SELECT rowid FROM entries WHERE id = ?`).get(id) as { rowid: number } | undefined)?.rowid;
  }

  /**
   * Entries by rowid, read a few hundred at a time (a question's candidates: one query, not one
   * each). Without their sources when `sources` is false: a concept's list runs to thousands of
   * paths at 10,000 documents (10 KB on average), and ranking reads none of it.
   */
  entriesByRowids(rowids: readonly number[], sources = true): Map<number, EntryRow> {
    const out = new Map<number, EntryRow>();
    const columns = sources ? '*' : NO_SOURCES;
    for (let i = 0; i < rowids.length; i += 500) {
      const part = rowids.slice(i, i + 500);
      const rows = this.db
        .prepare(`SELECT rowid AS _rowid, ${columns} FROM entries WHERE rowid IN (${part.map(() => '?').join(',')})`)
        .all(...part) as (RawEntryRow & { _rowid: number })[];
      for (const { _rowid, ...r } of rows) out.set(_rowid, toEntry(r as RawEntryRow));
    }
    return out;
  }

  /** Insert or update an entry with its outgoing links and (optionally) its summary vector. */
  putEntry(e: EntryRow, links: string[], vector?: Float32Array): void {
    this.stmt(
      `INSERT INTO entries (id, kind, title, path, aliases, summary, source_ref, content_hash, human_edited, updated)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET kind = excluded.kind, title = excluded.title, path = excluded.path,
         aliases = excluded.aliases, summary = excluded.summary, source_ref = excluded.source_ref,
         content_hash = excluded.content_hash, human_edited = excluded.human_edited, updated = excluded.updated`,
    ).run(
      e.id,
      e.kind,
      e.title,
      e.path,
      JSON.stringify(e.aliases),
      e.summary,
      JSON.stringify(e.source_ref),
      e.content_hash,
      e.human_edited ? 1 : 0,
      e.updated,
    );
    const rowid = BigInt(this.entryRowid(e.id)!);
    this.stmt(`DELETE FROM entries_fts WHERE rowid = ?`).run(rowid);
    this.stmt(`INSERT INTO entries_fts (rowid, title, body) VALUES (?, ?, ?)`).run(
      rowid,
      searchText([e.title, ...e.aliases].join(' ')),
      searchText(e.summary),
    );
    this.setLinks(e.id, links);
    if (vector) {
      this.stmt(`DELETE FROM vec_entries WHERE rowid = ?`).run(rowid);
      this.stmt(`INSERT INTO vec_entries (rowid, embedding) VALUES (?, ?)`).run(rowid, vector);
    }
  }

  deleteEntry(id: string): void {
    const rowid = this.entryRowid(id);
    if (rowid === undefined) return;
    const big = BigInt(rowid);
    this.stmt(`DELETE FROM entries_fts WHERE rowid = ?`).run(big);
    this.stmt(`DELETE FROM vec_entries WHERE rowid = ?`).run(big);
    this.stmt(`DELETE FROM entries WHERE id = ?`).run(id);
    this.stmt(`DELETE FROM links WHERE src = ?`).run(id);
    this.stmt(`DELETE FROM render_keys WHERE id = ?`).run(id);
    this.stmt(`DELETE FROM entry_bases WHERE id = ?`).run(id);
    this.deleteChunksOfEntry(id);
  }

  // ---- what kb last wrote into each entry (emit/merge-edits.ts)

  /** The body kb last wrote into the entry, or undefined when it wrote none (or an older kb did). */
  entryBase(id: string): string | undefined {
    const row = this.stmt(`SELECT body FROM entry_bases WHERE id = ?`).get(id) as { body: Buffer } | undefined;
    return row ? inflateRawSync(row.body).toString('utf8') : undefined;
  }

  putEntryBase(id: string, body: string): void {
    this.stmt(
      `INSERT INTO entry_bases (id, body) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET body = excluded.body`,
    ).run(id, deflateRawSync(Buffer.from(body, 'utf8'), FAST_DEFLATE));
  }

  /** A document's source draft, kept until the run that stored the document writes the wiki (schema: pending_drafts). */
  putPendingDraft(rawPath: string, draft: unknown): void {
    this.stmt(
      `INSERT INTO pending_drafts (raw_path, draft) VALUES (?, ?) ON CONFLICT(raw_path) DO UPDATE SET draft = excluded.draft`,
    ).run(rawPath, deflateRawSync(Buffer.from(JSON.stringify(draft), 'utf8'), FAST_DEFLATE));
  }

  pendingDraft<T>(rawPath: string): T | undefined {
    const row = this.stmt(`SELECT draft FROM pending_drafts WHERE raw_path = ?`).get(rawPath) as
      | { draft: Buffer }
      | undefined;
    return row ? (JSON.parse(inflateRawSync(row.draft).toString('utf8')) as T) : undefined;
  }

  /** The drafts and the summary vectors kept for a run that has not yet written the wiki. */
  clearPendingDrafts(): void {
    this.stmt(`DELETE FROM pending_drafts`).run();
    this.stmt(`DELETE FROM pending_vectors`).run();
  }

  /** A summary vector made before its entry is written (schema: pending_vectors). */
  putPendingVector(key: string, v: Float32Array): void {
    this.stmt(`INSERT OR REPLACE INTO pending_vectors (key, vector) VALUES (?, ?)`).run(
      key,
      Buffer.from(v.buffer, v.byteOffset, v.byteLength),
    );
  }

  pendingVector(key: string): Float32Array | undefined {
    const row = this.stmt(`SELECT vector FROM pending_vectors WHERE key = ?`).get(key) as
      | { vector: Buffer }
      | undefined;
    return row && vectorOf(row.vector);
  }

  hasEntryBase(id: string): boolean {
    return this.stmt(`SELECT 1 FROM entry_bases WHERE id = ?`).get(id) !== undefined;
  }

  // ---- render keys (emit/render-keys.ts)

  renderKeys(): Map<string, { input: string; output: string }> {
    const rows = this.stmt(`SELECT id, input, output FROM render_keys`).all() as {
      id: string;
      input: string;
      output: string;
    }[];
    return new Map(rows.map((r) => [r.id, { input: r.input, output: r.output }]));
  }

  putRenderKey(id: string, key: { input: string; output: string }): void {
    this.stmt(
      `INSERT INTO render_keys (id, input, output) VALUES (?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET input = excluded.input, output = excluded.output`,
    ).run(id, key.input, key.output);
  }

  /**
   * The entry's links become `dsts`: only the rows that differ are deleted or inserted (a concept page
   * of thousands of links, written again for one source more or less, changes one row, not all).
   */
  private setLinks(src: string, dsts: string[]): void {
    const want = new Set(dsts);
    want.delete(src);
    const gone = this.linksFrom(src).filter((d) => !want.delete(d));
    // One statement for each side, the ids handed over as one JSON array: at 10,000 documents a first
    // compile writes ~400,000 links, and a call a link cost more than the rows' own writes.
    if (gone.length)
      this.stmt(`DELETE FROM links WHERE src = ? AND dst IN (SELECT value FROM json_each(?))`).run(
        src,
        JSON.stringify(gone),
      );
    if (want.size)
      this.stmt(`INSERT OR IGNORE INTO links (src, dst) SELECT ?, value FROM json_each(?)`).run(
        src,
        JSON.stringify([...want]),
      );
  }

  /** Every entry's links, by source entry (each list in the order linksFrom gives it). */
  /**
   * Every entry's links, by entry id in code point order, each list in that order too (as `ORDER BY
   * src, dst` gives them, without SQLite's sort): rows read one at a time, each linked id one shared string.
   */
  allLinks(): Map<string, string[]> {
    const bySrc = new Map<string, string[]>();
    const intern = interner();
    const rows = this.stmt(`SELECT src, dst FROM links`).iterate() as IterableIterator<{ src: string; dst: string }>;
    for (const r of rows) {
      const dst = intern(r.dst);
      const list = bySrc.get(r.src);
      if (list) list.push(dst);
      else bySrc.set(r.src, [dst]);
    }
    const out = new Map<string, string[]>();
    for (const src of [...bySrc.keys()].sort(byCodePoint)) out.set(src, bySrc.get(src)!.sort(byCodePoint));
    return out;
  }

  /** An entry's links in code point order (the primary key's order, which SQLite reads them in; as allLinks gives each list). */
  linksFrom(id: string): string[] {
    // Plucked: a string a row, not an object a row mapped to one (read for every entry kept: 10,000 calls 520 -> 270 ms).
    return this.stmt(`SELECT dst FROM links WHERE src = ? ORDER BY dst`).pluck().all(id) as string[];
  }

  linksTo(id: string): string[] {
    return this.stmt(`SELECT src FROM links WHERE dst = ? ORDER BY src`).pluck().all(id) as string[];
  }

  // ---- search

  /**
   * Read the file through a memory map from now on, for a process that answers many questions (`kb
   * serve`, `kb mcp`): each scans every vector and long posting lists, and a map spares copying each
   * page into SQLite's small cache again on every question (the vector scan of 77,000 passages: 55 ->
   * 36 ms). Not for a command that asks once: it reads each page once either way, and the pages a
   * map touches count towards its resident memory (`kb ask` at 10,000 documents: 131 -> 633 MB).
   */
  mapForSearch(): void {
    if (this.ephemeral) return;
    this.db.pragma(`mmap_size = ${SEARCH_MMAP_BYTES}`);
    // Such a process also searches on a second thread, where a second core is there to run it.
    this.startSearchThread(SEARCH_MMAP_BYTES);
  }

  /**
   * Search on a second thread too, without a memory map, for a command that asks once (`kb search`,
   * `kb ask`): started when the store opens, the thread is ready by the time the question's vector
   * is, and scans the vectors while this thread runs the keyword groups.
   */
  searchOnSecondThread(): void {
    if (!this.ephemeral) this.startSearchThread(0);
  }

  /** The search thread, mapping `mmapBytes` of the file, where a second core is there to run it. */
  private startSearchThread(mmapBytes: number): void {
    if (!this.thread && availableParallelism() >= 2) this.thread = SearchThread.start(this.db.name, mmapBytes);
  }

  /** The store's search thread, while it answers (mapForSearch and searchOnSecondThread start it). */
  searchThread(): SearchThread | undefined {
    return this.thread?.alive ? this.thread : undefined;
  }

  /** How much of the file SQLite may map now (0: none; mapForSearch). */
  mappedBytes(): number {
    return Number(this.db.pragma('mmap_size', { simple: true }));
  }

  /** Chunks matching an FTS5 expression, best BM25 first. */
  searchChunks(match: string, limit: number): { id: number; score: number }[] {
    return this.stmt(CHUNKS_MATCHING).all(match, limit) as {
      id: number;
      score: number;
    }[];
  }

  /** Entry rowids matching an FTS5 expression (titles weigh 3 times the summaries), best first. */
  searchEntries(match: string, limit: number): number[] {
    return (
      this.stmt(
        `SELECT rowid AS id FROM entries_fts WHERE entries_fts MATCH ? ORDER BY bm25(entries_fts, 3.0, 1.0) LIMIT ?`,
      ).all(match, limit) as { id: number }[]
    ).map((r) => r.id);
  }

  /** Chunk ids nearest to a vector, nearest first. */
  nearestChunks(v: Float32Array, k: number): number[] {
    return (this.stmt(CHUNKS_NEAREST).all(v, Math.min(4096, k)) as { id: number | bigint }[]).map((r) => Number(r.id));
  }

  /** Entry rowids nearest to a vector, nearest first. */
  nearestEntries(v: Float32Array, k: number): number[] {
    return (
      this.stmt(`SELECT rowid AS id FROM vec_entries WHERE embedding MATCH ? AND k = ? ORDER BY distance`).all(
        v,
        Math.min(4096, k),
      ) as { id: number | bigint }[]
    ).map((r) => Number(r.id));
  }

  chunksByIds(ids: number[]): ChunkRow[] {
    const out: ChunkRow[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const part = ids.slice(i, i + 500);
      out.push(
        ...(this.db
          .prepare(`SELECT * FROM chunks WHERE id IN (${part.map(() => '?').join(',')})`)
          .all(...part) as ChunkRow[]),
      );
    }
    return out;
  }

  /**
   * How many chunks hold each term (as the index spells it: Latin words stemmed by FTS5), and how
   * many chunks there are: the weights of a question's terms.
   */
  termStats(terms: string[]): { chunks: number; df: Map<string, number> } {
    const stats = this.currentStats();
    const df = new Map<string, number>();
    const vocab = this.stmt(`SELECT doc FROM chunks_vocab WHERE term = ?`);
    const count = this.stmt(`SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH ?`);
    for (const t of new Set(terms)) {
      let n = stats.df.get(t);
      if (n === undefined) {
        n = (vocab.get(t) as { doc: number } | undefined)?.doc;
        // A Latin word the index holds only stemmed, or a phrase: let FTS5 count it.
        if (n === undefined && /[a-z]|\s/.test(t)) n = (count.get(`"${t.replace(/"/g, '""')}"`) as { n: number }).n;
        n ??= 0;
        if (stats.df.size < TERM_STATS_KEPT) stats.df.set(t, n);
      }
      df.set(t, n);
    }
    return { chunks: stats.chunks, df };
  }

  private stats: { version: string; chunks: number; df: Map<string, number> } | undefined;

  /** How many passages the store holds. */
  private chunkCount(): number {
    return (this.stmt(`SELECT count(*) AS n FROM chunks`).get() as { n: number }).n;
  }

  /** Passages removed from the search index by this connection, not yet counted in `fts_deleted`. */
  private ftsDeleted = 0;

  /**
   * Merge the search index into one segment once the passages removed since the last merge reach
   * a fifth of those it holds. A removed passage stays in its segment, marked deleted, until a merge
   * reaches it, and every query reads past it: at 10,000 documents compiled twice over, the index
   * held three times the pages of a fresh one and a query took 88 ms of full-text search (median)
   * against 56 ms merged. A compile that only adds (the first) leaves FTS5's own merging a compact
   * index, and below MERGE_MIN_PASSAGES (1,000 documents, 9,000 passages: 8–10 ms either way) a
   * merge would only cost time. Search results are the same: a merge moves postings, not their
   * counts. Returns whether it merged.
   */
  tidySearchIndex(minPassages = MERGE_MIN_PASSAGES): boolean {
    const deleted = Number(this.getMeta('fts_deleted') ?? 0) + this.ftsDeleted;
    this.ftsDeleted = 0;
    const rows = deleted === 0 ? 0 : this.chunkCount();
    if (deleted === 0 || deleted * 5 < rows || rows < minPassages) {
      this.setMeta('fts_deleted', String(deleted));
      return false;
    }
    this.db.exec(
      `INSERT INTO chunks_fts (chunks_fts) VALUES ('optimize'); INSERT INTO entries_fts (entries_fts) VALUES ('optimize');`,
    );
    this.setMeta('fts_deleted', '0');
    return true;
  }
  /**
   * The passage count and the document frequencies counted so far, kept while the store is as it was:
   * a process that answers many questions (kb serve, kb mcp) counts a term once, not once a question
   * (a common Latin word is a full count over its postings). Any write, by this connection or another,
   * starts them again.
   */
  private currentStats(): { chunks: number; df: Map<string, number> } {
    const version = `${this.db.pragma('data_version', { simple: true })}:${(this.stmt('SELECT total_changes() AS n').get() as { n: number }).n}`;
    if (this.stats?.version !== version) {
      const chunks = this.chunkCount();
      this.stats = { version, chunks, df: new Map() };
    }
    return this.stats;
  }

  /** The names of each entry and of each entity the compiler found (title or surface, then aliases). */
  nameGroups(): string[][] {
    const out: string[][] = [];
    for (const r of this.stmt(`SELECT title, aliases FROM entries WHERE aliases != '[]'`).all() as {
      title: string;
      aliases: string;
    }[])
      out.push([r.title, ...(JSON.parse(r.aliases) as string[])]);
    for (const [surface, aliases] of this.stmt(`SELECT surface, aliases FROM doc_aliases ORDER BY rowid`)
      .raw(true)
      .iterate() as IterableIterator<[string, string]>)
      out.push([surface, ...(JSON.parse(aliases) as string[])]);
    return out;
  }

  /** The languages of the documents compiled (`en`, `zh`, `mixed`). */
  languages(): Set<string> {
    return new Set(
      (this.stmt(`SELECT DISTINCT lang FROM documents WHERE status = 'ok'`).all() as { lang: string }[]).map(
        (r) => r.lang,
      ),
    );
  }

  // ---- chunks

  /** Replace the chunks of an entry (and the raw file they came from) with their vectors. */
  putChunks(entryId: string, rawPath: string | null, chunks: Chunk[], vectors: Float32Array[]): void {
    // Copies of one work share an entry: only this document's own chunks are replaced.
    if (rawPath) this.deleteChunksOfRaw(rawPath);
    else this.deleteChunksOfEntry(entryId);
    this.insertChunks(entryId, rawPath, chunks, vectors);
  }

  /**
   * Bring an entry's own chunks (not a raw file's) up to date in place: `kept` rows stay with their
   * text, search terms and vector at a new position, `dropped` rows go, `added` chunks come in.
   */
  patchEntryChunks(entryId: string, patch: ChunkPatch): void {
    const move = this.stmt(`UPDATE chunks SET ord = ?, line = ?, tokens = ? WHERE id = ? AND entry_id = ?`);
    for (const k of patch.kept) move.run(k.ord, k.line, k.tokens, k.id, entryId);
    const dFts = this.stmt(`DELETE FROM chunks_fts WHERE rowid = ?`);
    const dVec = this.stmt(`DELETE FROM vec_chunks WHERE rowid = ?`);
    const dRow = this.stmt(`DELETE FROM chunks WHERE id = ?`);
    this.ftsDeleted += patch.dropped.length;
    for (const id of patch.dropped) {
      dFts.run(BigInt(id));
      dVec.run(BigInt(id));
      dRow.run(id);
    }
    this.insertChunks(entryId, null, patch.added, patch.vectors);
  }

  private insertChunks(entryId: string, rawPath: string | null, chunks: Chunk[], vectors: Float32Array[]): void {
    const ins = this.stmt(
      `INSERT INTO chunks (entry_id, raw_path, ord, heading, text, tokens, line) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    const fts = this.stmt(`INSERT INTO chunks_fts (rowid, body) VALUES (?, ?)`);
    const vec = this.stmt(`INSERT INTO vec_chunks (rowid, embedding) VALUES (?, ?)`);
    chunks.forEach((c, i) => {
      const heading = c.headings.join(' › ');
      const { lastInsertRowid } = ins.run(entryId, rawPath, c.ord, heading, c.text, c.tokens, c.line);
      const rowid = BigInt(lastInsertRowid);
      fts.run(rowid, c.fts ?? chunkFtsText(heading, c.text));
      const v = vectors[i];
      if (v) vec.run(rowid, v);
    });
  }

  private deleteChunksWhere(where: string, arg: string): void {
    const ids = this.stmt(`SELECT id FROM chunks WHERE ${where}`).all(arg) as { id: number }[];
    const dFts = this.stmt(`DELETE FROM chunks_fts WHERE rowid = ?`);
    const dVec = this.stmt(`DELETE FROM vec_chunks WHERE rowid = ?`);
    this.ftsDeleted += ids.length;
    for (const { id } of ids) {
      dFts.run(BigInt(id));
      dVec.run(BigInt(id));
    }
    this.stmt(`DELETE FROM chunks WHERE ${where}`).run(arg);
  }

  /** Whether a raw file (or post) has chunks stored. */
  hasChunksOfRaw(rawPath: string): boolean {
    return this.stmt(`SELECT 1 FROM chunks WHERE raw_path = ? LIMIT 1`).get(rawPath) !== undefined;
  }

  /** A raw file's chunks, kept as they are, under the entry it is compiled into now. */
  keepChunksOfRaw(rawPath: string, entryId: string): void {
    this.stmt(`UPDATE chunks SET entry_id = ? WHERE raw_path = ? AND entry_id != ?`).run(entryId, rawPath, entryId);
  }

  deleteChunksOfRaw(rawPath: string): void {
    this.deleteChunksWhere('raw_path = ?', rawPath);
  }

  private deleteChunksOfEntry(entryId: string): void {
    this.deleteChunksWhere('entry_id = ?', entryId);
  }

  chunksOfEntry(entryId: string): ChunkRow[] {
    return this.stmt(`SELECT * FROM chunks WHERE entry_id = ? ORDER BY raw_path, ord`).all(entryId) as ChunkRow[];
  }

  /** An entry's own chunks (not a raw file's) that have their vector, in order. */
  entryChunksWithVectors(entryId: string): ChunkRow[] {
    return this.stmt(
      `SELECT c.* FROM chunks c WHERE c.entry_id = ? AND c.raw_path IS NULL
         AND EXISTS (SELECT 1 FROM vec_chunks v WHERE v.rowid = c.id) ORDER BY c.ord`,
    ).all(entryId) as ChunkRow[];
  }

  /** Chunks that have no vector (after a fingerprint change), in batches. */
  chunksWithoutVectors(limit: number): ChunkRow[] {
    return this.stmt(
      `SELECT c.* FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM vec_chunks v WHERE v.rowid = c.id) LIMIT ?`,
    ).all(limit) as ChunkRow[];
  }

  putChunkVector(id: number, v: Float32Array): void {
    this.stmt(`DELETE FROM vec_chunks WHERE rowid = ?`).run(BigInt(id));
    this.stmt(`INSERT INTO vec_chunks (rowid, embedding) VALUES (?, ?)`).run(BigInt(id), v);
  }

  /** Whether some chunk or entry has no vector (after an embedder change, or a store that lost them). */
  vectorsMissing(): boolean {
    if (this.getMeta(VECTORS_STALE) === '1') return true;
    const one = (sql: string) => (this.stmt(sql).get() as { n: number }).n;
    return (
      one(`SELECT count(*) n FROM chunks`) !== one(`SELECT count(*) n FROM vec_chunks`) ||
      one(`SELECT count(*) n FROM entries`) !== one(`SELECT count(*) n FROM vec_entries`)
    );
  }

  entriesWithoutVectors(): EntryRow[] {
    return (
      this.stmt(
        `SELECT e.* FROM entries e WHERE NOT EXISTS (SELECT 1 FROM vec_entries v WHERE v.rowid = e.rowid)`,
      ).all() as RawEntryRow[]
    ).map(toEntry);
  }

  /** An entry's summary vector, if it has one. */
  entryVector(id: string): Float32Array | undefined {
    const rowid = this.entryRowid(id);
    if (rowid === undefined) return undefined;
    const r = this.stmt(`SELECT embedding FROM vec_entries WHERE rowid = ?`).get(BigInt(rowid)) as
      | { embedding: Buffer }
      | undefined;
    return r && vectorOf(r.embedding);
  }

  putEntryVector(id: string, v: Float32Array): void {
    const rowid = this.entryRowid(id);
    if (rowid === undefined) return;
    this.stmt(`DELETE FROM vec_entries WHERE rowid = ?`).run(BigInt(rowid));
    this.stmt(`INSERT INTO vec_entries (rowid, embedding) VALUES (?, ?)`).run(BigInt(rowid), v);
  }

  /**
   * The cache scanWiki uses to skip parsing entry files that did not change. `readOnly` for commands
   * that only read (status, lint): they use what compile recorded and record nothing.
   */
  scanCache(opts: { readOnly?: boolean } = {}): ScanCache {
    type Row = {
      path: string;
      mtime_ms: number;
      size: number;
      fm: string;
      body_hash: string;
      text_hash: string;
      links: string;
      own_links: string;
    };
    const rows = new Map<string, Row>();
    for (const r of this.stmt(`SELECT * FROM wiki_files`).all() as Row[]) rows.set(r.path, r);
    /** Rows put as untrusted this run: the mtime and size their file had (ScanCache.settle). */
    const untrusted = new Map<string, { mtimeMs: number; size: number }>();
    // The lists name the same few thousand entries and paths again and again (a concept page's
    // backlinks, sources and links, a source's entities and tags, at 10,000 documents ~900,000
    // strings): each is kept once (a scan of 10,000 entries: entities and tags too, 77 -> 53 MB).
    const intern = interner();
    const once = (xs: string[] | undefined) => {
      if (xs) for (let i = 0; i < xs.length; i++) xs[i] = intern(xs[i]!);
    };
    const put = this.stmt(`INSERT INTO wiki_files (path, mtime_ms, size, fm, body_hash, text_hash, links, own_links)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT(path) DO UPDATE SET mtime_ms = excluded.mtime_ms, size = excluded.size, fm = excluded.fm,
        body_hash = excluded.body_hash, text_hash = excluded.text_hash, links = excluded.links,
        own_links = excluded.own_links`);
    return {
      // A row is handed over once and then let go: a scan asks once a file, and the rows' text
      // (~40 MB at 10,000 entries) need not live beside the entries parsed from it.
      get: (path) => {
        const r = rows.get(path);
        rows.delete(path);
        if (!r) return undefined;
        const fm = JSON.parse(r.fm) as EntryFrontmatter;
        once(fm.backlinks);
        once(fm.source_ref);
        once(fm.entities);
        once(fm.tags);
        once(fm.aliases);
        const lists = linkLists(r.links, r.own_links);
        once(lists.links);
        if (lists.ownLinks !== lists.links) once(lists.ownLinks);
        return {
          mtimeMs: r.mtime_ms,
          size: r.size,
          fm,
          bodyHash: r.body_hash,
          textHash: r.text_hash || undefined,
          ...lists,
        };
      },
      put: (path, given) => {
        if (opts.readOnly) return;
        const row = typeof given.fm === 'string' ? (given as EncodedScanRow) : encodeScanRow(given as ScanRow);
        // A file modified within its mtime tick of now may change again without its mtime moving:
        // it is not trusted by mtime and size, the next scan reads it again (racyTick).
        const racy = row.mtimeMs >= Date.now() - racyTick(row.mtimeMs);
        put.run(path, racy ? -1 : row.mtimeMs, row.size, row.fm, row.bodyHash, row.textHash, row.links, row.ownLinks);
        if (racy) untrusted.set(path, { mtimeMs: row.mtimeMs, size: row.size });
        else untrusted.delete(path);
      },
      // A compile writes a few hundred entries in a tenth of a second: put as they are written,
      // nearly every row of a full compile was untrusted, and the next compile read and hashed
      // every entry again. Settled after the index is written, only the last few stay so.
      settle: (wikiDir, now = Date.now()) => {
        if (opts.readOnly || !untrusted.size) return;
        const trust = this.stmt(`UPDATE wiki_files SET mtime_ms = ? WHERE path = ? AND mtime_ms = -1 AND size = ?`);
        this.transaction(() => {
          for (const [path, r] of untrusted) {
            // Still within its tick: left for a later settle (or the next compile's scan).
            if (r.mtimeMs >= now - racyTick(r.mtimeMs)) continue;
            untrusted.delete(path);
            let st: { mtimeMs: number; size: number };
            try {
              st = statSync(join(wikiDir, path));
            } catch {
              continue;
            }
            if (st.mtimeMs === r.mtimeMs && st.size === r.size) trust.run(r.mtimeMs, path, r.size);
          }
        });
      },
    };
  }

  /** How many entries the store knows (cheap, unlike counts(), which also counts every vector). */
  entryCount(): number {
    return (this.stmt(`SELECT count(*) n FROM entries`).get() as { n: number }).n;
  }

  counts(): { documents: number; chunks: number; entries: number; links: number; vectors: number } {
    const one = (sql: string) => (this.stmt(sql).get() as { n: number }).n;
    return {
      documents: one(`SELECT count(*) n FROM documents`),
      chunks: one(`SELECT count(*) n FROM chunks`),
      entries: one(`SELECT count(*) n FROM entries`),
      links: one(`SELECT count(*) n FROM links`),
      vectors: one(`SELECT count(*) n FROM vec_chunks`),
    };
  }
}

/** What the full-text index holds for a chunk: its heading path and its text (as chunkSearchText). */
function chunkFtsText(heading: string, text: string): string {
  return searchText(`${heading}\n${text}`);
}

type RawEntryRow = Omit<EntryRow, 'aliases' | 'source_ref' | 'human_edited'> & {
  aliases: string;
  source_ref: string;
  human_edited: number;
};

function toEntry(r: RawEntryRow): EntryRow {
  return {
    id: r.id,
    kind: r.kind,
    title: r.title,
    path: r.path,
    aliases: JSON.parse(r.aliases) as string[],
    summary: r.summary,
    source_ref: JSON.parse(r.source_ref) as string[],
    content_hash: r.content_hash,
    human_edited: r.human_edited === 1,
    updated: r.updated,
  };
}

/** An entry's columns but its list of sources (read as none): what ranking an entry needs. */
const NO_SOURCES = `id, kind, title, path, aliases, summary, '[]' AS source_ref, content_hash, human_edited, updated`;

/** Document frequencies a store keeps between questions (Store.termStats). */
const TERM_STATS_KEPT = 50_000;

/** The most of the store file a search maps (Store.mapForSearch); SQLite maps no more than the file. */
const SEARCH_MMAP_BYTES = 2 ** 31;

function openDb(path: string): Database.Database {
  const db = new Database(path);
  sqliteVec.load(db);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  return db;
}

function storeVersion(db: Database.Database): string | undefined {
  const hasMeta = db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'meta'`).get();
  if (!hasMeta) return undefined;
  return (db.prepare(`SELECT value FROM meta WHERE key = 'store_version'`).get() as { value: string } | undefined)
    ?.value;
}

/** How long after a write its file's mtime may still not move on an edit, on a file system that keeps whole seconds (FAT keeps two). */
const COARSE_TICK_MS = 2000;
/** …and on one that keeps fractions of a second (ext4, APFS, NTFS: a tick of a few to 16 ms), with room to spare. */
const FINE_TICK_MS = 100;

/**
 * The window in which a file's recorded mtime cannot be trusted, judged by the mtime itself: one in
 * whole seconds comes from a coarse file system (or is one in a thousand of a fine one, judged
 * coarse to be safe). A full compile writes every page within seconds of recording them: with a
 * fine clock only the last tenth of a second is read again by the next compile, not all of them.
 */
export function racyTick(mtimeMs: number): number {
  return mtimeMs % 1000 === 0 ? COARSE_TICK_MS : FINE_TICK_MS;
}

/** A scan-cache row's link lists: `ownLinks` is `links` itself when the row says '='. */
function linkLists(links: string, own: string): { links?: string[]; ownLinks?: string[] } {
  if (!links) return {};
  const all = JSON.parse(links) as string[];
  if (!own) return { links: all };
  return { links: all, ownLinks: own === '=' ? all : (JSON.parse(own) as string[]) };
}
