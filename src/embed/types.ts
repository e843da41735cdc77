import { KbError } from '../diagnostics/errors.js';

/** Turns texts into vectors. Passed into the stages that need it, so tests can pass a fake. */
export interface Embedder {
  /**
   * Provider + model + dims (+ anything else that changes vectors). Vectors with different
   * fingerprints are never mixed: when it changes, stored vectors are rebuilt. The store should
   * stamp rows with this fingerprint together with the chunker's `CHUNKER_VERSION`.
   */
  readonly fingerprint: string;
  readonly dims: number;
  /** One L2-normalised vector per text, in order. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

/** An embedding provider failed. The message names the URL and HTTP status, never the API key. */
export class EmbedError extends KbError {
  readonly url: string;
  readonly status: number | undefined;
  constructor(message: string, opts: { url: string; status?: number; cause?: unknown }) {
    super(message, 1, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'EmbedError';
    this.url = opts.url;
    this.status = opts.status;
  }
}

/**
 * Scale `v` to unit length in place. A zero vector (nothing to go on) becomes the unit vector
 * along dimension 0, so that cosine distance stays defined.
 */
export function l2normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) {
    const x = v[i] ?? 0;
    sum += x * x;
  }
  if (sum === 0 || !Number.isFinite(sum)) {
    v.fill(0);
    if (v.length > 0) v[0] = 1;
    return v;
  }
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i] = (v[i] ?? 0) * inv;
  return v;
}
