import type { KbContext } from '../kb/context.js';
import type { EntryId } from '../types.js';
import type { LoadedEntry } from '../entry/wiki.js';
import { entityKey, makeEntryId } from '../entry/names.js';
import { isHeavy, readsText } from '../ingest/index.js';
import { preparePool } from './pool.js';
import { chunkPart, completeOffline, embedText, type Prepared, type PreparedPart } from './prepare.js';
import { checkAbort, contentOf, type Scanned, type ScanState } from './scan.js';
import { currentFor } from './model/current.js';
import type { Catalog, CompileOptions, SourceDraft } from './types.js';
import { workKeyOf } from './works.js';
import { translationMarks } from '../text/marks.js';
import { headingOutline, paragraphCounts } from '../text/outline.js';
import { withOwnMeta } from './own-meta.js';
import { summaryKey, summaryText } from '../index/entries.js';
import { sourceIndexFields } from '../emit/render-common.js';
import { LocalEmbedder } from '../embed/index.js';

const STORE_BATCH = 32;
const PREPARE_AHEAD = 48;

/** What the wiki holds before this run, as the ingest of changed documents needs it. */
export interface WikiState {
  catalog: Catalog;
  /** Raw path → the source entry built from it. */
  bySourceRef: Map<string, LoadedEntry>;
  /** Entry ids in use (new ones are added). */
  takenIds: Set<string>;
}

export interface Ingested {
  /** Raw path → the draft written this run. */
  drafts: Map<string, SourceDraft>;
  /** New raw path → the vanished path whose entry it keeps (same bytes). */
  renamedFrom: Map<string, string>;
  /** Every document ingested this run (a copy of a work the model already wrote has no draft). */
  touched: Set<string>;
}

/**
 * Ingest, chunk, embed and store each changed document, and write its source draft. Workers run
 * ahead of this loop by a bounded window; store updates go in batches of whole documents (each
 * document all in or all out, one commit per batch instead of per document).
 */
export async function ingestChanged(
  ctx: KbContext,
  opts: CompileOptions,
  st: ScanState,
  wiki: WikiState,
): Promise<Ingested> {
  const out: Ingested = { drafts: new Map(), renamedFrom: new Map(), touched: new Set() };
  // A work saved twice is written once: the model is not asked again for a copy of one it wrote.
  const written = modelWritten(st, Boolean(opts.force));
  // Renames: a new path whose bytes equal those of a vanished one keeps that one's entry.
  const vanishedByHash = new Map<string, string>();
  for (const p of st.deletedPaths) {
    const d = st.known.get(p);
    if (d?.entry_id && d.status === 'ok') vanishedByHash.set(d.hash, p);
  }
  const batch = storeBatch(ctx);
  const prepared = prepareAhead(ctx, st.changed, opts.signal, (s, d, t) =>
    opts.onProgress?.({ phase: 'pages', done: d, total: t, file: s.file.path }),
  );
  try {
    for (const [i, s] of st.changed.entries()) {
      if (opts.signal?.aborted) batch.flush();
      checkAbort(opts.signal);
      opts.onProgress?.({ phase: 'ingest', done: i, total: st.changed.length, file: s.file.path });
      let res: Prepared;
      try {
        res = await prepared.take(i);
      } catch (err) {
        // Interrupted while a thread worked: keep the documents already done, then stop.
        if (opts.signal?.aborted) batch.flush();
        throw err;
      }
      st.messages.push(...res.messages);
      if (!res.parts?.length) {
        storeSkipped(ctx, st, s, res);
        opts.onFile?.(`skip    raw/${s.file.path}`);
        continue;
      }
      const prev = st.known.get(s.file.path);
      const from = !prev ? vanishedByHash.get(s.hash) : undefined;
      if (from) {
        vanishedByHash.delete(s.hash);
        out.renamedFrom.set(s.file.path, from);
      }
      // One work per post of a multi-post file (ingest/posts.ts), each its own store row and entry.
      const prevRows = st.rows.get(s.file.path) ?? [];
      const keys = new Set<string>();
      let encoding: string | undefined;
      for (const part of res.parts) {
        const work = await ingestOne(ctx, opts, st, wiki, s, part, from, written);
        keys.add(part.doc.path);
        out.touched.add(part.doc.path);
        encoding = work.encoding;
        if (work.draft) out.drafts.set(part.doc.path, work.draft);
        batch.add(work.store);
      }
      // Posts that left the file, and the rows of the file's old name.
      const gone = prevRows.filter((r) => !keys.has(r.raw_path)).map((r) => r.raw_path);
      batch.add(() => {
        if (from) ctx.store.deleteFile(from);
        for (const k of gone) ctx.store.deleteDocument(k);
      });
      for (const k of gone) {
        if (k === s.file.path) continue;
        st.report.deleted++;
        opts.onFile?.(`delete  raw/${k}`);
      }
      const work = { encoding };
      if (from) st.report.renamed++;
      else if (prev && prev.status === 'ok') st.report.updated++;
      else st.report.new++;
      const how = `${from ? ` (from raw/${from})` : ''}${work.encoding ? ` (read as ${work.encoding}, guessed)` : ''}`;
      opts.onFile?.(`${from ? 'rename ' : prev ? 'update ' : 'new    '} raw/${s.file.path}${how}`);
    }
    batch.flush();
  } finally {
    await prepared.close();
  }
  return out;
}

/** One changed document: its entry id, its draft, its vectors, and the store update that records it. */
async function ingestOne(
  ctx: KbContext,
  opts: CompileOptions,
  st: ScanState,
  wiki: WikiState,
  s: Scanned,
  res: PreparedPart,
  from: string | undefined,
  written: Map<string, SourceDraft | null>,
): Promise<{ draft: SourceDraft | undefined; store: () => void; encoding: string | undefined }> {
  const { store } = ctx;
  const { file } = s;
  const { writer } = st;
  const doc = res.doc;
  const key: string = doc.path;
  // A renamed file's posts keep their entries: the same anchor under the old path.
  const oldKey = from ? from + key.slice(file.path.length) : undefined;
  const existing = wiki.bySourceRef.get(key) ?? (oldKey ? wiki.bySourceRef.get(oldKey) : undefined);
  const prevRow =
    (st.rows.get(file.path) ?? []).find((r) => r.raw_path === key) ??
    (from ? (st.rows.get(from) ?? []).find((r) => r.raw_path === oldKey) : undefined);
  let entryId = (existing?.fm.id ?? prevRow?.entry_id ?? undefined) as EntryId | undefined;
  if (!entryId) {
    entryId = makeEntryId('source', doc.title, (id) => wiki.takenIds.has(id));
    wiki.takenIds.add(entryId);
  }
  const work = workKeyOf(doc);
  const marks = readsText(doc) ? translationMarks(doc.markdown).join(' ') : '';
  const headings = readsText(doc) ? headingOutline(doc.markdown) : '';
  const paragraphs = readsText(doc) ? paragraphCounts(doc.markdown) : '';
  let draft: SourceDraft | undefined;
  if (writer.name.startsWith('offline')) draft = completeOffline(res);
  else {
    // A model writes the entry itself (and falls back to the whole offline draft on its own).
    const had = work ? written.get(work) : undefined;
    if (had !== undefined) draft = had ?? undefined;
    else {
      // The entry a model wrote for the last version is updated, not written again: only when the
      // source itself changed (a new compiler or template asks again from the source, as does --force).
      const current = currentFor(existing, file.path, s.hash, Boolean(opts.force));
      const w = await writer.writeSource(doc, wiki.catalog, opts.signal, current);
      st.messages.push(...w.messages);
      draft = w.draft;
      if (work) written.set(work, draft);
    }
  }
  if (draft && readsText(doc)) draft = withOwnMeta(draft, doc.meta, doc.markdown);
  // The same text compiled by another compiler: its chunks and vectors stay as the store holds them.
  const keep = s.keepChunks === true && !res.chunks && store.hasChunksOfRaw(key);
  const chunks = keep ? [] : (res.chunks ?? chunkPart(doc, ctx.config));
  // The entry's summary vector is made now, while the thread drafts the documents after this one
  // (index/entries.ts reads it when the entry is indexed): in the call that embeds the passages
  // when this thread embeds them, else on its own where embedding costs no request (the local embedder).
  const summary = draft && summaryText(sourceIndexFields(draft, existing?.fm.aliases));
  let summaryVector: Float32Array | undefined;
  let vectors: Float32Array[] = [];
  if (keep || chunks.length === 0 || (res.vectors && res.fingerprint === ctx.embedder.fingerprint)) {
    if (!keep && chunks.length) vectors = res.vectors!;
    if (summary && ctx.embedder instanceof LocalEmbedder)
      [summaryVector] = await ctx.embedder.embed([summary], opts.signal);
  } else {
    const texts = chunks.map((c) => embedText(doc.title, c.headings, c.text));
    vectors = await ctx.embedder.embed(summary ? [...texts, summary] : texts, opts.signal);
    if (summary) summaryVector = vectors.pop();
  }
  const entities = readsText(doc) ? entitiesFor(draft?.entities ?? res.offline.entities, res.offline.entities) : [];
  // The entities are stored as rows (doc_entity_rows) and planning reads them there: the draft kept for
  // the entry (in memory until emit, and as the pending draft a resumed run reads) leaves them out.
  const entry: SourceDraft | undefined = draft && { ...draft, entities: [] };
  const id = entryId;
  return {
    draft: entry,
    encoding: doc.encoding,
    store: () => {
      store.putDocument({
        raw_path: key,
        file: file.path,
        hash: s.hash,
        type: doc.type,
        title: doc.title,
        entry_id: id,
        size: file.size,
        mtime_ms: file.mtimeMs,
        lang: doc.lang,
        status: 'pending',
        error: null,
        compiled_at: now(),
        compiler: writer.name,
        work,
        marks,
        headings,
        paragraphs,
      });
      store.putEntities(key, entities);
      if (keep) store.keepChunksOfRaw(key, id);
      else store.putChunks(id, key, chunks, vectors);
      // Kept until this run writes the wiki: a run stopped before then resumes from it.
      if (entry) store.putPendingDraft(key, entry);
      if (summary && summaryVector)
        store.putPendingVector(summaryKey(ctx.embedder.fingerprint, summary), summaryVector);
    },
  };
}

/**
 * Works the model wrote already (null: in a file this run leaves alone, its entry stands), so that
 * a copy of one in another file is not sent again; nothing under --force.
 */
function modelWritten(st: ScanState, force: boolean): Map<string, SourceDraft | null> {
  const out = new Map<string, SourceDraft | null>();
  if (force || st.writer.name.startsWith('offline')) return out;
  const busy = new Set([...st.changed.map((s) => s.file.path as string), ...st.deletedPaths]);
  for (const [file, rows] of st.rows) {
    if (busy.has(file)) continue;
    for (const r of rows) if (r.work && r.status === 'ok' && r.compiler === st.writer.name) out.set(r.work, null);
  }
  return out;
}

/** A document ingest found nothing in: recorded as skipped, with the first reason. */
function storeSkipped(ctx: KbContext, st: ScanState, s: Scanned, res: Prepared): void {
  const { store } = ctx;
  const { file } = s;
  const first = res.messages[0];
  const rows = st.rows.get(file.path) ?? [];
  store.transaction(() => {
    store.deleteFile(file.path);
    store.putDocument({
      raw_path: file.path,
      hash: s.hash,
      type: 'unknown',
      title: file.path,
      entry_id: rows.length === 1 ? (st.known.get(file.path)?.entry_id ?? null) : null,
      size: file.size,
      mtime_ms: file.mtimeMs,
      lang: 'en',
      status: 'skipped',
      error: first ? `${first.ruleId}\t${first.reason}` : null,
      compiled_at: now(),
      compiler: st.writer.name,
    });
  });
  st.report.skipped++;
}

/** Store updates of whole documents, committed STORE_BATCH at a time. */
function storeBatch(ctx: KbContext): { add(work: () => void): void; flush(): void } {
  let batch: (() => void)[] = [];
  const flush = () => {
    if (!batch.length) return;
    const work = batch;
    batch = [];
    ctx.store.transaction(() => {
      for (const w of work) w();
    });
  };
  return {
    flush,
    add: (work) => {
      batch.push(work);
      if (batch.length >= STORE_BATCH) flush();
    },
  };
}

/**
 * The prepare pool, run ahead of the loop by a bounded window so results do not pile up in memory.
 * A result taken is released (undefined), never replaced by an empty one that would read as "nothing in it".
 * Progress inside a long document (PDF pages) is reported while the loop waits for that document.
 */
function prepareAhead(
  ctx: KbContext,
  changed: Scanned[],
  signal: AbortSignal | undefined,
  onPages: (s: Scanned, done: number, total: number) => void,
): { take(i: number): Promise<Prepared>; close(): Promise<void> } {
  const cfg = { ...ctx.config, ingestCache: ctx.paths.ingestCache };
  const poolOpts = {
    bytes: changed.reduce((n, s) => n + s.file.size, 0),
    heavy: changed.some((s) => isHeavy(s.file.path)),
    ...(signal ? { signal } : {}),
  };
  const pool = preparePool(changed.length, cfg, ctx.embedder, poolOpts);
  let waitingFor = -1;
  const prepared: (Promise<Prepared> | undefined)[] = [];
  // Works prepared and not yet taken: when half the window waits, this thread is the slower one
  // (storing, and chunking and embedding the short works the thread leaves it), and the thread is
  // asked to prepare the next works whole until it is the slower one again.
  let ready = 0;
  const submit = (upTo: number) => {
    for (let j = prepared.length; j < Math.min(upTo, changed.length); j++) {
      const s = changed[j]!;
      const p = pool.run(s.file, contentOf(s), s.hash, {
        onProgress: (d, t) => {
          if (waitingFor === j) onPages(s, d, t);
        },
        chunks: !s.keepChunks,
        leave: ready < PREPARE_AHEAD / 2,
      });
      const settled = () => {
        ready++;
      };
      p.then(settled, settled);
      prepared.push(p);
      delete s.bytes; // the worker has its copy
    }
  };
  submit(PREPARE_AHEAD);
  return {
    take: (i) => {
      submit(i + PREPARE_AHEAD);
      const job = prepared[i];
      if (!job) throw new Error(`internal: raw/${changed[i]?.file.path} prepared twice`);
      prepared[i] = undefined;
      waitingFor = i;
      return job.finally(() => {
        ready--;
      });
    },
    close: () => pool.close(),
  };
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}

/** The offline extractor's entities (counts, snippets), with the names a model gave merged in: the rows compile stores (and `--estimate` predicts). */
export function entitiesFor(named: SourceDraft['entities'], offline: SourceDraft['entities']) {
  const byKey = new Map<string, EntityRowInput>();
  if (named === offline) {
    for (const n of offline) byKey.set(entityKey(n.name), entityRowOf(entityKey(n.name), n));
    return [...byKey.values()];
  }
  // A model wrote the entry: the concepts are the ones it names (what the work is substantially
  // about, spelt as it spells them: `named`); the offline reading adds its mentions, stress and
  // other names to those only, never names of its own (its everyday words stay, as weak mentions).
  const seen = new Map(offline.map((n) => [entityKey(n.name), n]));
  for (const n of named) {
    const key = entityKey(n.name);
    const off = seen.get(key);
    const r = entityRowOf(key, { ...n, salient: off?.salient ?? false, named: true });
    if (off) {
      r.aliases = [...new Set([...n.aliases, ...off.aliases])];
      r.count = Math.max(r.count, off.count ?? 1);
      if (!r.snippets.length) r.snippets = off.snippets ?? [];
      if (off.subject) r.subject = true;
      if (off.sections) r.sections = off.sections.join(' ');
      if (off.places) r.places = off.places.join(' ');
    }
    const had = byKey.get(key);
    if (had) had.aliases = [...new Set([...had.aliases, ...r.aliases])];
    else byKey.set(key, r);
  }
  // Its everyday words stay mentions, as offline: they join a concept named otherwise, never make one.
  for (const n of offline)
    if (n.weak && !byKey.has(entityKey(n.name))) byKey.set(entityKey(n.name), entityRowOf(entityKey(n.name), n));
  return [...byKey.values()];
}

/** The store row of one entity a writer drafted (without its document's path). */
export function entityRowOf(key: string, n: SourceDraft['entities'][number]): EntityRowInput {
  return {
    key,
    surface: n.name,
    aliases: n.aliases,
    count: n.count ?? 1,
    snippets: n.snippets ?? [],
    salient: n.salient ?? false,
    ...(n.subject ? { subject: true } : {}),
    ...(n.named ? { named: true } : {}),
    ...(n.weak ? { weak: true } : {}),
    ...(n.sections ? { sections: n.sections.join(' ') } : {}),
    ...(n.places ? { places: n.places.join(' ') } : {}),
  };
}

export interface EntityRowInput {
  key: string;
  surface: string;
  aliases: string[];
  count: number;
  snippets: string[];
  salient: boolean;
  subject?: boolean;
  named?: boolean;
  weak?: boolean;
  sections?: string;
  places?: string;
}
