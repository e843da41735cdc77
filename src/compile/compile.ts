import { statSame } from '../ingest/stat-same.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KbContext } from '../kb/context.js';
import type { KbMessage } from '../diagnostics/message.js';
import { message } from '../diagnostics/message.js';
import type { ContentHash } from '../types.js';
import { sha256 } from '../util/hash.js';
import { walkRaw } from '../ingest/walk.js';
import { INGEST_VERSION, maxBytesFor, rereadOnUpgrade } from '../ingest/detect.js';
import type { RawFile } from '../ingest/types.js';
import { OfflineWriter } from './offline/writer.js';
import { missingIndexes, restoreLog } from '../emit/indexes.js';
import type { CompileOptions, CompileReport, EntryWriter } from './types.js';
import { checkAbort, type Scanned } from './scan.js';
import { emptySkip, fileRow, type DocumentRow } from '../store/store.js';

/**
 * `kb compile`: bring wiki/ and the store up to date with raw/.
 * Unchanged files are skipped by content hash; each document's store update is one transaction;
 * entry files are written whole; a `compile_pending` mark makes an interrupted run finish the job.
 */
export type { CompileOptions } from './types.js';
export type { Scanned } from './scan.js';

export async function compile(ctx: KbContext, opts: CompileOptions = {}): Promise<CompileReport> {
  const t0 = performance.now();
  const { store } = ctx;
  const writer = opts.writer ?? new OfflineWriter();
  const messages: KbMessage[] = [];
  const report: CompileReport = {
    new: 0,
    updated: 0,
    unchanged: 0,
    deleted: 0,
    renamed: 0,
    skipped: 0,
    failed: 0,
    concepts: { created: 0, updated: 0, deleted: 0 },
    protected: [],
    written: 0,
    messages,
    elapsedMs: 0,
    compiler: writer.name,
  };
  const pendingBefore = store.getMeta('compile_pending') === '1';

  // 1. What is in raw/ now, and what changed since the last compile.
  const resumed = new Set<string>();
  const raw = await scanRaw(ctx, opts, { writer, messages, report, resumed });
  const { changed, deletedPaths } = raw;
  const missing = restoreGenerated(ctx, messages);
  if (!changed.length && store.getMeta('ingest_version') !== INGEST_VERSION)
    store.setMeta('ingest_version', INGEST_VERSION);
  // The Backlinks section turned on or off in kb.config.json: every entry's section is rewritten.
  const shown = store.getMeta('backlinks_section');
  const sectionToggled = shown !== undefined && shown !== String(ctx.config.wiki.backlinksSection);
  if (changed.length || deletedPaths.length || pendingBefore || opts.force || missing.length || sectionToggled) {
    // Work to do: load the heavy stages (Markdown, HTML, chunker, emitter) only now.
    const { compileChanges } = await import('./changes.js');
    const rawFiles = new Map(raw.files.map((f) => [f.path as string, f]));
    await compileChanges(ctx, opts, {
      t0,
      writer,
      messages,
      report,
      known: raw.known,
      rows: raw.rows,
      changed,
      deletedPaths,
      rawFiles,
      resumed,
    });
  }
  // After an embedder change every vector is made again from the stored text (no model call).
  if (store.vectorsMissing()) {
    const { rebuildVectors } = await import('./vectors.js');
    messages.push(...(await rebuildVectors(ctx, { signal: opts.signal, onProgress: opts.onProgress })));
  }
  report.elapsedMs = performance.now() - t0;
  return report;
}

interface ScanSink {
  writer: EntryWriter;
  messages: KbMessage[];
  report: CompileReport;
  /** Files an interrupted run stored already (ScanState.resumed). */
  resumed: Set<string>;
}

/** raw/ walked and compared with the store: the files to compile again, and the ones gone. */
async function scanRaw(
  ctx: KbContext,
  opts: CompileOptions,
  sink: ScanSink,
): Promise<{
  files: RawFile[];
  known: Map<string, DocumentRow>;
  rows: Map<string, DocumentRow[]>;
  changed: Scanned[];
  deletedPaths: string[];
}> {
  const { store, config, paths } = ctx;
  const walk = walkRaw(paths.raw, { ignore: config.ingest.ignore });
  sink.messages.push(...walk.messages);
  // A file that holds several posts has a row per post; what it was compiled from is on each.
  const rows = store.documentsByFile();
  const known = new Map<string, DocumentRow>([...rows].map(([f, r]) => [f, fileRow(r)]));
  // Made by an older ingest: what it could not read (PDF, Office, images, …) is read again once.
  const olderIngest = store.getMeta('ingest_version') !== INGEST_VERSION && known.size > 0;
  const changed: Scanned[] = [];
  const seen = new Set<string>();
  let done = 0;
  for (const file of walk.files) {
    checkAbort(opts.signal);
    seen.add(file.path);
    const prev = known.get(file.path);
    const reread = olderIngest && prev !== undefined && rereadOnUpgrade(file.path, prev.status);
    const s = await scanFile(ctx, opts, sink, file, prev, reread);
    if (s === undefined) continue;
    if (s !== 'same') {
      // Chunks are made from the ingested text alone: only new bytes or a new ingest make them again.
      if (prev && !olderIngest && !opts.force && prev.hash === s.hash && ['ok', 'pending'].includes(prev.status))
        s.keepChunks = true;
      changed.push(s);
    }
    opts.onProgress?.({ phase: 'scan', done: ++done, total: walk.files.length, file: file.path });
  }
  return { files: walk.files, known, rows, changed, deletedPaths: [...known.keys()].filter((p) => !seen.has(p)) };
}

/** One file of raw/: 'same' when it needs no compile, what to compile otherwise, undefined when unreadable. */
async function scanFile(
  ctx: KbContext,
  opts: CompileOptions,
  sink: ScanSink,
  file: RawFile,
  prev: DocumentRow | undefined,
  reread: boolean,
): Promise<Scanned | 'same' | undefined> {
  const { config } = ctx;
  const { writer, messages, report } = sink;
  const read = (f: RawFile): Buffer | undefined => {
    try {
      return readFileSync(f.absPath);
    } catch (err) {
      messages.push(
        message(
          `raw/${f.path}`,
          'ingest-unreadable',
          `Cannot read file: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
        ),
      );
      report.failed++;
      return undefined;
    }
  };
  // Same size and modification time as when compiled: unchanged, without reading it.
  let s: Scanned;
  if (prev && !opts.force && !reread && statSame(prev, file)) s = { file, hash: prev.hash as ContentHash };
  else if (file.size > maxBytesFor(file.path, config.ingest))
    s = { file, hash: sha256(`too-large:${file.size}:${file.mtimeMs}`), tooLarge: true };
  else {
    const bytes = read(file);
    if (!bytes) return undefined;
    s = { file, hash: sha256(bytes), bytes };
  }
  // Without a key, documents Claude compiled stay as they are (the offline compiler would only make them worse).
  const sameCompiler =
    prev &&
    (prev.compiler === writer.name || (writer.name.startsWith('offline') && prev.compiler.startsWith('model:')));
  // Stored by a run that was stopped before it wrote the wiki (killed, a power cut): its chunks,
  // vectors and names are in the store, each document whole; only its entry is still to write.
  const compiledAsIs = prev && sameCompiler && prev.hash === s.hash;
  if (compiledAsIs && prev.status === 'pending' && !opts.force && !reread) {
    sink.resumed.add(file.path);
    report.new++;
    return 'same';
  }
  let same = compiledAsIs && prev.status !== 'pending';
  // A file recorded as empty that has bytes: compiles before this check existed could take a file
  // they had not read for an empty one. Ingest it again; if it has text after all, compile it.
  if (same && prev && !opts.force && emptySkip(prev) && file.size > 0 && !s.tooLarge) {
    const bytes = s.bytes ?? read(file);
    if (!bytes) return undefined;
    s = { file, hash: sha256(bytes), bytes };
    const { findsDocument } = await import('../ingest/index.js');
    if (await findsDocument(file, bytes, s.hash, config.ingest)) same = false;
  }
  if (same && prev && !opts.force && !reread) {
    if (prev.status === 'ok') report.unchanged++;
    else {
      report.skipped++;
      if (prev.error)
        messages.push(
          message(`raw/${file.path}`, prev.error.split('\t')[0] ?? 'ingest', prev.error.split('\t')[1] ?? prev.error),
        );
    }
    return 'same';
  }
  // It is compiled again (another compiler, an interrupted run…): its text is needed now.
  if (!s.bytes && !s.tooLarge) {
    const bytes = read(file);
    if (!bytes) return undefined;
    s = { file, hash: sha256(bytes), bytes };
  }
  return s;
}

/** Generated files a person or a tool deleted are written again, even when nothing else changed. */
function restoreGenerated(ctx: KbContext, messages: KbMessage[]): string[] {
  const { store, paths } = ctx;
  const compiledBefore = store.getMeta('last_compile') !== undefined;
  const missing = compiledBefore ? missingIndexes(paths.wiki) : [];
  for (const f of missing)
    messages.push(
      existsSync(join(paths.wiki, f))
        ? message(
            `wiki/${f}`,
            'restored',
            'Unexpected damaged generated file (not whole JSON), expected what kb wrote; written again',
            {
              severity: 'warning',
            },
          )
        : message(
            `wiki/${f}`,
            'restored',
            'Unexpected missing generated file, expected it in the wiki; written again',
            {
              severity: 'info',
            },
          ),
    );
  if (compiledBefore && restoreLog(paths.wiki))
    messages.push(
      message(
        'wiki/log.md',
        'restored',
        'Unexpected missing log, expected it in the wiki; started again (the earlier history is gone unless git has it)',
        { severity: 'info' },
      ),
    );
  return missing;
}
