import Anthropic from '@anthropic-ai/sdk';
import { DEFAULT_CONFIG, type KbConfig } from '../config/defaults.js';
import type { KbPaths } from '../kb/paths.js';
import { KbError } from '../diagnostics/errors.js';
import { countTokens } from '../text/tokens.js';
import { sha256 } from '../util/hash.js';
import { ResponseCache } from './cache.js';
import { costUsd, priceFor } from './price.js';
import { addUsage, zeroUsage, type ModelResponse, type ModelUsage } from './usage.js';

export { addUsage, zeroUsage, type ModelResponse, type ModelUsage } from './usage.js';

export interface ModelRequest {
  /** What the call is for ('compile-source', 'concept', 'answer', …): kept with usage rows. */
  task: string;
  /** Hash of the template the prompt came from: part of the cache key. */
  templateHash: string;
  system: string;
  /** The stable part of the prompt (catalog, long instructions): sent with cache_control. */
  cachedPrefix?: string;
  prompt: string;
  maxTokens?: number;
  tools?: unknown[];
  /**
   * Identity of the input when the prompt carries volatile context that should not bust the cache
   * (the catalog of existing entries): replaces cachedPrefix + prompt in the cache key.
   */
  cacheKey?: string;
  /** Whether a reply is worth keeping in the cache; one it is not is asked for again next time. */
  keep?: (res: { text: string; stopReason: string }) => boolean;
}

export interface ModelClient {
  readonly model: string;
  complete(req: ModelRequest, signal?: AbortSignal): Promise<ModelResponse>;
  /** What this client paid for so far (cache hits cost nothing; `cached` counts them). */
  spent(): { calls: number; usage: ModelUsage; usd: number; cached?: number };
  /** True when the reply to this request is already in the cache (a call would be free). */
  isCached?(req: ModelRequest): boolean;
}

/** Thrown before a call that could take spending past `--max-cost`; nothing is half-written. */
export class BudgetExceededError extends KbError {
  constructor(
    readonly limitUsd: number,
    readonly spentUsd: number,
  ) {
    super(
      `Stopped before passing --max-cost $${limitUsd.toFixed(2)}: spent $${spentUsd.toFixed(4)} so far, and the next call could cost more than what is left. Replies paid for are cached: run \`kb compile\` again with a higher --max-cost to finish without paying for them twice.`,
    );
    this.name = 'BudgetExceededError';
  }
}

/**
 * The model could not be reached in time, or answered with something that is not a Messages API
 * reply (a 200 with broken JSON, a proxy's page). Transient, like a 529: the entry falls back to
 * the offline compiler and the next compile asks again. Not a KbError: it does not stop a compile.
 */
export class ModelUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ModelUnavailableError';
  }
}

/** Calls waiting for a reply: how long the oldest has waited. */
export interface ModelWait {
  seconds: number;
  calls: number;
}

export interface ModelClientOptions {
  baseURL?: string;
  /** Retries of 429/529/5xx/timeouts by the SDK (honours retry-after). Default: model.maxRetries. */
  maxRetries?: number;
  /** Per-request timeout in ms. Default: model.timeoutSeconds. */
  timeoutMs?: number;
  /** Refuse (BudgetExceededError) any call whose worst-case cost would take the total past this. */
  maxCostUsd?: number;
  /**
   * Told every second while a call has waited `WAIT_NOTICE_SECONDS` or more, and `undefined` when
   * nothing waits any more: the CLI shows "waiting for the model (45 s)…" on a terminal.
   */
  onWaiting?: (wait: ModelWait | undefined) => void;
}

/** A reply is "slow" after this long: below it, nothing is shown. */
export const WAIT_NOTICE_SECONDS = 3;

/** The cache key of a request: sha256 over every part that changes the answer. */
export function requestKey(model: string, req: ModelRequest): string {
  return sha256(
    JSON.stringify([
      model,
      req.templateHash,
      req.system,
      req.cacheKey !== undefined ? ['key', req.cacheKey] : [req.cachedPrefix ?? '', req.prompt],
      req.maxTokens ?? null,
      req.tools ?? null,
    ]),
  );
}

/** The Messages API parameters of a request (shared by direct calls and batches). */
export function messageParams(model: string, defaultMaxTokens: number, req: ModelRequest): Anthropic.MessageCreateParamsNonStreaming {
  const system: Anthropic.TextBlockParam[] = [{ type: 'text', text: req.system }];
  if (req.cachedPrefix) system.push({ type: 'text', text: req.cachedPrefix, cache_control: { type: 'ephemeral' } });
  const params: Anthropic.MessageCreateParamsNonStreaming = {
    model,
    max_tokens: req.maxTokens ?? defaultMaxTokens,
    system,
    messages: [{ role: 'user', content: req.prompt }],
  };
  if (req.tools) params.tools = req.tools as Anthropic.Tool[];
  return params;
}

/** The SDK returns whatever JSON came back: a message has a list of content blocks. */
export function isMessage(msg: unknown): msg is Anthropic.Message {
  return typeof msg === 'object' && msg !== null && Array.isArray((msg as { content?: unknown }).content);
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Anthropic.APIUserAbortError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Anthropic.APIUserAbortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Text and usage out of a Messages API reply. */
export function readMessage(msg: Anthropic.Message): Omit<ModelResponse, 'cached'> {
  if (!isMessage(msg)) throw new ModelUnavailableError('reply from the Anthropic API that is not a message (no `content` list), expected a Messages API reply');
  const text = msg.content
    .filter((b): b is Anthropic.TextBlock => b.type === 'text')
    .map((b) => b.text)
    .join('');
  const u = msg.usage as Partial<ModelUsage> | undefined;
  return { text, stopReason: msg.stop_reason ?? 'unknown', usage: addUsage(zeroUsage(), u) };
}

class Semaphore {
  private active = 0;
  private waiting: (() => void)[] = [];
  constructor(private readonly max: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((r) => this.waiting.push(r));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

/** The Anthropic SDK client kb uses (exported for the batch path). */
export function sdkClient(env: NodeJS.ProcessEnv, opts: ModelClientOptions = {}): Anthropic {
  const baseURL = opts.baseURL ?? env['ANTHROPIC_BASE_URL'];
  return new Anthropic({
    apiKey: env['ANTHROPIC_API_KEY'] ?? null,
    authToken: null,
    ...(baseURL ? { baseURL } : {}),
    maxRetries: opts.maxRetries ?? DEFAULT_CONFIG.model.maxRetries,
    timeout: opts.timeoutMs ?? DEFAULT_CONFIG.model.timeoutSeconds * 1000,
    // The SDK's own warnings could echo request details; kb reports errors itself.
    logLevel: 'off',
  });
}

class AnthropicModelClient implements ModelClient {
  readonly model: string;
  private readonly sdk: Anthropic;
  private readonly cache: ResponseCache;
  private readonly gate: Semaphore;
  private calls = 0;
  private usage = zeroUsage();
  private usd = 0;
  private reserved = 0;
  private hits = 0;
  private readonly seen = new Set<string>();
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  /** Start times of the calls waiting for a reply. */
  private readonly waiting = new Map<number, number>();
  private nextWait = 0;
  private ticker: NodeJS.Timeout | undefined;

  constructor(
    private readonly config: KbConfig,
    paths: KbPaths,
    env: NodeJS.ProcessEnv,
    private readonly opts: ModelClientOptions,
  ) {
    this.model = config.model.name;
    this.timeoutMs = opts.timeoutMs ?? config.model.timeoutSeconds * 1000;
    this.maxRetries = opts.maxRetries ?? config.model.maxRetries;
    this.sdk = sdkClient(env, { ...opts, timeoutMs: this.timeoutMs, maxRetries: this.maxRetries });
    this.cache = ResponseCache.open(paths);
    this.gate = new Semaphore(Math.max(1, config.model.concurrency));
  }

  /**
   * One API call, with its time waited reported. A timeout, or a reply that is not a message (a 200
   * with broken JSON, a proxy's page), becomes a ModelUnavailableError; a reply that is not a
   * message is tried again like a 5xx (the SDK retries those itself), up to `maxRetries` times.
   */
  private async send(params: Anthropic.MessageCreateParamsNonStreaming, signal?: AbortSignal): Promise<Anthropic.Message> {
    const id = this.nextWait++;
    this.waiting.set(id, Date.now());
    this.tick();
    try {
      for (let attempt = 0; ; attempt++) {
        let problem: ModelUnavailableError;
        try {
          const msg = await this.sdk.messages.create(params, signal ? { signal } : {});
          if (isMessage(msg)) return msg;
          problem = new ModelUnavailableError('reply from the Anthropic API that is not a message (no `content` list), expected a Messages API reply');
        } catch (err) {
          if (err instanceof Anthropic.APIConnectionTimeoutError) {
            const tries = this.maxRetries ? `, tried ${this.maxRetries + 1} times` : '';
            throw new ModelUnavailableError(`no reply from the model within ${this.timeoutMs / 1000} s (model.timeoutSeconds in kb.config.json)${tries}`, { cause: err });
          }
          // The SDK parses a 200's body outside its own error types: broken JSON is a SyntaxError.
          if (!(err instanceof SyntaxError)) throw err;
          problem = new ModelUnavailableError(`reply from the Anthropic API that is not valid JSON (${err.message})`, { cause: err });
        }
        if (attempt >= this.maxRetries) throw problem;
        await pause(Math.min(8000, 500 * 2 ** attempt), signal);
      }
    } finally {
      this.waiting.delete(id);
      this.tick();
    }
  }

  /** Report waiting calls each second while there are some; clear the report when there are none. */
  private tick(): void {
    const report = this.opts.onWaiting;
    if (!report) return;
    if (this.waiting.size === 0) {
      if (this.ticker) clearInterval(this.ticker);
      this.ticker = undefined;
      report(undefined);
      return;
    }
    this.ticker ??= setInterval(() => {
      const oldest = Math.min(...this.waiting.values());
      const seconds = Math.floor((Date.now() - oldest) / 1000);
      if (seconds >= WAIT_NOTICE_SECONDS) report({ seconds, calls: this.waiting.size });
    }, 1000).unref();
  }

  async complete(req: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    const key = requestKey(this.model, req);
    const cachedReply = this.cache.get(key);
    const hit = cachedReply && (!req.keep || req.keep(cachedReply)) ? cachedReply : undefined;
    if (hit) {
      // A reply this run already paid for or counted is not "from the cache" a second time.
      if (!this.seen.has(key)) this.hits++;
      this.seen.add(key);
      return { ...hit, cached: true };
    }
    const params = messageParams(this.model, this.config.model.maxTokens, req);
    const msg = await this.gate.run(async () => {
      // Checked inside the gate: concurrent calls see each other's spending.
      if (this.opts.maxCostUsd !== undefined) {
        const worst = worstCaseUsd(this.config, this.model, req);
        if (this.usd + this.reserved + worst > this.opts.maxCostUsd) throw new BudgetExceededError(this.opts.maxCostUsd, this.usd);
        this.reserved += worst;
        try {
          return await this.send(params, signal);
        } finally {
          this.reserved -= worst;
        }
      }
      return this.send(params, signal);
    });
    const res = readMessage(msg);
    const usd = costUsd(res.usage, priceFor(this.config, this.model));
    this.calls++;
    this.usage = addUsage(this.usage, res.usage);
    this.usd += usd;
    if (!req.keep || req.keep(res)) this.cache.put(key, this.model, req.task, res, usd);
    this.seen.add(key);
    return { ...res, cached: false };
  }

  spent(): { calls: number; usage: ModelUsage; usd: number; cached: number } {
    return { calls: this.calls, usage: { ...this.usage }, usd: this.usd, cached: this.hits };
  }

  isCached(req: ModelRequest): boolean {
    return this.cache.get(requestKey(this.model, req)) !== undefined;
  }
}

/** Input tokens of a request as kb estimates them (the API's count is known only afterwards). */
export function requestTokens(req: ModelRequest): number {
  return countTokens(req.system) + countTokens(req.cachedPrefix ?? '') + countTokens(req.prompt) + 10;
}

/** The most a call can cost: every input token at the full price, and a reply of max_tokens. */
export function worstCaseUsd(config: KbConfig, model: string, req: ModelRequest): number {
  const u = zeroUsage();
  u.input_tokens = Math.ceil(requestTokens(req) * 1.2);
  u.output_tokens = req.maxTokens ?? config.model.maxTokens;
  return costUsd(u, priceFor(config, model));
}

/**
 * The model client, or undefined when env.ANTHROPIC_API_KEY is not set. Every call is cached in
 * `<root>/.kb/cache.db`, so rebuilding the wiki never pays twice; the key is never logged.
 */
export function createModelClient(
  ctx: { paths: KbPaths; config: KbConfig; env: NodeJS.ProcessEnv },
  opts: ModelClientOptions = {},
): ModelClient | undefined {
  if (!ctx.env['ANTHROPIC_API_KEY']) return undefined;
  return new AnthropicModelClient(ctx.config, ctx.paths, ctx.env, opts);
}
