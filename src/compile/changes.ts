import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { KbContext } from '../kb/context.js';
import type { KbMessage } from '../diagnostics/message.js';
import type { ContentHash, EntryId } from '../types.js';
import { ingestFile, INGEST_VERSION, isHeavy, readsText, type RawFile } from '../ingest/index.js';
import { preparePool } from './pool.js';
import { embedText, type Prepared } from './prepare.js';
import { entityKey } from '../entry/names.js';
import type { CompileOptions, CompileReport, EntryWriter, SourceDraft } from './types.js';
import { scanWiki, type LoadedEntry } from '../entry/wiki.js';
import { makeEntryId } from '../entry/names.js';
import { emitWiki, planNames, planRenders, type SourcePlan } from '../emit/emit.js';
import { groupConcepts, withConceptIds } from './concepts.js';
import { writeDrafts } from './drafts.js';
import { buildCatalog } from './model/plan.js';
import type { DocumentRow } from '../store/store.js';
import { checkAbort, contentOf, type Scanned } from './scan.js';

const STORE_BATCH = 32;
const PREPARE_AHEAD = 48;

export interface ScanState {
  t0: number;
  writer: EntryWriter;
  messages: KbMessage[];
  report: CompileReport;
  known: Map<string, DocumentRow>;
  changed: Scanned[];
  deletedPaths: string[];
  /** Every file in raw/ by key: the key is NFC, the file on disk may be spelled otherwise. */
  rawFiles: Map<string, RawFile>;
}

/** The part of `kb compile` that runs when something changed: ingest, store, plan and emit. */
export async function compileChanges(ctx: KbContext, opts: CompileOptions, st: ScanState): Promise<CompileReport> {
  const { t0, writer, messages, report, known, changed, deletedPaths, rawFiles } = st;
  const rawAbs = (p: string) => rawFiles.get(p)?.absPath ?? `${paths.raw}/${p}`;
  const { store, config, paths } = ctx;
  let done = 0;
  store.setMeta('compile_pending', '1');
  const scanCache = store.scanCache();
  const scan = store.transaction(() => scanWiki(paths.wiki, scanCache));
  const catalog = buildCatalog(scan.entries);
  const bySourceRef = new Map<string, LoadedEntry>();
  for (const e of scan.entries) if (e.fm.kind === 'source') for (const r of e.fm.source_ref ?? []) bySourceRef.set(r.replace(/^raw\//, ''), e);
  const takenIds = new Set<string>([...scan.entries.map((e) => e.fm.id), ...store.allDocuments().map((d) => d.entry_id ?? '')]);

  // Renames: a new path whose bytes equal those of a vanished one keeps that one's entry.
  const vanishedByHash = new Map<string, string>();
  for (const p of deletedPaths) {
    const d = known.get(p);
    if (d?.entry_id && d.status === 'ok') vanishedByHash.set(d.hash, p);
  }
  const renamedFrom = new Map<string, string>();

  // 2. Ingest, chunk, embed and store each changed document (one transaction each).
  const drafts = new Map<string, Awaited<ReturnType<EntryWriter['writeSource']>>['draft']>();
  done = 0;
  // Store updates go in batches of whole documents: each document is all in or all out, and one
  // commit per batch instead of per document saves most of the write time on large compiles.
  let batch: (() => void)[] = [];
  const flush = () => {
    if (!batch.length) return;
    const work = batch;
    batch = [];
    store.transaction(() => work.forEach((w) => w()));
  };
  const ingestCache = join(paths.state, 'ingest');
  const poolOpts = {
    bytes: changed.reduce((n, s) => n + s.file.size, 0),
    heavy: changed.some((s) => isHeavy(s.file.path)),
    ...(opts.signal ? { signal: opts.signal } : {}),
  };
  const pool = preparePool(changed.length, { ...config, ingestCache }, ctx.embedder, poolOpts);
  // Progress inside a long document (PDF pages) is shown while the loop waits for that document.
  let waitingFor = -1;
  // Workers run ahead of the main thread by a bounded window, so results do not pile up in memory.
  // A result taken is released (undefined), never replaced by an empty one that would read as "nothing in it".
  const prepared: (Promise<Prepared> | undefined)[] = [];
  const submit = (upTo: number) => {
    for (let j = prepared.length; j < Math.min(upTo, changed.length); j++) {
      const s = changed[j]!;
      const p = pool.run(s.file, contentOf(s), s.hash, (d, t) => {
        if (waitingFor === j) opts.onProgress?.({ phase: 'pages', done: d, total: t, file: s.file.path });
      });
      p.catch(() => {});
      prepared.push(p);
      delete s.bytes; // the worker has its copy
    }
  };
  submit(PREPARE_AHEAD);
  try {
    for (const [i, s] of changed.entries()) {
      if (opts.signal?.aborted) flush();
      checkAbort(opts.signal);
      const { file } = s;
      opts.onProgress?.({ phase: 'ingest', done: done++, total: changed.length, file: file.path });
      submit(i + PREPARE_AHEAD);
      const job = prepared[i];
      if (!job) throw new Error(`internal: raw/${file.path} prepared twice`);
      prepared[i] = undefined;
      waitingFor = i;
      let res: Prepared;
      try {
        res = await job;
      } catch (err) {
        // Interrupted while a thread worked: keep the documents already done, then stop.
        if (opts.signal?.aborted) flush();
        throw err;
      }
      messages.push(...res.messages);
      const prev = known.get(file.path);
      if (!res.doc) {
        const first = res.messages[0];
        store.transaction(() => {
          store.deleteChunksOfRaw(file.path);
          store.putEntities(file.path, []);
          store.putDocument({
            raw_path: file.path, hash: s.hash, type: 'unknown', title: file.path, entry_id: prev?.entry_id ?? null,
            size: file.size, mtime_ms: file.mtimeMs, lang: 'en', status: 'skipped', error: first ? `${first.ruleId}\t${first.reason}` : null,
            compiled_at: now(), compiler: writer.name,
          });
        });
        report.skipped++;
        opts.onFile?.(`skip    raw/${file.path}`);
        continue;
      }
      const doc = res.doc;
      const from = !prev ? vanishedByHash.get(s.hash) : undefined;
      if (from) {
        vanishedByHash.delete(s.hash);
        renamedFrom.set(file.path, from);
      }
      const existing = bySourceRef.get(file.path) ?? (from ? bySourceRef.get(from) : undefined);
      let entryId = (existing?.fm.id ?? prev?.entry_id ?? (from ? known.get(from)?.entry_id : undefined)) as EntryId | undefined;
      if (!entryId) {
        entryId = makeEntryId('source', doc.title, (id) => takenIds.has(id));
        takenIds.add(entryId);
      }
      let draft = res.offline!;
      if (!writer.name.startsWith('offline')) {
        const written = await writer.writeSource(doc, catalog, opts.signal);
        messages.push(...written.messages);
        draft = written.draft;
      }
      drafts.set(file.path, draft);
      const chunks = res.chunks ?? [];
      const vectors =
        res.vectors && res.fingerprint === ctx.embedder.fingerprint
          ? res.vectors
          : chunks.length ? await ctx.embedder.embed(chunks.map((c) => embedText(doc.title, c.headings, c.text)), opts.signal) : [];
      const entities = readsText(doc) ? entitiesFor(draft.entities, res.offline!.entities) : [];
      const id = entryId;
      batch.push(() => {
        if (from) store.deleteDocument(from);
        store.putDocument({
          raw_path: file.path, hash: s.hash, type: doc.type, title: doc.title, entry_id: id,
          size: file.size, mtime_ms: file.mtimeMs, lang: doc.lang, status: 'pending', error: null, compiled_at: now(), compiler: writer.name,
        });
        store.putEntities(file.path, entities);
        store.putChunks(id, file.path, chunks, vectors);
      });
      if (batch.length >= STORE_BATCH) flush();
      if (from) report.renamed++;
      else if (prev && prev.status === 'ok') report.updated++;
      else report.new++;
      opts.onFile?.(`${from ? 'rename ' : prev ? 'update ' : 'new    '} raw/${file.path}${from ? ` (from raw/${from})` : ''}${doc.encoding ? ` (read as ${doc.encoding}, guessed)` : ''}`);
    }
    flush();
  } finally {
    await pool.close();
  }
  for (const p of deletedPaths) {
    if ([...renamedFrom.values()].includes(p)) continue;
    store.transaction(() => store.deleteDocument(p));
    report.deleted++;
    opts.onFile?.(`delete  raw/${p}`);
  }
  checkAbort(opts.signal);

  // 3. Plan every entry from the store (sources) and the concept groups, draft what changes, then emit.
  const allDocs = store.allDocuments().filter((d) => d.status === 'ok' || d.status === 'pending');
  const entities = store.allEntities();
  const planned = groupConcepts(entities, allDocs, config.compile.minConceptSources, config.compile.maxConcepts, scan.entries);
  const concepts = withConceptIds(planned, scan.entries, takenIds);
  const sources: SourcePlan[] = allDocs.map((d) => {
    const draft = drafts.get(d.raw_path);
    return { id: d.entry_id as EntryId, title: draft?.title ?? d.title, rawPath: d.raw_path, rawHash: d.hash, draft, changed: drafts.has(d.raw_path) || Boolean(opts.force) };
  });
  const docOf = new Map(allDocs.map((d) => [d.raw_path, d]));
  // Unchanged documents are re-rendered only if their links change; their text is re-ingested then.
  const reload = async (p: SourcePlan) => {
    const d = docOf.get(p.rawPath)!;
    const f: RawFile = { path: d.raw_path as RawFile['path'], absPath: rawAbs(d.raw_path), size: d.size, mtimeMs: 0 };
    const bytes = readFileSync(f.absPath);
    const r = await ingestFile({ ...f, size: statSync(f.absPath).size }, bytes, d.hash as ContentHash, { ...config.ingest, cacheDir: ingestCache });
    return r.doc ? (await writer.writeSource(r.doc, catalog, opts.signal)).draft : undefined;
  };
  const plan = { sources, concepts, scan, entities, force: Boolean(opts.force) };
  const names = planNames({ ...plan, attachments: store.attachmentPaths() });
  const renders = planRenders(plan, names);
  const written = await writeDrafts({ sources, concepts, names, renders, writer, reload, signal: opts.signal, onProgress: opts.onProgress });
  messages.push(...written.messages);
  const emitted = await emitWiki(ctx, {
    ...plan,
    scanCache,
    names,
    renders,
    drafts: written.drafts,
    autolink: writer.name.startsWith('offline'),
    rawAbs,
    onIndex: () => opts.onProgress?.({ phase: 'index', done: 0, total: 1 }),
    onFile: opts.onFile,
  });
  messages.push(...emitted.messages);
  report.protected = emitted.protected;
  report.written = emitted.written;
  report.concepts = emitted.concepts;

  store.transaction(() => {
    for (const d of store.allDocuments()) if (d.status === 'pending') store.putDocument({ ...d, status: 'ok' });
    store.setMeta('compile_pending', '0');
    store.setMeta('ingest_version', INGEST_VERSION);
    store.setMeta('last_compile', String(now()));
  });
  report.elapsedMs = performance.now() - t0;
  return report;
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}

export { embedText };

/** The offline extractor's entities (counts, snippets), with the names a model gave merged in. */
function entitiesFor(named: SourceDraft['entities'], offline: SourceDraft['entities']) {
  const byKey = new Map<string, EntityRowInput>();
  for (const n of offline) byKey.set(entityKey(n.name), { key: entityKey(n.name), surface: n.name, aliases: n.aliases, count: n.count ?? 1, snippets: n.snippets ?? [] });
  if (named !== offline) {
    for (const n of named) {
      const key = entityKey(n.name);
      const had = byKey.get(key);
      if (had) had.aliases = [...new Set([...had.aliases, ...n.aliases])];
      else byKey.set(key, { key, surface: n.name, aliases: n.aliases, count: n.count ?? 1, snippets: n.snippets ?? [] });
    }
  }
  return [...byKey.values()];
}

interface EntityRowInput {
  key: string;
  surface: string;
  aliases: string[];
  count: number;
  snippets: string[];
}


