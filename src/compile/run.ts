import { existsSync } from 'node:fs';
import type { KbContext } from '../kb/context.js';
import { appendLog } from '../emit/indexes.js';
import { BudgetExceededError, requestKey } from '../model/request.js';
import type { ModelUsage } from '../model/usage.js';
import { cachePath, ResponseCache } from '../model/cache.js';
import { compile } from './compile.js';
import type { BatchSummary } from './model/batch.js';
import { modelPlan, settingsForTask } from '../model/provider.js';
import type { CompileEstimate } from './model/estimate.js';
import type { ModelWriter } from './model/writer.js';
import { batchLine, changedSomething, summaryLine, usageLine } from './report.js';
import type { CompileReport } from './types.js';

export interface CompileKbOptions {
  force?: boolean;
  /** The model writer (`createModelWriter`); without one the offline compiler writes. */
  writer?: ModelWriter | undefined;
  /** Send the source calls through the Message Batches API (half price). */
  batch?: boolean;
  maxCostUsd?: number | undefined;
  /** The command wiki/log.md names: `watch` logs only the rounds that changed the wiki. */
  command?: 'compile' | 'watch';
  signal?: AbortSignal | undefined;
  /** Progress by phase: `model` and `batch` (the model's calls), then compile's own phases. */
  onProgress?: ((phase: string, done: number, total: number) => void) | undefined;
  /** Per-file lines for --verbose. */
  onFile?: ((line: string) => void) | undefined;
  /** Lines about the batch (submitted, polling, resumed). */
  onStatus?: ((line: string) => void) | undefined;
}

/** What the model did in a compile. */
export interface ModelSpend {
  name: string;
  calls: number;
  cached: number;
  usage: ModelUsage;
  usd: number;
  /** Documents the model could not write, compiled offline instead. */
  fallbacks: string[];
}

export interface CompileKbResult {
  report: CompileReport;
  model: ModelSpend | null;
  batch: BatchSummary | undefined;
  /** The lines written to wiki/log.md under the summary (batch, model usage). */
  details: string[];
}

/**
 * `kb compile` and every round of `kb watch`: the model's source calls first (a batch, or
 * concurrently), then compile; documents the model could not write for a transient reason are
 * marked to be compiled again next time, and wiki/log.md gets a line. The caller holds the lock.
 */
export async function compileKb(ctx: KbContext, opts: CompileKbOptions = {}): Promise<CompileKbResult> {
  const { writer } = opts;
  const force = Boolean(opts.force);
  const command = opts.command ?? 'compile';
  let batch: BatchSummary | undefined;
  let report: CompileReport;
  try {
    // The sources and the catalog they get (with the concepts this compile plans), read once.
    const work = writer
      ? await (await import('./model/planned.js')).sourceWork(ctx, writer.name, force, opts.signal)
      : undefined;
    if (writer && opts.batch) {
      const { runSourceBatch } = await import('./model/batch.js');
      batch = await runSourceBatch(ctx, writer, {
        force,
        ...(opts.maxCostUsd !== undefined ? { maxCostUsd: opts.maxCostUsd } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.onStatus ? { onStatus: opts.onStatus } : {}),
        ...(work ? { work } : {}),
        onProgress: (done, total) => opts.onProgress?.('batch', done, total),
      });
    } else if (writer) {
      const { prefetchSources } = await import('./model/batch.js');
      await prefetchSources(ctx, writer, {
        force,
        ...(work ? { work } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
        onProgress: (done, total) => opts.onProgress?.('model', done, total),
      });
    }
    report = await compile(ctx, {
      force,
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(writer ? { writer } : {}),
      ...(work ? { catalog: work.catalog } : {}),
      onProgress: (e) => opts.onProgress?.(e.phase, e.done, e.total),
      ...(opts.onFile ? { onFile: opts.onFile } : {}),
    });
  } catch (err) {
    if (writer && err instanceof BudgetExceededError)
      appendLog(ctx.paths.wiki, command, 'stopped at --max-cost', [usageLine(writer.client)]);
    throw err;
  }
  // An entry the model could not write for a transient reason is compiled again next time.
  if (writer) for (const p of writer.retryLater) ctx.store.setDocumentCompiler(p, `${writer.name}!retry`);
  const spent = writer?.client.spent();
  const line = batch && batchLine(batch);
  const details = [...(line ? [line] : []), ...(writer ? [usageLine(writer.client)] : [])];
  const summary = summaryLine(report).replace(/ \([\d.]+ s\)$/, '');
  if (command === 'watch') {
    if (changedSomething(report)) appendLog(ctx.paths.wiki, 'watch', summary);
  } else if (changedSomething(report) || (spent && spent.calls > 0) || line) {
    appendLog(ctx.paths.wiki, 'compile', summary, details);
  }
  const model =
    writer && spent
      ? {
          name: writer.client.model,
          calls: spent.calls,
          cached: spent.cached ?? 0,
          usage: spent.usage,
          usd: spent.usd,
          fallbacks: [...writer.fallbacks],
        }
      : null;
  return { report, model, batch, details };
}

/** `kb compile --estimate`: calls, tokens and dollars a model compile would take, without calling the API. */
export async function estimateKb(ctx: KbContext, opts: { force?: boolean } = {}): Promise<CompileEstimate> {
  const cache = existsSync(cachePath(ctx.paths)) ? ResponseCache.open(ctx.paths) : undefined;
  try {
    const plan = modelPlan(ctx.config, ctx.env);
    const { estimateCompile } = await import('./model/estimate.js');
    return await estimateCompile(ctx, {
      force: Boolean(opts.force),
      ...(cache ? { repairs: cache.repairShare() } : {}),
      ...(cache ? { isCached: (r) => cache.get(requestKey(settingsForTask(plan, r.task).id, r)) !== undefined } : {}),
    });
  } finally {
    cache?.close();
  }
}
