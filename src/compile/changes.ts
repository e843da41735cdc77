import type { KbContext } from '../kb/context.js';
import { INGEST_VERSION, readsText } from '../ingest/index.js';
import { embedText } from './prepare.js';
import type { CompileOptions, CompileReport, SourceDraft } from './types.js';
import { scanWiki, type LoadedEntry, type ScanCache, type WikiScan } from '../entry/wiki.js';
import { emitWiki, type SourcePlan } from '../emit/emit.js';
import { letSentencesGo, planDrafts } from './plan-drafts.js';
import { writeDrafts } from './drafts.js';
import { dropDamagedEntries } from './damaged.js';
import { currentEntry, currentOnRerender } from './model/current.js';
import { ingestChanged, type Ingested, type WikiState } from './ingest-changed.js';
import { buildCatalog } from './model/plan.js';
import { heedSignals, type ScanState } from './scan.js';
import { rereadDocument } from './reread.js';
import { unifyWorks } from './works.js';
import { withOwnMeta } from './own-meta.js';

export type { ScanState } from './scan.js';

/** The part of `kb compile` that runs when something changed: ingest, store, plan and emit. */
export async function compileChanges(ctx: KbContext, opts: CompileOptions, st: ScanState): Promise<CompileReport> {
  const { store, paths } = ctx;
  store.setMeta('compile_pending', '1');
  // A new store is of this ingest from its first document: a run stopped before its end leaves
  // rows a resume keeps, not rows of an older ingest to read again.
  if (store.getMeta('ingest_version') === undefined && st.known.size === 0)
    store.setMeta('ingest_version', INGEST_VERSION);
  const scanCache = store.scanCache();
  const scanned = store.transaction(() => scanWiki(paths.wiki, scanCache));
  // Entries kb wrote whose frontmatter broke are written again (not beside them under another name).
  const damaged = dropDamagedEntries(paths.wiki, scanned, (id) => store.getEntry(id));
  st.messages.push(...damaged.messages);
  const scan = damaged.scan;
  const bySourceRef = new Map<string, LoadedEntry>();
  for (const e of scan.entries)
    if (e.fm.kind === 'source') for (const r of e.fm.source_ref ?? []) bySourceRef.set(r.replace(/^raw\//, ''), e);
  const takenIds = new Set<string>([...scan.entries.map((e) => e.fm.id), ...store.entryIdsOfDocuments()]);
  const wiki: WikiState = { catalog: opts.catalog ?? buildCatalog(scan.entries), bySourceRef, takenIds };

  // 2. Ingest, chunk, embed and store each changed document (one transaction each).
  const ingested = await ingestChanged(ctx, opts, st, wiki);
  // What an interrupted run stored counts as ingested by this one (its copies of a work are unified below).
  // Their drafts too: their entries are written from what that run drafted, not drafted again.
  for (const f of st.resumed ?? [])
    for (const r of st.rows.get(f) ?? []) {
      ingested.touched.add(r.raw_path);
      const draft = ingested.drafts.has(r.raw_path) ? undefined : store.pendingDraft<SourceDraft>(r.raw_path);
      if (draft) ingested.drafts.set(r.raw_path, draft);
    }
  for (const p of st.deletedPaths) {
    if ([...ingested.renamedFrom.values()].includes(p)) continue;
    store.transaction(() => store.deleteFile(p));
    st.report.deleted++;
    opts.onFile?.(`delete  raw/${p}`);
  }
  // Copies of one work (a post in two feed exports) share one source entry.
  const moved = unifyWorks(store.allDocuments(), ingested.touched, wiki.takenIds);
  store.transaction(() => {
    for (const [p, id] of moved) store.setDocumentEntry(p, id);
  });
  await heedSignals(opts.signal);

  // 3. Plan every entry from the store (sources) and the concept groups, draft what changes, then emit.
  await planAndEmit(ctx, opts, st, { scan, scanCache, wiki, ingested });

  store.transaction(() => {
    store.settlePending();
    store.clearPendingDrafts();
    store.setMeta('compile_pending', '0');
    store.setMeta('ingest_version', INGEST_VERSION);
    store.setMeta('last_compile', String(Math.floor(Date.now() / 1000)));
  });
  store.tidySearchIndex();
  st.report.elapsedMs = performance.now() - st.t0;
  return st.report;
}

/** Source and concept plans from the store, their names and renders, the drafts, then emit. */
async function planAndEmit(
  ctx: KbContext,
  opts: CompileOptions,
  st: ScanState,
  run: { scan: WikiScan; scanCache: ScanCache; wiki: WikiState; ingested: Ingested },
): Promise<void> {
  const { store } = ctx;
  const { scan } = run;
  const { drafts } = run.ingested;
  const allDocs = store.allDocuments().filter((d) => d.status === 'ok' || d.status === 'pending');
  const force = Boolean(opts.force);
  const { sources, concepts, names, renders, links, renderKeys } = planFromStore(ctx, {
    scan,
    docs: allDocs,
    drafts,
    takenIds: run.wiki.takenIds,
    writer: st.writer.name,
    force,
  });
  await heedSignals(opts.signal);
  const docOf = new Map(allDocs.map((d) => [d.raw_path, d]));
  const rawAbs = (p: string) => st.rawFiles.get(p)?.absPath ?? `${ctx.paths.raw}/${p}`;
  // Unchanged documents are re-rendered only if their links change; their text is re-ingested then.
  const reload = async (p: SourcePlan) => {
    const d = docOf.get(p.rawPath)!;
    const doc = await rereadDocument(ctx, d, rawAbs);
    if (!doc) return undefined;
    const current = currentOnRerender(run.wiki.bySourceRef.get(d.raw_path), force);
    const { draft } = await st.writer.writeSource(doc, run.wiki.catalog, opts.signal, current);
    // What the person wrote in the note (its links, aliases, tags, date) as when it was ingested.
    return draft && readsText(doc) ? withOwnMeta(draft, doc.meta, doc.markdown) : draft;
  };
  const plan = { sources, concepts, scan, force };
  const byId = new Map(scan.entries.map((e) => [e.fm.id as string, e]));
  const written = await writeDrafts({
    sources,
    concepts,
    names,
    renders,
    writer: st.writer,
    reload,
    currentOf: force ? undefined : (id) => currentEntry(byId.get(id)),
    known: run.wiki.catalog,
    signal: opts.signal,
    onProgress: opts.onProgress,
  });
  st.messages.push(...written.messages);
  await heedSignals(opts.signal);
  // Drafted: nothing after reads a mention's sentences.
  letSentencesGo(concepts);
  const emitted = await emitWiki(ctx, {
    ...plan,
    scanCache: run.scanCache,
    names,
    renders,
    drafts: written.drafts,
    autolink: st.writer.name.startsWith('offline'),
    links,
    renderKeys,
    rawAbs,
    beforeWrite: () => heedSignals(opts.signal),
    onIndex: () => opts.onProgress?.({ phase: 'index', done: 0, total: 1 }),
    onFile: opts.onFile,
  });
  st.messages.push(...emitted.messages);
  st.report.protected = emitted.protected;
  st.report.written = emitted.written;
  st.report.concepts = emitted.concepts;
}

/**
 * planDrafts on every entity row the store holds. The rows (hundreds of thousands in a large
 * knowledge base) are read here and dropped on return: nothing after planning needs them, and the
 * wiki is written and indexed without them in memory.
 */
function planFromStore(ctx: KbContext, input: Omit<Parameters<typeof planDrafts>[1], 'entities'>) {
  return planDrafts(ctx, { ...input, entities: ctx.store.allEntities() });
}

export { embedText };
