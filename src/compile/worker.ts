import { parentPort, workerData } from 'node:worker_threads';
import { LocalEmbedder } from '../embed/index.js';
import { prepare, type PrepareConfig } from './prepare.js';
import type { RawFile } from '../ingest/index.js';
import type { ContentHash } from '../types.js';
import { useGate } from '../util/native-gate.js';

interface Job {
  id: number;
  file: RawFile;
  bytes: Uint8Array;
  hash: ContentHash;
  chunks: boolean;
  leave: boolean;
}

const { cfg, localDims, gate } = workerData as {
  cfg: PrepareConfig;
  localDims: number | null;
  gate: Int32Array | undefined;
};
useGate(gate);
const embedder = localDims ? new LocalEmbedder(localDims) : undefined;

parentPort!.on('message', (job: Job) => {
  const progress = (done: number, total: number) => parentPort!.postMessage({ id: job.id, progress: [done, total] });
  prepare(job.file, job.bytes, job.hash, cfg, embedder, {
    onProgress: progress,
    chunks: job.chunks,
    leave: job.leave,
  }).then(
    (result) => parentPort!.postMessage({ id: job.id, result }),
    (err: unknown) => parentPort!.postMessage({ id: job.id, error: (err as Error).stack ?? String(err) }),
  );
});
