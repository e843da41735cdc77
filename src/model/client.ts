import Anthropic from '@anthropic-ai/sdk';
import type { KbConfig } from '../config/defaults.js';
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

export interface ModelClientOptions {
  baseURL?: string;
  /** Retries of 429/529/5xx/timeouts by the SDK (honours retry-after). Default 4. */
  maxRetries?: number;
  /** Per-request timeout in ms. Default 10 minutes. */
  timeoutMs?: number;
  /** Refuse (BudgetExceededError) any call whose worst-case cost would take the total past this. */
  maxCostUsd?: number;
}

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

/** Text and usage out of a Messages API reply. */
export function readMessage(msg: Anthropic.Message): Omit<ModelResponse, 'cached'> {
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
    maxRetries: opts.maxRetries ?? 4,
    timeout: opts.timeoutMs ?? 10 * 60 * 1000,
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

  constructor(
    private readonly config: KbConfig,
    paths: KbPaths,
    env: NodeJS.ProcessEnv,
    private readonly opts: ModelClientOptions,
  ) {
    this.model = config.model.name;
    this.sdk = sdkClient(env, opts);
    this.cache = ResponseCache.open(paths);
    this.gate = new Semaphore(Math.max(1, config.model.concurrency));
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
          return await this.sdk.messages.create(params, signal ? { signal } : {});
        } finally {
          this.reserved -= worst;
        }
      }
      return this.sdk.messages.create(params, signal ? { signal } : {});
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
