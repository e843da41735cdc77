/**
 * OpenAI-compatible embeddings over HTTP: `POST {baseURL}/embeddings` with `{ model, input }`,
 * answered by `{ data: [{ index, embedding }] }`. OpenAI, Voyage, Ollama (`/v1`) and the llama.cpp
 * server all speak it.
 */
import { type Embedder, EmbedError, l2normalize } from './types.js';

export interface HttpEmbedderOptions {
  baseURL: string;
  model: string;
  /** Sent as `Authorization: Bearer …` when given; never printed. */
  apiKey?: string;
  dims: number;
  batchSize: number;
  fetch?: typeof fetch;
  /** Per request; default 60 s. */
  timeoutMs?: number;
  /** Retries of 429, 5xx, timeouts and network errors; default 4. */
  retries?: number;
  /** First backoff delay when the server sends no `retry-after`, doubled each retry; default 500 ms. */
  backoffMs?: number;
  /** Upper bound on any wait between attempts, `retry-after` included; default 60 s. */
  maxDelayMs?: number;
}

interface EmbeddingResponse {
  data?: { index?: number; embedding?: unknown }[];
}

export class HttpEmbedder implements Embedder {
  readonly dims: number;
  readonly fingerprint: string;
  private readonly url: string;
  /** The URL as it may be shown: without any user:password part. */
  private readonly shownURL: string;
  private readonly opts: Required<Omit<HttpEmbedderOptions, 'apiKey'>> & { apiKey: string | undefined };

  constructor(opts: HttpEmbedderOptions) {
    const base = opts.baseURL.trim().replace(/\/+$/, '');
    if (!/^https?:\/\//i.test(base)) {
      throw new EmbedError(`Unexpected embedding.baseURL "${redactURL(base)}", expected an http:// or https:// URL`, { url: redactURL(base) });
    }
    if (!Number.isInteger(opts.dims) || opts.dims < 1) {
      throw new EmbedError(`Unexpected embedding.dims ${opts.dims}, expected a positive integer`, { url: redactURL(base) });
    }
    this.url = `${base}/embeddings`;
    this.shownURL = redactURL(this.url);
    this.dims = opts.dims;
    this.fingerprint = `openai:${redactURL(base)}:${opts.model}:${opts.dims}`;
    this.opts = {
      baseURL: base,
      model: opts.model,
      apiKey: opts.apiKey || undefined,
      dims: opts.dims,
      batchSize: Math.max(1, Math.floor(opts.batchSize) || 1),
      fetch: opts.fetch ?? globalThis.fetch,
      timeoutMs: opts.timeoutMs ?? 60_000,
      retries: opts.retries ?? 4,
      backoffMs: opts.backoffMs ?? 500,
      maxDelayMs: opts.maxDelayMs ?? 60_000,
    };
  }

  /**
   * Texts that are empty or blank are not sent (OpenAI rejects empty input); like the local
   * embedder, they get the unit vector along dimension 0.
   */
  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const out: Float32Array[] = texts.map(() => l2normalize(new Float32Array(this.dims)));
    const todo = texts.flatMap((t, i) => (t.trim() ? [i] : []));
    for (let b = 0; b < todo.length; b += this.opts.batchSize) {
      const at = todo.slice(b, b + this.opts.batchSize);
      const vectors = await this.embedBatch(at.map((i) => texts[i] ?? ''), signal);
      for (const [k, v] of vectors.entries()) out[at[k] ?? 0] = v;
    }
    return out;
  }

  private async embedBatch(input: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const body = JSON.stringify({ model: this.opts.model, input });
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.opts.apiKey) headers.authorization = `Bearer ${this.opts.apiKey}`;
    let lastProblem = '';
    let lastStatus: number | undefined;
    for (let attempt = 0; attempt <= this.opts.retries; attempt++) {
      signal?.throwIfAborted();
      let retryAfterMs: number | undefined;
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), this.opts.timeoutMs);
      const onAbort = (): void => timeout.abort();
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const res = await this.opts.fetch(this.url, { method: 'POST', headers, body, signal: timeout.signal });
        const text = await res.text();
        if (res.ok) return this.parse(text, input.length);
        lastStatus = res.status;
        lastProblem = `HTTP ${res.status}${detail(text, this.opts.apiKey)}`;
        if (res.status !== 429 && res.status < 500) {
          throw new EmbedError(`Embedding request to ${this.shownURL} failed: ${lastProblem}${hint(res.status)}`, { url: this.shownURL, status: res.status });
        }
        retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
      } catch (error) {
        if (error instanceof EmbedError) throw error;
        signal?.throwIfAborted();
        lastStatus = undefined;
        lastProblem = timeout.signal.aborted
          ? `no answer within ${this.opts.timeoutMs} ms`
          : `network error: ${redactKey(errorText(error), this.opts.apiKey)}`;
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      }
      if (attempt < this.opts.retries) {
        const backoff = this.opts.backoffMs * 2 ** attempt * (0.75 + Math.random() * 0.5);
        await sleep(Math.min(retryAfterMs ?? backoff, this.opts.maxDelayMs), signal);
      }
    }
    const attempts = this.opts.retries + 1;
    const opts = lastStatus === undefined ? { url: this.shownURL } : { url: this.shownURL, status: lastStatus };
    throw new EmbedError(`Embedding request to ${this.shownURL} failed after ${attempts} attempts: ${lastProblem}`, opts);
  }

  private parse(text: string, expected: number): Float32Array[] {
    let json: EmbeddingResponse;
    try {
      json = JSON.parse(text) as EmbeddingResponse;
    } catch {
      throw new EmbedError(`Unexpected answer from ${this.shownURL}: not JSON${detail(text, this.opts.apiKey)}`, { url: this.shownURL });
    }
    const data = Array.isArray(json.data) ? json.data : undefined;
    if (!data || data.length !== expected) {
      throw new EmbedError(
        `Unexpected answer from ${this.shownURL}: ${data ? `${data.length} embeddings` : 'no "data" array'}, expected ${expected}`,
        { url: this.shownURL },
      );
    }
    const sorted = data.map((d, i) => ({ index: typeof d.index === 'number' ? d.index : i, embedding: d.embedding }));
    sorted.sort((a, b) => a.index - b.index);
    return sorted.map(({ embedding }) => {
      if (!Array.isArray(embedding) || embedding.length !== this.dims) {
        const got = Array.isArray(embedding) ? `vectors of ${embedding.length} numbers` : 'something that is not a vector';
        throw new EmbedError(
          `The embedding server at ${this.shownURL} returned ${got} for model "${this.opts.model}", but embedding.dims is ${this.dims}. ` +
            (Array.isArray(embedding) ? `Set "dims": ${embedding.length} under "embedding" in kb.config.json.` : 'Check embedding.model and embedding.baseURL.'),
          { url: this.shownURL },
        );
      }
      const v = new Float32Array(this.dims);
      for (let i = 0; i < this.dims; i++) {
        const x = embedding[i] as unknown;
        if (typeof x !== 'number' || !Number.isFinite(x)) {
          throw new EmbedError(`Unexpected value in an embedding from ${this.shownURL}: ${String(x)} at position ${i}, expected a number`, { url: this.shownURL });
        }
        v[i] = x;
      }
      return l2normalize(v);
    });
  }
}

/** `retry-after` as milliseconds: delta-seconds (fractions allowed) or an HTTP date. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value.trim());
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The URL without a user:password part. */
function redactURL(url: string): string {
  return url.replace(/^(https?:\/\/)[^/@]*@/i, '$1');
}

function redactKey(text: string, key: string | undefined): string {
  return key ? text.split(key).join('***') : text;
}

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

/** A short piece of the server's explanation: `error.message` of a JSON body, else its text. */
function detail(body: string, key: string | undefined): string {
  let text = body.trim();
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof json.error === 'string' ? json.error : (json.error?.message ?? json.message);
    if (typeof m === 'string') text = m;
  } catch {
    // not JSON: use the text
  }
  text = redactKey(text.replace(/\s+/g, ' '), key);
  if (!text) return '';
  return `: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`;
}

function hint(status: number): string {
  if (status === 401 || status === 403) return ' (check the API key in the environment variable named by embedding.apiKeyEnv)';
  if (status === 404) return ' (check embedding.baseURL and embedding.model)';
  return '';
}
