import { lstatSync, mkdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Stats } from 'node:fs';
import type { KbContext } from '../kb/context.js';
import { acquireLock, type Lock } from '../kb/lock.js';
import { compileKb, type CompileKbOptions } from '../compile/run.js';
import type { CompileReport } from '../compile/types.js';
import { compileIgnore } from '../ingest/index.js';
import { KIND_FOLDER } from '../entry/names.js';
import { LockError } from '../diagnostics/errors.js';
import { warmLanguageModels } from '../text/warm.js';
import { reindexEntry, type ReindexResult } from './reindex.js';

export type RawChange = 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir';

export type WatchEvent =
  | { type: 'ready'; root: string }
  | { type: 'change'; change: RawChange; path: string }
  | { type: 'compile-start'; changes: string[] }
  | { type: 'compiled'; report: CompileReport }
  | { type: 'compile-failed'; reason: string; retryMs?: number }
  | { type: 'wiki-edit'; path: string; result: ReindexResult }
  | { type: 'wiki-edit-failed'; path: string; reason: string }
  | { type: 'config-changed'; path: string }
  | { type: 'error'; reason: string }
  | { type: 'stopped' };

export interface WatchOptions {
  signal: AbortSignal;
  onEvent: (e: WatchEvent) => void;
  /** Quiet time after the last change before compiling (a burst becomes one compile). */
  debounceMs?: number;
  /** Compile anyway once changes have waited this long, even if they keep coming. */
  maxWaitMs?: number;
  /** A file counts as written when its size has not changed for this long. */
  stabilityMs?: number;
  /** How long to wait for another kb process holding the lock before giving up on this round. */
  lockWaitMs?: number;
  /** After a round lost to the lock, try again after this long. */
  retryMs?: number;
  /** Compile once at start (catches up with changes made while not watching). */
  initialCompile?: boolean;
  /** How each round compiles (the model writer, --verbose lines); every round logs as `watch`. */
  compile?: Omit<CompileKbOptions, 'signal' | 'command'>;
  /** Poll instead of native events (network drives, some containers). */
  usePolling?: boolean;
}

const WIKI_FOLDERS = new Set(Object.values(KIND_FOLDER));

/**
 * `kb watch`: compile when files under raw/ are added, changed, renamed or deleted, and re-index
 * entries a person edits in wiki/. Changes are debounced and batched; one compile or re-index runs
 * at a time, holding the lock only while it works; a failed compile is reported and watching goes on.
 * Resolves when `signal` aborts, after the work in hand has stopped.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: the watcher state (pending changes, timers, the one chain of work, the lock) is shared by every event handler in this closure
export async function watchKb(ctx: KbContext, opts: WatchOptions): Promise<void> {
  const { paths } = ctx;
  const debounceMs = opts.debounceMs ?? 300;
  const maxWaitMs = opts.maxWaitMs ?? 5000;
  const lockPath = join(paths.state, 'lock');
  const emit = opts.onEvent;
  const { signal } = opts;
  mkdirSync(paths.raw, { recursive: true });
  mkdirSync(paths.wiki, { recursive: true });

  const ignoredRaw = compileIgnore(ctx.config.ingest.ignore);
  const rawIgnored = (p: string): boolean => {
    const rel = relative(paths.raw, p);
    if (!rel || rel.startsWith('..')) return false;
    const parts = rel.split(sep);
    if (parts.some((s) => s.startsWith('.'))) return true;
    return ignoredRaw(parts[parts.length - 1] ?? '', parts.join('/'));
  };
  const wikiIgnored = (p: string, stats?: Stats): boolean => {
    const rel = relative(paths.wiki, p);
    if (!rel || rel.startsWith('..')) return false;
    const parts = rel.split(sep);
    if (parts.some((s) => s.startsWith('.'))) return true;
    if (!WIKI_FOLDERS.has(parts[0] ?? '')) return true;
    return Boolean(stats?.isFile()) && !p.endsWith('.md');
  };
  const stabilityMs = opts.stabilityMs ?? 300;
  const awaitWriteFinish = { stabilityThreshold: stabilityMs, pollInterval: 50 };
  const common = {
    ignoreInitial: true,
    awaitWriteFinish,
    persistent: true,
    usePolling: Boolean(opts.usePolling),
    interval: 100,
  };
  const watchers: FSWatcher[] = [
    // Links are not followed: one leading out of raw/ must not be read (the walk reports it), and
    // a link inside raw/ leads to a file that is watched under its own path anyway.
    watch(paths.raw, { ...common, ignored: rawIgnored, followSymlinks: false }),
    watch(paths.wiki, { ...common, ignored: wikiIgnored }),
  ];

  // One job at a time: compiles and re-indexes are chained.
  let chain: Promise<void> = Promise.resolve();
  const enqueue = (job: () => Promise<void>) => {
    chain = chain
      .then(() => (signal.aborted ? undefined : job()))
      .catch((err: unknown) => emit({ type: 'error', reason: (err as Error).message }));
  };

  // --- raw/: debounce, batch, compile.
  const pending = new Set<string>();
  let firstPendingAt = 0;
  let timer: NodeJS.Timeout | undefined;
  let queued = false;
  const schedule = (delay = debounceMs) => {
    if (timer) clearTimeout(timer);
    const waited = Date.now() - firstPendingAt;
    timer = setTimeout(kick, Math.max(0, Math.min(delay, maxWaitMs - waited)));
  };
  const kick = () => {
    timer = undefined;
    if (queued || signal.aborted) return;
    queued = true;
    enqueue(runCompile);
  };
  const runCompile = async () => {
    queued = false;
    const changes = [...pending].sort();
    pending.clear();
    firstPendingAt = 0;
    emit({ type: 'compile-start', changes });
    let lock: Lock | undefined;
    try {
      lock = await acquireLock(lockPath, 'watch', { waitMs: opts.lockWaitMs ?? 10_000 });
      const { report } = await compileKb(ctx, { ...opts.compile, command: 'watch', signal });
      emit({ type: 'compiled', report });
    } catch (err) {
      if (signal.aborted) return;
      const retryMs = err instanceof LockError ? (opts.retryMs ?? 5000) : undefined;
      emit({ type: 'compile-failed', reason: (err as Error).message, ...(retryMs !== undefined ? { retryMs } : {}) });
      if (retryMs !== undefined) {
        for (const c of changes) pending.add(c);
        if (!firstPendingAt) firstPendingAt = Date.now();
        schedule(retryMs);
      }
    } finally {
      lock?.release();
    }
  };
  let scanned = false;
  const onRaw = (change: RawChange) => (abs: string) => {
    // chokidar reports every link it does not follow as added during its first scan, ignoreInitial or not.
    if (!scanned && change === 'add' && isSymlink(abs)) return;
    const rel = relative(paths.raw, abs).split(sep).join('/');
    emit({ type: 'change', change, path: rel });
    pending.add(rel);
    if (!firstPendingAt) firstPendingAt = Date.now();
    // A rename is an unlink at once and an add once the file is stable: wait for the add, so one compile sees both.
    // A new folder is compiled too, once its files have had time to settle: chokidar reads a new folder before it
    // watches it, so a file written in between never arrives as `add`, and the compile's own walk is what finds it.
    const settles = change === 'unlink' || change === 'unlinkDir' || change === 'addDir';
    schedule(settles ? debounceMs + stabilityMs + 100 : debounceMs);
  };
  for (const c of ['add', 'change', 'unlink', 'addDir', 'unlinkDir'] as const) watchers[0]!.on(c, onRaw(c));

  // --- wiki/: re-index entries a person edits (kb's own writes are recognised and skipped).
  const seen = new Map<string, string>();
  // A compile writes many entries at once: their events are drained together, under one lock.
  const wikiPending = new Set<string>();
  const reindexPending = async () => {
    let lock: Lock | undefined;
    try {
      lock = await acquireLock(lockPath, 'watch', { waitMs: opts.lockWaitMs ?? 10_000 });
      // A Set's iteration also visits what is added meanwhile: nothing waits for another event.
      for (const rel of wikiPending) {
        wikiPending.delete(rel);
        if (signal.aborted) return;
        try {
          const result = await reindexEntry(ctx, rel, seen, signal);
          if (result.status !== 'unchanged' && result.status !== 'gone') emit({ type: 'wiki-edit', path: rel, result });
        } catch (err) {
          if (!signal.aborted)
            emit({ type: 'wiki-edit-failed', path: rel, reason: (err as Error).message.split('\n')[0] ?? '' });
        }
      }
    } catch (err) {
      const paths = [...wikiPending];
      wikiPending.clear();
      if (!signal.aborted)
        for (const rel of paths) emit({ type: 'wiki-edit-failed', path: rel, reason: (err as Error).message });
    } finally {
      lock?.release();
    }
  };
  const onWiki = (abs: string) => {
    const rel = relative(paths.wiki, abs).split(sep).join('/');
    if (!rel.endsWith('.md')) return;
    const idle = wikiPending.size === 0;
    wikiPending.add(rel);
    if (idle) enqueue(reindexPending);
  };
  for (const c of ['add', 'change', 'unlink'] as const) watchers[1]!.on(c, onWiki);
  // Settings are read once: say so when they change rather than compiling half with old, half with new ones.
  const configWatcher = watch(paths.config, {
    ignoreInitial: true,
    awaitWriteFinish,
    usePolling: Boolean(opts.usePolling),
    interval: 100,
  });
  for (const c of ['add', 'change'] as const)
    configWatcher.on(c, () => emit({ type: 'config-changed', path: paths.config }));
  watchers.push(configWatcher);
  for (const w of watchers) w.on('error', (err) => emit({ type: 'error', reason: (err as Error).message }));

  await Promise.all(watchers.map((w) => new Promise<void>((res) => w.once('ready', () => res()))));
  scanned = true;
  if (opts.initialCompile !== false && !signal.aborted) {
    queued = true;
    enqueue(runCompile);
  }
  enqueue(async () => emit({ type: 'ready', root: paths.root }));
  // Loaded while nothing is asked, rather than by the first change's compile (~0.4 s at any size).
  enqueue(async () => warmLanguageModels(ctx.store.languages()));

  await new Promise<void>((res) => {
    if (signal.aborted) res();
    else signal.addEventListener('abort', () => res(), { once: true });
  });
  if (timer) clearTimeout(timer);
  await Promise.all(watchers.map((w) => w.close()));
  await chain;
  emit({ type: 'stopped' });
}

function isSymlink(abs: string): boolean {
  try {
    return lstatSync(abs).isSymbolicLink();
  } catch {
    return false;
  }
}
