import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { threadEntry } from '../kb/package-root.js';
import type { ContentHash } from '../types.js';
import type { RawFile } from '../ingest/index.js';
import { isHeavy } from '../ingest/detect.js';
import type { Embedder } from '../embed/index.js';
import { LocalEmbedder } from '../embed/index.js';
import { prepare, type PrepareConfig, type PrepareJob, type Prepared } from './prepare.js';
import { InterruptedError } from '../diagnostics/errors.js';
import { closeGate, newGate } from '../util/native-gate.js';

export interface PreparePool {
  /** `job.onProgress` hears about progress inside the file (pages of a long PDF). */
  run(file: RawFile, bytes: Uint8Array, hash: ContentHash, job?: PrepareJob): Promise<Prepared>;
  close(): Promise<void>;
}

/** Below this many documents, starting threads costs more than it saves… */
const MIN_JOBS_FOR_THREADS = 24;
/** …unless they are big: work that takes seconds goes to a thread, where a signal can stop it at once. */
const MIN_BYTES_FOR_THREADS = 1024 * 1024;

/**
 * Which of a compile's documents are prepared on threads: none, all, or only the slow ones (PDF,
 * Office, images to OCR). Big work always goes to threads (a signal is heard at once), and so does
 * everything when two threads or more prepare side by side. One thread only overlaps preparing with
 * storing, which the main thread does between documents anyway, and starting it (its own language
 * models) costs more than that saves below megabytes of text: then only the slow documents go to
 * it, read there while the main thread prepares the rest. On 2 cores (one thread), 25 to 100 notes
 * compiled ~0.8 s faster inline and ~70 MB smaller; 1,000 (7.9 MB) are faster on the thread, as
 * the size rule sends them.
 */
export function threadUse(
  jobs: number,
  threads: number,
  opts: { bytes?: number; heavy?: boolean } = {},
): 'none' | 'all' | 'slow' {
  if (threads < 1) return 'none';
  if (
    (opts.bytes ?? 0) >= MIN_BYTES_FOR_THREADS ||
    (threads >= 2 && (opts.heavy === true || jobs >= MIN_JOBS_FOR_THREADS))
  )
    return 'all';
  return opts.heavy === true ? 'slow' : 'none';
}

export interface PoolOptions {
  /** Bytes of all the documents to prepare. */
  bytes?: number;
  /** Some documents are slow to ingest (PDF, Office, OCR). */
  heavy?: boolean;
  /**
   * Aborting rejects what is waiting and ends the threads: at once, whatever JavaScript they run,
   * or as soon as a native call in flight (OCR) returns.
   */
  signal?: AbortSignal;
}

/** Characters of a work the main thread chunks and embeds in a few milliseconds. */
const LEAVE_CHUNKS_BELOW = 64 * 1024;

/** Images OCR reads go to one worker: the OCR models take ~250 MB in each thread that loads them. */
const IMAGE = /\.(?:png|jpe?g|webp|gif|tiff?)$/i;

/**
 * Worker threads for a compile: one core left to the main thread, at most 4 — or `KB_THREADS`
 * (0: none, every document on the main thread; N: N threads, for a machine with memory to spare).
 */
export function threadsWanted(cores: number, env: NodeJS.ProcessEnv = process.env): number {
  const set = env['KB_THREADS'];
  if (set !== undefined && /^\d+$/.test(set.trim())) return Number(set);
  return Math.min(Math.max(1, cores - 1), 4);
}

/**
 * Prepares documents (ingest, offline draft, chunks, local vectors) on worker threads, one per
 * core but the main thread's, so a large compile uses the whole machine and the main thread stays
 * free to hear a signal.
 * Results come back in submission order because callers await them in order. Which documents go
 * to the threads is threadUse's choice: none (small jobs, or no worker entry: all inline), all, or
 * only the slow ones (PDF, Office, OCR), the rest prepared on the main thread meanwhile.
 */
export function preparePool(jobs: number, cfg: PrepareConfig, embedder: Embedder, opts: PoolOptions = {}): PreparePool {
  const localDims = embedder instanceof LocalEmbedder ? embedder.dims : null;
  const inline: PreparePool = {
    run: (file, bytes, hash, job) => prepare(file, bytes, hash, cfg, localDims ? embedder : undefined, job),
    close: async () => {},
  };
  // One core is left to the main thread, which stores what the threads prepare as they go: and
  // each thread loads its own language models (jieba and wink, ~130 MB), so fewer threads keep a
  // compile's memory down (a 1,000-document compile on 2 cores: 320 MB with one thread, 460 with two).
  const cores = availableParallelism();
  const threads = Math.min(threadsWanted(cores), jobs);
  const entry = threadEntry('worker.mjs', 'compile', 'worker-boot.mjs');
  const use = threadUse(jobs, threads, opts);
  if (use === 'none' || !entry) return inline;
  const { signal } = opts;

  const workers: Worker[] = [];
  const gates: Int32Array[] = [];
  const waiting = new Map<
    number,
    {
      resolve: (p: Prepared) => void;
      reject: (e: Error) => void;
      onProgress?: ((done: number, total: number) => void) | undefined;
    }
  >();
  let next = 0;
  for (let i = 0; i < threads; i++) {
    // With one thread the main thread chunks and embeds short works, or it would mostly wait.
    const leave = threads === 1 ? { leaveChunksBelow: LEAVE_CHUNKS_BELOW } : {};
    const gate = newGate();
    const w = new Worker(entry, { workerData: { cfg: { ...cfg, ...leave }, localDims, gate } });
    gates.push(gate);
    w.on('message', (m: { id: number; result?: Prepared; error?: string; progress?: [number, number] }) => {
      const p = waiting.get(m.id);
      if (!p) return;
      if (m.progress) {
        p.onProgress?.(m.progress[0], m.progress[1]);
        return;
      }
      waiting.delete(m.id);
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m.result!);
    });
    w.on('error', (err) => {
      for (const p of waiting.values()) p.reject(err);
      waiting.clear();
    });
    workers.push(w);
  }
  // A thread ends once no native call is in flight on it (see util/native-gate.ts): ended mid-call,
  // an addon aborts the process. Both a signal and close() end the threads this way, once.
  let ended: Promise<void> | undefined;
  const end = () =>
    (ended ??= Promise.all(
      workers.map(async (w, i) => {
        await closeGate(gates[i]!);
        await w.terminate();
      }),
    ).then(() => undefined));
  const stop = () => {
    const err = new InterruptedError(
      'Compile interrupted; run `kb compile` again to finish (work done so far is kept).',
    );
    for (const p of waiting.values()) p.reject(err);
    waiting.clear();
    void end();
  };
  signal?.addEventListener('abort', stop, { once: true });
  return {
    run(file, bytes, hash, job = {}) {
      if (use === 'slow' && !isHeavy(file.path)) return inline.run(file, bytes, hash, job);
      const id = next++;
      const worker = IMAGE.test(file.path) ? workers[0]! : workers[id % workers.length]!;
      return new Promise<Prepared>((resolve, reject) => {
        if (signal?.aborted) {
          reject(
            new InterruptedError('Compile interrupted; run `kb compile` again to finish (work done so far is kept).'),
          );
          return;
        }
        waiting.set(id, { resolve, reject, onProgress: job.onProgress });
        worker.postMessage({ id, file, bytes, hash, chunks: job.chunks !== false, leave: job.leave !== false });
      });
    },
    async close() {
      signal?.removeEventListener('abort', stop);
      await end();
    },
  };
}
