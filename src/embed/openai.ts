/**
 * Embeddings from any OpenAI-compatible `/embeddings` endpoint (OpenAI, Voyage, Ollama, the
 * llama.cpp server, vLLM…) through the official `openai` SDK, which retries 429/5xx/timeouts
 * (honouring retry-after) and times requests out.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type OpenAI from 'openai';
import { type Embedder, EmbedError, l2normalize } from './types.js';

/*
 * The SDK (~200 modules) is loaded on the first request, not when the embedder is made: every
 * command opens the store with its embedder, most never call it (`kb search` with stored vectors).
 */
type Sdk = typeof import('../model/openai.js');
type Errors = typeof import('../model/errors.js');
type ApiFailure = NonNullable<ReturnType<Errors['apiFailure']>>;

export interface OpenAIEmbedderOptions {
  baseURL: string;
  model: string;
  /** Sent as `Authorization: Bearer …` when given; never printed. */
  apiKey?: string;
  dims: number;
  batchSize: number;
  /** Per request; default 60 s. */
  timeoutMs?: number;
  /** Retries of 429, 5xx, timeouts and network errors; default 4. */
  retries?: number;
}

export class OpenAIEmbedder implements Embedder {
  readonly dims: number;
  readonly fingerprint: string;
  /** The endpoint as it may be shown: without any user:password part. */
  private readonly shownURL: string;
  private sdk: OpenAI | undefined;
  private errors: Errors | undefined;
  private readonly batchSize: number;
  private readonly attempts: number;

  constructor(private readonly opts: OpenAIEmbedderOptions) {
    const base = opts.baseURL.trim().replace(/\/+$/, '');
    if (!/^https?:\/\//i.test(base)) {
      throw new EmbedError(`Unexpected embedding.baseURL "${redactURL(base)}", expected an http:// or https:// URL`, {
        url: redactURL(base),
      });
    }
    if (!Number.isInteger(opts.dims) || opts.dims < 1) {
      throw new EmbedError(`Unexpected embedding.dims ${opts.dims}, expected a positive integer`, {
        url: redactURL(base),
      });
    }
    this.shownURL = redactURL(`${base}/embeddings`);
    this.dims = opts.dims;
    // Unchanged from the hand-written HTTP embedder this replaces: stored vectors stay valid.
    this.fingerprint = `openai:${redactURL(base)}:${opts.model}:${opts.dims}`;
    this.batchSize = Math.max(1, Math.floor(opts.batchSize) || 1);
    this.attempts = (opts.retries ?? 4) + 1;
    this.base = base;
  }

  private readonly base: string;

  private async client(): Promise<OpenAI> {
    if (this.sdk) return this.sdk;
    const { openaiSdk } = (await import('../model/openai.js')) as Sdk;
    this.errors = (await import('../model/errors.js')) as Errors;
    this.sdk = openaiSdk(
      { baseURL: this.base, timeoutMs: this.opts.timeoutMs ?? 60_000, maxRetries: this.opts.retries ?? 4 },
      this.opts.apiKey || undefined,
    );
    return this.sdk;
  }

  /**
   * Texts that are empty or blank are not sent (OpenAI rejects empty input); like the local
   * embedder, they get the unit vector along dimension 0.
   */
  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const out: Float32Array[] = texts.map(() => l2normalize(new Float32Array(this.dims)));
    const todo = texts.flatMap((t, i) => (t.trim() ? [i] : []));
    for (let b = 0; b < todo.length; b += this.batchSize) {
      const at = todo.slice(b, b + this.batchSize);
      const vectors = await this.embedBatch(
        at.map((i) => texts[i] ?? ''),
        signal,
      );
      vectors.forEach((v, k) => {
        out[at[k] ?? 0] = v;
      });
    }
    return out;
  }

  private async embedBatch(input: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    signal?.throwIfAborted();
    const sdk = await this.client();
    const { apiFailure, isAbortError, untilAborted } = this.errors!;
    let res: OpenAI.CreateEmbeddingResponse | undefined;
    // A body cut off before its end is read outside the SDK's retries: tried again here, as a 5xx is.
    for (let attempt = 1; !res; attempt++) {
      try {
        res = await untilAborted(
          sdk.embeddings.create({ model: this.opts.model, input, encoding_format: 'float' }, signal ? { signal } : {}),
          signal,
        );
      } catch (err) {
        if (signal?.aborted || isAbortError(err)) throw signal?.reason ?? err;
        const f = apiFailure(err);
        if (f?.code !== 'cut' || attempt >= this.attempts) throw this.failure(f, err);
        await sleep(Math.min(8000, 250 * 2 ** attempt), undefined, signal ? { signal } : {});
      }
    }
    return this.vectors(res, input.length);
  }

  private failure(f: ApiFailure | undefined, err: unknown): EmbedError {
    if (!f)
      return new EmbedError(
        `Embedding request to ${this.shownURL} failed: ${redactKey(String(err), this.opts.apiKey)}`,
        { url: this.shownURL, cause: err },
      );
    const detail = redactKey(f.detail, this.opts.apiKey);
    const retried =
      f.status === undefined || f.status === 429 || f.status >= 500 ? ` after ${this.attempts} attempts` : '';
    const what =
      f.status === undefined
        ? `${f.timeout ? 'no answer in time' : f.code === 'cut' ? 'reply cut off before its end' : 'network error'} (${detail})`
        : `HTTP ${f.status}: ${detail}`;
    const opts = f.status === undefined ? { url: this.shownURL } : { url: this.shownURL, status: f.status };
    return new EmbedError(`Embedding request to ${this.shownURL} failed${retried}: ${what}${hint(f.status)}`, opts);
  }

  private vectors(res: OpenAI.CreateEmbeddingResponse, expected: number): Float32Array[] {
    const data = Array.isArray(res?.data) ? res.data : undefined;
    if (!data || data.length !== expected) {
      throw new EmbedError(
        `Unexpected answer from ${this.shownURL}: ${data ? `${data.length} embeddings` : 'no "data" array'}, expected ${expected}`,
        {
          url: this.shownURL,
        },
      );
    }
    const sorted = data.map((d, i) => ({
      index: typeof d.index === 'number' ? d.index : i,
      embedding: d.embedding as unknown,
    }));
    sorted.sort((a, b) => a.index - b.index);
    return sorted.map(({ embedding }) => this.vector(embedding));
  }

  private vector(embedding: unknown): Float32Array {
    if (!Array.isArray(embedding) || embedding.length !== this.dims) {
      const got = Array.isArray(embedding)
        ? `vectors of ${embedding.length} numbers`
        : 'something that is not a vector';
      throw new EmbedError(
        `The embedding server at ${this.shownURL} returned ${got} for model "${this.opts.model}", but embedding.dims is ${this.dims}. ` +
          (Array.isArray(embedding)
            ? `Set "dims": ${embedding.length} under "embedding" in kb.config.json.`
            : 'Check embedding.model and embedding.baseURL.'),
        { url: this.shownURL },
      );
    }
    const v = new Float32Array(this.dims);
    for (let i = 0; i < this.dims; i++) {
      const x = embedding[i] as unknown;
      if (typeof x !== 'number' || !Number.isFinite(x)) {
        throw new EmbedError(
          `Unexpected value in an embedding from ${this.shownURL}: ${String(x)} at position ${i}, expected a number`,
          { url: this.shownURL },
        );
      }
      v[i] = x;
    }
    return l2normalize(v);
  }
}

/** The URL without a user:password part. */
function redactURL(url: string): string {
  return url.replace(/^(https?:\/\/)[^/@]*@/i, '$1');
}

function redactKey(text: string, key: string | undefined): string {
  return key ? text.split(key).join('***') : text;
}

function hint(status: number | undefined): string {
  if (status === 401 || status === 403)
    return ' (check the API key in the environment variable named by embedding.apiKeyEnv)';
  if (status === 404) return ' (check embedding.baseURL and embedding.model)';
  return '';
}
