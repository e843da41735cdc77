import type { KbContext } from '../../kb/context.js';
import { InterruptedError, KbError, UsageError } from '../../diagnostics/errors.js';
import {
  addUsage,
  BudgetExceededError,
  messageParams,
  isMessage,
  readMessage,
  requestKey,
  sdkClient,
  worstCaseUsd,
  zeroUsage,
  type ModelRequest,
  type ModelUsage,
} from '../../model/client.js';
import { ResponseCache } from '../../model/cache.js';
import { costUsd, priceFor } from '../../model/price.js';
import { describeProvider } from '../../model/provider.js';
import { type SourceWork, sourceWork } from './planned.js';
import { sourceParts, sourceRequest } from './prompts.js';
import type { ModelWriter } from './writer.js';

/**
 * Ask the model for every source the compile will need, concurrently (bounded by the client), so
 * that compile() — which writes one document after another — finds each reply in the cache.
 * Diagnostics are left to compile(), which replays the same checked calls from the cache.
 */
export async function prefetchSources(
  ctx: KbContext,
  writer: ModelWriter,
  opts: {
    force?: boolean;
    signal?: AbortSignal;
    onProgress?: (done: number, total: number) => void;
    /** The sources and catalog of this compile (sourceWork), when the caller has them already. */
    work?: SourceWork;
  } = {},
): Promise<void> {
  writer.startRound();
  const { docs, catalog, currentOf } =
    opts.work ?? (await sourceWork(ctx, writer.name, Boolean(opts.force), opts.signal));
  if (docs.length < 2) return;
  let done = 0;
  const settled = await Promise.allSettled(
    docs.map(async (d) => {
      // The request compile sends: an edited source's updates its current entry.
      await writer.writeSource(d, catalog, opts.signal, currentOf(d));
      opts.onProgress?.(++done, docs.length);
    }),
  );
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  // compile() replays these calls from the cache and reports what it finds itself.
  writer.retryLater.clear();
  writer.fallbacks.clear();
}

interface PendingBatch {
  id: string;
  model: string;
  created: number;
  /** custom_id → what to cache the reply under. */
  items: Record<string, { key: string; task: string }>;
}

export interface BatchSummary {
  id: string | undefined;
  submitted: number;
  succeeded: number;
  failed: number;
  resumed: boolean;
  usage: ModelUsage;
  usd: number;
}

const STATE_KEY = 'pending_batch';

/** The source requests compile would make, by request key, less those whose reply is cached. */
async function uncachedRequests(
  ctx: KbContext,
  writer: ModelWriter,
  force: boolean,
  signal?: AbortSignal,
  work?: SourceWork,
): Promise<Map<string, ModelRequest>> {
  const { docs, catalog, currentOf } = work ?? (await sourceWork(ctx, writer.name, force, signal));
  const reqs = new Map<string, ModelRequest>();
  for (const doc of docs) {
    const parts = sourceParts(doc, writer.budget.partTokens);
    const list =
      parts.length === 1
        ? [sourceRequest(writer.templates, writer.budget, doc, catalog, undefined, currentOf(doc))]
        : parts.map((text, i) =>
            sourceRequest(writer.templates, writer.budget, doc, catalog, { n: i + 1, of: parts.length, text }),
          );
    const model =
      (writer.client.settingsFor?.('compile-source') ?? writer.client.settings)?.model ?? writer.client.model;
    for (const r of list) if (!writer.client.isCached?.(r)) reqs.set(requestKey(model, r), r);
  }
  return reqs;
}

/**
 * `kb compile --batch`: the source compiles go through the Message Batches API (half price). The
 * batch id is stored in .kb/cache.db as soon as it exists, so an interrupted run resumes polling
 * the same batch instead of paying again. Replies land in the response cache; compile() then
 * reads them there (combining long sources, repairs and concepts are direct calls).
 */
export async function runSourceBatch(
  ctx: KbContext,
  writer: ModelWriter,
  opts: {
    force?: boolean;
    signal?: AbortSignal;
    onStatus?: (line: string) => void;
    onProgress?: (done: number, total: number) => void;
    pollMs?: number;
    /** Refuse to submit a batch whose worst case (at batch price) passes this. */
    maxCostUsd?: number;
    /** The sources and catalog of this compile (sourceWork), when the caller has them already. */
    work?: SourceWork;
  } = {},
): Promise<BatchSummary> {
  const settings = writer.client.settingsFor?.('compile-source') ?? writer.client.settings;
  if (settings && settings.kind !== 'anthropic') {
    throw new UsageError(
      `--batch uses Anthropic's Message Batches API; source entries go to ${describeProvider(settings)}, which has none. Run \`kb compile\` without --batch.`,
    );
  }
  const sdk = sdkClient(ctx.env, {
    maxRetries: settings?.maxRetries ?? ctx.config.model.maxRetries,
    timeoutMs: settings?.timeoutMs ?? 600_000,
  });
  const cache = ResponseCache.open(ctx.paths);
  const summary: BatchSummary = {
    id: undefined,
    submitted: 0,
    succeeded: 0,
    failed: 0,
    resumed: false,
    usage: zeroUsage(),
    usd: 0,
  };
  const pollMs = opts.pollMs ?? Number(ctx.env['KB_BATCH_POLL_MS'] ?? 10_000);
  try {
    let pending = readPending(cache);
    if (pending) {
      summary.resumed = true;
      opts.onStatus?.(
        `Resuming batch ${pending.id} (${Object.keys(pending.items).length} requests, submitted ${new Date(pending.created * 1000).toISOString()}).`,
      );
    } else {
      const model = settings?.model ?? writer.client.model;
      const reqs = await uncachedRequests(ctx, writer, Boolean(opts.force), opts.signal, opts.work);
      if (reqs.size === 0) {
        opts.onStatus?.('Batch: nothing to send (every source reply is cached).');
        return summary;
      }
      if (opts.maxCostUsd !== undefined) {
        const worst = [...reqs.values()].reduce(
          (sum, r) => sum + worstCaseUsd(ctx.config, priceFor(ctx.config, model), r) / 2,
          0,
        );
        if (worst > opts.maxCostUsd) throw new BudgetExceededError(opts.maxCostUsd, 0);
      }
      const items: PendingBatch['items'] = {};
      const requests = [...reqs].map(([key, r], i) => {
        const custom_id = `kb-${i}`;
        items[custom_id] = { key, task: r.task };
        return { custom_id, params: messageParams(model, writer.budget.maxTokens, r) };
      });
      const created = await sdk.messages.batches.create({ requests }, opts.signal ? { signal: opts.signal } : {});
      pending = { id: created.id, model, created: Math.floor(Date.now() / 1000), items };
      cache.setState(STATE_KEY, JSON.stringify(pending));
      opts.onStatus?.(
        `Submitted batch ${created.id} with ${requests.length} requests; polling (Ctrl-C stops waiting, \`kb compile --batch\` resumes it).`,
      );
    }
    summary.id = pending.id;
    summary.submitted = Object.keys(pending.items).length;

    // Poll until the batch has ended.
    for (;;) {
      if (opts.signal?.aborted) throw interrupted(pending.id);
      let b: Awaited<ReturnType<typeof sdk.messages.batches.retrieve>>;
      try {
        b = await sdk.messages.batches.retrieve(pending.id, {}, opts.signal ? { signal: opts.signal } : {});
      } catch (err) {
        if (opts.signal?.aborted) throw interrupted(pending.id);
        throw err;
      }
      const c = b.request_counts;
      opts.onProgress?.(c.succeeded + c.errored + c.canceled + c.expired, summary.submitted);
      if (b.processing_status === 'ended') break;
      await sleep(pollMs, opts.signal).catch(() => {
        throw interrupted(pending!.id);
      });
    }

    const price = priceFor(ctx.config, pending.model);
    for await (const r of await sdk.messages.batches.results(pending.id)) {
      const item = pending.items[r.custom_id];
      if (!item) continue;
      // A result that is not a message is a failed one: compiled directly afterwards, like an errored one.
      if (r.result.type !== 'succeeded' || !isMessage(r.result.message)) {
        summary.failed++;
        continue;
      }
      const res = readMessage(r.result.message);
      const usd = costUsd(res.usage, price, true);
      cache.put(item.key, pending.model, item.task, res, usd, true);
      summary.usage = addUsage(summary.usage, res.usage);
      summary.usd += usd;
      summary.succeeded++;
    }
    cache.setState(STATE_KEY, undefined);
    opts.onStatus?.(
      `Batch ${pending.id}: ${summary.succeeded} succeeded${summary.failed ? `, ${summary.failed} failed (compiled directly now)` : ''}; ${summary.usage.input_tokens.toLocaleString('en-US')} input + ${summary.usage.output_tokens.toLocaleString('en-US')} output tokens, $${summary.usd.toFixed(4)} at batch price.`,
    );
    return summary;
  } finally {
    cache.close();
  }
}

function readPending(cache: ResponseCache): PendingBatch | undefined {
  const raw = cache.getState(STATE_KEY);
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as PendingBatch;
  } catch {
    throw new KbError(
      `Unexpected unreadable pending batch in .kb/cache.db; delete the row \`${STATE_KEY}\` from its state table to start over.`,
    );
  }
}

function interrupted(id: string): InterruptedError {
  return new InterruptedError(
    `Stopped waiting for batch ${id}; it keeps running at Anthropic. Run \`kb compile --batch\` again to resume it (nothing is paid twice).`,
  );
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
