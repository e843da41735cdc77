import { setMaxListeners } from 'node:events';
import Anthropic from '@anthropic-ai/sdk';
import type { KbConfig, ModelTask } from '../config/defaults.js';
import type { KbPaths } from '../kb/paths.js';
import { ResponseCache } from './cache.js';
import { costUsd, priceFor, type ModelPrice } from './price.js';
import { apiFailure } from './errors.js';
import { describeEndpoint, routedName, taskOf, type ProviderSettings } from './provider.js';
import {
  BudgetExceededError,
  ModelUnavailableError,
  requestKey,
  WAIT_NOTICE_SECONDS,
  worstCaseUsd,
  type ModelClient,
  type ModelClientOptions,
  type ModelRequest,
  type ModelSpend,
} from './request.js';
import { addUsage, zeroUsage, type ModelResponse } from './usage.js';

/** One API call to a provider, whatever its protocol: text, stop reason and usage back. */
export interface Transport {
  send(req: ModelRequest, maxTokens: number, signal?: AbortSignal): Promise<Omit<ModelResponse, 'cached'>>;
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

/** Listeners one run's abort signal may have before Node warns of a leak: far above any model.concurrency. */
const SIGNAL_LISTENERS = 200;

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

/** The price of a model: model.prices in kb.config.json first, then the provider preset's. */
export function priceOf(config: KbConfig, s: ProviderSettings): ModelPrice | undefined {
  return priceFor(config, s.model) ?? s.price;
}

/**
 * A model behind a transport, with what every provider gets alike: the reply cache (keyed by
 * provider and model), the concurrency gate, `--max-cost`, and spending.
 */
export class CachedModelClient implements ModelClient {
  readonly model: string;
  private readonly cache: ResponseCache;
  private readonly gate: Semaphore;
  private readonly price: ModelPrice | undefined;
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
    readonly settings: ProviderSettings,
    private readonly transport: Transport,
    private readonly opts: ModelClientOptions,
  ) {
    this.model = settings.id;
    this.timeoutMs = opts.timeoutMs ?? settings.timeoutMs;
    this.maxRetries = opts.maxRetries ?? settings.maxRetries;
    this.price = priceOf(config, settings);
    this.cache = ResponseCache.open(paths);
    this.gate = new Semaphore(Math.max(1, config.model.concurrency));
  }

  /**
   * One API call, with its time waited reported. A timeout, or a reply that is not a reply (a 200
   * with broken JSON, a proxy's page, a body cut off before its end), becomes a ModelUnavailableError;
   * a reply that is not a reply is tried again like a 5xx (the SDKs retry those themselves), up to
   * `maxRetries` times.
   */
  private async send(
    req: ModelRequest,
    maxTokens: number,
    signal?: AbortSignal,
  ): Promise<Omit<ModelResponse, 'cached'>> {
    const id = this.nextWait++;
    this.waiting.set(id, Date.now());
    this.tick();
    try {
      for (let attempt = 0; ; attempt++) {
        let problem: ModelUnavailableError;
        try {
          return await this.transport.send(req, maxTokens, signal);
        } catch (err) {
          const f = apiFailure(err);
          if (f?.timeout) {
            const tries = this.maxRetries ? `, tried ${this.maxRetries + 1} times` : '';
            throw new ModelUnavailableError(
              `timeout: no reply from the model within ${this.timeoutMs / 1000} s (model.timeoutSeconds in kb.config.json)${tries}`,
              { cause: err },
            );
          }
          if (f?.code !== 'malformed' && f?.code !== 'cut') throw err;
          // The SDKs read and parse a 200's body outside their own error types and retries: broken
          // JSON is a SyntaxError, a body cut off before its end a TypeError from fetch.
          const what =
            f.code === 'cut'
              ? `reply from ${this.label()} cut off before its end (${f.detail}), tried ${attempt + 1} time${attempt ? 's' : ''}`
              : err instanceof SyntaxError
                ? `reply from ${this.label()} that is not valid JSON (${err.message})`
                : (err as Error).message;
          problem = new ModelUnavailableError(what, { cause: err });
        }
        if (attempt >= this.maxRetries) throw problem;
        await pause(Math.min(8000, 500 * 2 ** attempt), signal);
      }
    } finally {
      this.waiting.delete(id);
      this.tick();
    }
  }

  private label(): string {
    return this.settings.kind === 'anthropic'
      ? 'the Anthropic API'
      : `${this.settings.label} at ${describeEndpoint(this.settings)}`;
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
    // Every call in flight (and each retry's pause) listens on the one abort signal of the run:
    // model.concurrency calls, with the SDK's own listeners, pass Node's default warning mark of 10.
    if (signal) setMaxListeners(SIGNAL_LISTENERS, signal);
    const key = requestKey(this.model, req);
    const cachedReply = this.cache.get(key);
    const hit = cachedReply && (!req.keep || req.keep(cachedReply)) ? cachedReply : undefined;
    // Kept by an older kb, or a batch result: a reply that fails its checks is asked for again.
    if (cachedReply && !hit) this.cache.drop(key);
    if (hit) {
      // A reply this run already paid for or counted is not "from the cache" a second time.
      if (!this.seen.has(key)) this.hits++;
      this.seen.add(key);
      return { ...hit, cached: true };
    }
    const maxTokens = req.maxTokens ?? this.config.model.maxTokens;
    const res = await this.gate.run(async () => {
      // Checked inside the gate: concurrent calls see each other's spending.
      if (this.opts.maxCostUsd === undefined) return this.send(req, maxTokens, signal);
      const worst = worstCaseUsd(this.config, this.price, req);
      if (this.usd + this.reserved + worst > this.opts.maxCostUsd)
        throw new BudgetExceededError(this.opts.maxCostUsd, this.usd);
      this.reserved += worst;
      try {
        return await this.send(req, maxTokens, signal);
      } finally {
        this.reserved -= worst;
      }
    });
    const usd = costUsd(res.usage, this.price);
    this.calls++;
    this.usage = addUsage(this.usage, res.usage);
    this.usd += usd;
    if (!req.keep || req.keep(res)) this.cache.put(key, this.model, req.task, res, usd);
    this.seen.add(key);
    return { ...res, cached: false };
  }

  settingsFor(): ProviderSettings {
    return this.settings;
  }

  spent(): ModelSpend {
    return { calls: this.calls, usage: { ...this.usage }, usd: this.usd, cached: this.hits };
  }

  isCached(req: ModelRequest): boolean {
    const reply = this.cache.get(requestKey(this.model, req));
    return reply !== undefined && (!req.keep || req.keep(reply));
  }
}

/** `model.tasks`: each request goes to the model of its task, the rest to the default model. */
export class RoutedModelClient implements ModelClient {
  readonly model: string;
  readonly settings: ProviderSettings | undefined;

  constructor(
    private readonly base: ModelClient,
    private readonly byTask: Map<ModelTask, ModelClient>,
  ) {
    this.settings = base.settings;
    // Part of the writer's name: changing a task's model recompiles what it wrote.
    this.model = routedName(
      base.model,
      [...byTask].map(([t, c]) => [t, c.model]),
    );
  }

  /** The client that answers a request of this task. */
  clientFor(requestTask: string): ModelClient {
    const t = taskOf(requestTask);
    return (t && this.byTask.get(t)) || this.base;
  }

  settingsFor(task: string): ProviderSettings | undefined {
    const c = this.clientFor(task);
    return c.settingsFor?.(task) ?? c.settings;
  }

  complete(req: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    return this.clientFor(req.task).complete(req, signal);
  }

  spent(): ModelSpend {
    const all = [this.base, ...new Set(this.byTask.values())].map((c) => c.spent());
    return all.reduce((a, b) => ({
      calls: a.calls + b.calls,
      usage: addUsage(a.usage, b.usage),
      usd: a.usd + b.usd,
      cached: (a.cached ?? 0) + (b.cached ?? 0),
    }));
  }

  isCached(req: ModelRequest): boolean {
    return this.clientFor(req.task).isCached?.(req) ?? false;
  }
}
