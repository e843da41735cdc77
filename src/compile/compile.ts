import { readFileSync, statSync } from 'node:fs';
import type { KbContext } from '../kb/context.js';
import type { KbMessage } from '../diagnostics/message.js';
import { message } from '../diagnostics/message.js';
import { InterruptedError } from '../diagnostics/errors.js';
import type { ContentHash, EntryFrontmatter, EntryId, RawDocument } from '../types.js';
import { sha256 } from '../util/hash.js';
import { walkRaw, ingestFile, type RawFile } from '../ingest/index.js';
import { chunkMarkdown } from '../chunk/index.js';
import { extractEntities, entityKey } from './offline/entities.js';
import { OfflineWriter } from './offline/writer.js';
import type { CompileReport, EntryWriter, ProgressEvent, SourceDraft } from './types.js';
import { scanWiki, type LoadedEntry } from '../emit/wiki.js';
import { makeEntryId } from '../entry/names.js';
import { emitWiki, type PlannedEntry } from '../emit/emit.js';
import { groupConcepts } from './concepts.js';
import { buildCatalog } from './model/plan.js';

export interface CompileOptions {
  force?: boolean;
  writer?: EntryWriter;
  signal?: AbortSignal;
  onProgress?: (e: ProgressEvent) => void;
  /** Per-file lines for --verbose. */
  onFile?: (line: string) => void;
}

interface Scanned {
  file: RawFile;
  hash: ContentHash;
  bytes: Buffer | null;
}

function checkAbort(signal?: AbortSignal): void {
  if (signal?.aborted) throw new InterruptedError('Compile interrupted; run `kb compile` again to finish (work done so far is kept).');
}

/**
 * `kb compile`: bring wiki/ and the store up to date with raw/.
 * Unchanged files are skipped by content hash; each document's store update is one transaction;
 * entry files are written whole; a `compile_pending` mark makes an interrupted run finish the job.
 */
export async function compile(ctx: KbContext, opts: CompileOptions = {}): Promise<CompileReport> {
  const t0 = performance.now();
  const { store, config, paths } = ctx;
  const writer = opts.writer ?? new OfflineWriter();
  const messages: KbMessage[] = [];
  const report: CompileReport = {
    new: 0, updated: 0, unchanged: 0, deleted: 0, renamed: 0, skipped: 0, failed: 0,
    concepts: { created: 0, updated: 0, deleted: 0 },
    protected: [], written: 0, messages, elapsedMs: 0, compiler: writer.name,
  };

  // 1. What is in raw/ now, and what changed since the last compile.
  const walk = walkRaw(paths.raw, { ignore: config.ingest.ignore });
  messages.push(...walk.messages);
  const known = new Map(store.allDocuments().map((d) => [d.raw_path, d]));
  const pendingBefore = store.getMeta('compile_pending') === '1';
  const changed: Scanned[] = [];
  const seen = new Set<string>();
  let done = 0;
  for (const file of walk.files) {
    checkAbort(opts.signal);
    seen.add(file.path);
    let bytes: Buffer | null = null;
    let hash: ContentHash;
    if (file.size > config.ingest.maxFileBytes) {
      hash = sha256(`too-large:${file.size}:${file.mtimeMs}`);
    } else {
      try {
        bytes = readFileSync(file.absPath);
      } catch (err) {
        messages.push(message(`raw/${file.path}`, 'ingest-unreadable', `Cannot read file: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`));
        report.failed++;
        continue;
      }
      hash = sha256(bytes);
    }
    const prev = known.get(file.path);
    const same = prev && prev.hash === hash && prev.compiler === writer.name && prev.status !== 'pending';
    if (same && !opts.force) {
      if (prev.status === 'ok') report.unchanged++;
      else {
        report.skipped++;
        if (prev.error) messages.push(message(`raw/${file.path}`, prev.error.split('\t')[0] ?? 'ingest', prev.error.split('\t')[1] ?? prev.error));
      }
    } else changed.push({ file, hash, bytes });
    opts.onProgress?.({ phase: 'scan', done: ++done, total: walk.files.length, file: file.path });
  }
  const deletedPaths = [...known.keys()].filter((p) => !seen.has(p));

  if (changed.length === 0 && deletedPaths.length === 0 && !pendingBefore && !opts.force) {
    report.elapsedMs = performance.now() - t0;
    return report;
  }

  store.setMeta('compile_pending', '1');
  const scan = scanWiki(paths.wiki);
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
  const docs = new Map<string, RawDocument>();
  const drafts = new Map<string, Awaited<ReturnType<EntryWriter['writeSource']>>['draft']>();
  done = 0;
  for (const s of changed) {
    checkAbort(opts.signal);
    const { file } = s;
    opts.onProgress?.({ phase: 'ingest', done: done++, total: changed.length, file: file.path });
    const res = await ingestFile(file, s.bytes ?? Buffer.alloc(0), s.hash, { maxFileBytes: config.ingest.maxFileBytes });
    messages.push(...res.messages);
    const prev = known.get(file.path);
    if (!res.doc) {
      const first = res.messages[0];
      store.transaction(() => {
        store.deleteChunksOfRaw(file.path);
        store.putEntities(file.path, []);
        store.putDocument({
          raw_path: file.path, hash: s.hash, type: 'unknown', title: file.path, entry_id: prev?.entry_id ?? null,
          size: file.size, lang: 'en', status: 'skipped', error: first ? `${first.ruleId}\t${first.reason}` : null,
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
    const { draft, messages: wm } = await writer.writeSource(doc, catalog, opts.signal);
    messages.push(...wm);
    drafts.set(file.path, draft);
    docs.set(file.path, doc);
    const chunks = chunkMarkdown(doc.markdown, config.chunk);
    const vectors = chunks.length ? await ctx.embedder.embed(chunks.map((c) => embedText(doc.title, c.headings, c.text)), opts.signal) : [];
    const entities = doc.type === 'attachment' || doc.type === 'url' ? [] : entitiesFor(doc, draft.entities);
    store.transaction(() => {
      if (from) store.deleteDocument(from);
      store.putDocument({
        raw_path: file.path, hash: s.hash, type: doc.type, title: doc.title, entry_id: entryId,
        size: file.size, lang: doc.lang, status: 'pending', error: null, compiled_at: now(), compiler: writer.name,
      });
      store.putEntities(file.path, entities);
      store.putChunks(entryId, file.path, chunks, vectors);
    });
    if (from) report.renamed++;
    else if (prev && prev.status === 'ok') report.updated++;
    else report.new++;
    opts.onFile?.(`${from ? 'rename ' : prev ? 'update ' : 'new    '} raw/${file.path}${from ? ` (from raw/${from})` : ''}`);
  }
  for (const p of deletedPaths) {
    if ([...renamedFrom.values()].includes(p)) continue;
    store.transaction(() => store.deleteDocument(p));
    report.deleted++;
    opts.onFile?.(`delete  raw/${p}`);
  }
  checkAbort(opts.signal);

  // 3. Plan every entry from the store (sources) and the concept groups, then emit.
  const allDocs = store.allDocuments().filter((d) => d.status === 'ok' || d.status === 'pending');
  const groups = groupConcepts(store.allEntities(), allDocs, config.compile.minConceptSources, config.compile.maxConcepts, scan.entries);
  const planned: PlannedEntry[] = [];
  for (const d of allDocs) {
    const draft = drafts.get(d.raw_path);
    planned.push({
      kind: 'source',
      id: d.entry_id as EntryId,
      title: draft?.title ?? d.title,
      rawPath: d.raw_path,
      rawHash: d.hash,
      draft,
      // Unchanged documents are re-rendered only if their links change; their text is re-ingested then.
      reload: draft ? undefined : async () => {
        const f: RawFile = { path: d.raw_path as RawFile['path'], absPath: `${paths.raw}/${d.raw_path}`, size: d.size, mtimeMs: 0 };
        const bytes = readFileSync(f.absPath);
        const r = await ingestFile({ ...f, size: statSync(f.absPath).size }, bytes, d.hash as ContentHash, { maxFileBytes: config.ingest.maxFileBytes });
        return r.doc ? (await writer.writeSource(r.doc, catalog, opts.signal)).draft : undefined;
      },
      changed: drafts.has(d.raw_path) || Boolean(opts.force),
    });
  }
  const emitted = await emitWiki(ctx, {
    planned,
    groups,
    scan,
    writer,
    force: Boolean(opts.force),
    takenIds,
    signal: opts.signal,
    onProgress: opts.onProgress,
    onFile: opts.onFile,
  });
  messages.push(...emitted.messages);
  report.protected = emitted.protected;
  report.written = emitted.written;
  report.concepts = emitted.concepts;

  store.transaction(() => {
    for (const d of store.allDocuments()) if (d.status === 'pending') store.putDocument({ ...d, status: 'ok' });
    store.setMeta('compile_pending', '0');
    store.setMeta('last_compile', String(now()));
  });
  report.elapsedMs = performance.now() - t0;
  return report;
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}

/** What gets embedded for a chunk: the document title and heading path give the passage its topic. */
export function embedText(title: string, headings: string[], text: string): string {
  return `${title}\n${headings.join(' / ')}\n${text}`;
}

function entitiesFor(doc: RawDocument, named: SourceDraft['entities']) {
  // Counts and snippets come from the offline extractor; names a model gave are merged into them.
  const found = named.every((n) => n.snippets) ? [] : extractEntities(doc.markdown, doc.title);
  const byKey = new Map(found.map((f) => [f.key, { ...f }]));
  for (const n of named) {
    const key = entityKey(n.name);
    const had = byKey.get(key);
    if (had) had.aliases = [...new Set([...had.aliases, ...n.aliases])];
    else byKey.set(key, { key, surface: n.name, aliases: n.aliases, count: n.count ?? 1, snippets: n.snippets ?? [] });
  }
  return [...byKey.values()].map((f) => ({ key: f.key, surface: f.surface, aliases: f.aliases, count: f.count, snippets: f.snippets }));
}

export type { EntryFrontmatter };
