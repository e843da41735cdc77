import type { KbConfig } from '../config/defaults.js';
import { KbError } from '../diagnostics/errors.js';
import { countTokens } from '../text/tokens.js';
import { sha256 } from '../util/hash.js';
import { costUsd, type ModelPrice } from './price.js';
import type { ProviderSettings } from './provider.js';
import { zeroUsage, type ModelResponse, type ModelUsage } from './usage.js';

export interface ModelRequest {
  /** What the call is for ('compile-source', 'concept', 'answer', …): kept with usage rows. */
  task: string;
  /** Hash of the template the prompt came from: part of the cache key. */
  templateHash: string;
  system: string;
  /** The stable part of the prompt (catalog, long instructions): sent with cache_control. */
  cachedPrefix?: string;
  /**
   * Context of this call only, sent right after the cached prefix and outside the prompt cache
   * (the catalog entries related to the call that the shared catalog leaves out).
   */
  relatedContext?: string;
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

export interface ModelSpend {
  calls: number;
  usage: ModelUsage;
  usd: number;
  cached?: number;
}

export interface ModelClient {
  /** The model's name as shown and stamped on entries (provider/name for providers other than Claude). */
  readonly model: string;
  /** Where the default model is (absent in test fakes). */
  readonly settings?: ProviderSettings | undefined;
  /** Where the model of a request's task is (model.tasks). */
  settingsFor?(task: string): ProviderSettings | undefined;
  complete(req: ModelRequest, signal?: AbortSignal): Promise<ModelResponse>;
  /** What this client paid for so far (cache hits cost nothing; `cached` counts them). */
  spent(): ModelSpend;
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
 * The model could not be reached in time, or answered with something that is not a reply (a 200
 * with broken JSON, a proxy's page). Transient, like a 529: the entry falls back to the offline
 * compiler and the next compile asks again. Not a KbError: it does not stop a compile.
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

/** A reply is "slow" after this long: below it, nothing is shown. */
export const WAIT_NOTICE_SECONDS = 3;

export interface ModelClientOptions {
  baseURL?: string;
  /** Retries of 429/529/5xx/timeouts by the SDK (honours retry-after). Default: model.maxRetries. */
  maxRetries?: number;
  /** Per-request timeout in ms. Default: model.timeoutSeconds (600 s; 1800 s for a local model). */
  timeoutMs?: number;
  /** Refuse (BudgetExceededError) any call whose worst-case cost would take the total past this. */
  maxCostUsd?: number;
  /**
   * Told every second while a call has waited `WAIT_NOTICE_SECONDS` or more, and `undefined` when
   * nothing waits any more: the CLI shows "waiting for the model (45 s)…" on a terminal.
   */
  onWaiting?: (wait: ModelWait | undefined) => void;
}

/** The cache key of a request: sha256 over every part that changes the answer. */
export function requestKey(model: string, req: ModelRequest): string {
  return sha256(
    JSON.stringify([
      model,
      req.templateHash,
      req.system,
      req.cacheKey !== undefined
        ? ['key', req.cacheKey]
        : [req.cachedPrefix ?? '', req.prompt, ...(req.relatedContext ? [req.relatedContext] : [])],
      req.maxTokens ?? null,
      req.tools ?? null,
    ]),
  );
}

/** Input tokens of a request as kb estimates them (the API's count is known only afterwards). */
export function requestTokens(req: ModelRequest): number {
  return (
    countTokens(req.system) +
    countTokens(req.cachedPrefix ?? '') +
    countTokens(req.relatedContext ?? '') +
    countTokens(req.prompt) +
    10
  );
}

/** The most a call can cost: every input token at the full price, and a reply of max_tokens. */
export function worstCaseUsd(config: KbConfig, price: ModelPrice | undefined, req: ModelRequest): number {
  const u = zeroUsage();
  u.input_tokens = Math.ceil(requestTokens(req) * 1.2);
  u.output_tokens = req.maxTokens ?? config.model.maxTokens;
  return costUsd(u, price);
}
