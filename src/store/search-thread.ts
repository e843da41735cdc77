import { Worker } from 'node:worker_threads';
import { threadEntry } from '../kb/package-root.js';

/**
 * A second connection to the store on a thread of its own, for a process that answers many
 * questions (`kb serve`, `kb mcp`): a question's full-text groups and its vector scan are native
 * work that runs on two cores at once, so the thread takes part of them while the main thread
 * runs the rest (at 10,000 documents a Chinese question's six FTS queries: ~150 ms on one thread,
 * ~65 ms on two). Its answers are the store's own (the same SQL, search-sql.ts).
 */
export class SearchThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private next = 0;
  private failed: Error | undefined;

  private constructor(entry: string, path: string, mmapBytes: number) {
    this.worker = new Worker(entry, { workerData: { path, mmapBytes } });
    // Never what keeps a process alive: it only answers the main thread.
    this.worker.unref();
    this.worker.on('message', (m: { id: number; result?: unknown; error?: string }) => {
      const p = this.waiting.get(m.id);
      if (!p) return;
      this.waiting.delete(m.id);
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m.result);
    });
    const fail = (err: Error) => {
      this.failed = err;
      for (const p of this.waiting.values()) p.reject(err);
      this.waiting.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', () => fail(new Error('search thread ended')));
  }

  /** A thread for the store file at `path`, or none when kb has no thread entry to start. */
  static start(path: string, mmapBytes: number): SearchThread | undefined {
    const entry = threadEntry('search-worker.mjs', 'store', 'search-worker-boot.mjs');
    return entry ? new SearchThread(entry, path, mmapBytes) : undefined;
  }

  /** Whether it still answers (a thread that failed is not asked again: the main thread searches alone). */
  get alive(): boolean {
    return this.failed === undefined;
  }

  /**
   * Full-text queries shared with the caller through one counter: the thread, once done with what
   * it was asked before, takes the next query not yet taken (`Atomics.add` on `taken[0]`) until none
   * is left, and answers with the lists it read, by index. The caller takes them the same way
   * (`takeNext`), so neither side waits while the other has work: no estimate of a query's cost.
   */
  chunksMatchingShared(
    matches: readonly string[],
    limit: number,
    taken: Int32Array,
  ): Promise<[number, { id: number; score: number }[]][]> {
    return this.ask({ matches: [...matches], limit, taken }) as Promise<[number, { id: number; score: number }[]][]>;
  }

  /**
   * The scan of the vectors, taken through `taken` (`takeNext` of one job): null when the caller
   * took it first (a thread still starting up is not waited for: the caller scans itself).
   */
  nearestChunks(vector: Float32Array, k: number, taken: Int32Array): Promise<number[] | null> {
    return this.ask({ vector, k, taken }) as Promise<number[] | null>;
  }

  /** Ends the thread once it has answered what it was asked. */
  close(): void {
    if (this.failed) return;
    this.failed = new Error('search thread closed');
    this.worker.postMessage({ close: true });
  }

  private ask(
    req:
      | { vector: Float32Array; k: number; taken: Int32Array }
      | { matches: string[]; limit: number; taken: Int32Array },
  ): Promise<unknown> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...req });
    });
  }
}
