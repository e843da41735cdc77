import { existsSync } from 'node:fs';
import { compile } from '../../compile/compile.js';
import { appendLog } from '../../emit/indexes.js';
import { closeKb, openKb, type KbContext } from '../../kb/context.js';
import { acquireLock } from '../../kb/lock.js';
import { findKbRoot } from '../../kb/paths.js';
import { join } from 'node:path';
import { paint, printMessages } from '../io.js';
import { progressBar } from '../progress.js';
import type { CliRuntime } from '../main.js';
import type { CompileFlags } from './compile.js';
import type { CompileReport } from '../../compile/types.js';
import { UsageError } from '../../diagnostics/errors.js';
import { BudgetExceededError, createModelClient, requestKey, type ModelClient } from '../../model/client.js';
import { cachePath, ResponseCache } from '../../model/cache.js';
import { formatUsd } from '../../model/price.js';
import { ModelWriter } from '../../compile/model/writer.js';
import { estimateCompile, type CompileEstimate } from '../../compile/model/estimate.js';
import { prefetchSources, runSourceBatch } from '../../compile/model/batch.js';

export function summaryLine(r: CompileReport): string {
  const c = r.concepts;
  return `${r.new} new, ${r.updated} updated, ${r.unchanged} unchanged, ${r.deleted} deleted${r.renamed ? `, ${r.renamed} renamed` : ''}, ${r.skipped} skipped; concepts ${c.created} new, ${c.updated} updated, ${c.deleted} removed${r.protected.length ? `; ${r.protected.length} edited by you left alone` : ''} (${(r.elapsedMs / 1000).toFixed(1)} s)`;
}

const n = (x: number) => x.toLocaleString('en-US');

/** One line of model usage: calls, tokens from the API's usage fields, dollars. */
export function usageLine(client: ModelClient): string {
  const s = client.spent();
  const u = s.usage;
  const cache = u.cache_creation_input_tokens || u.cache_read_input_tokens ? ` (prompt cache: ${n(u.cache_creation_input_tokens)} written, ${n(u.cache_read_input_tokens)} read)` : '';
  return `model ${client.model}: ${s.calls} call${s.calls === 1 ? '' : 's'}${s.cached ? `, ${s.cached} answered from cache` : ''}; ${n(u.input_tokens)} input + ${n(u.output_tokens)} output tokens${cache}; ${formatUsd(s.usd)}`;
}

export function estimateText(e: CompileEstimate): string[] {
  const lines = [
    `Estimate for compiling ${e.documents} document${e.documents === 1 ? '' : 's'} with ${e.model} (no API call made):`,
    `  source calls   ${e.sourceCalls}${e.longDocuments ? ` (${e.longDocuments} long document${e.longDocuments === 1 ? '' : 's'} read in parts)` : ''}${e.cachedCalls ? `, ${e.cachedCalls} already cached (free)` : ''}`,
    `  concept calls  ~${e.conceptCalls}`,
    `  input tokens   ~${n(e.inputTokens)} (of which the catalog: ${n(e.catalogTokens)} per call; instructions and catalog are prompt-cached after the first call and priced so)`,
    `  output tokens  ~${n(e.outputTokens)}`,
    e.priced ? `  cost           ~${formatUsd(e.usd)} (with --batch: ~${formatUsd(e.batchUsd)})` : `  cost           unknown: no price for ${e.model} in model.prices of kb.config.json`,
  ];
  if (e.documents > e.modelDocuments) lines.push(`  (${e.documents - e.modelDocuments} attachments or links keep their offline entry)`);
  return lines;
}

function parseMaxCost(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const x = Number(v.replace(/^\$/, ''));
  if (!Number.isFinite(x) || x < 0) throw new UsageError(`Unexpected --max-cost ${v}, expected a number of US dollars such as 0.50`);
  return x;
}

async function printEstimate(ctx: KbContext, flags: CompileFlags, rt: CliRuntime): Promise<number> {
  let cache: ResponseCache | undefined;
  if (existsSync(cachePath(ctx.paths))) cache = ResponseCache.open(ctx.paths);
  try {
    const model = ctx.config.model.name;
    const est = await estimateCompile(ctx, {
      force: Boolean(flags.force),
      ...(cache ? { isCached: (r) => cache!.get(requestKey(model, r)) !== undefined } : {}),
    });
    if (flags.json) rt.io.out(JSON.stringify(est, null, 2));
    else for (const l of estimateText(est)) rt.io.out(l);
    return 0;
  } finally {
    cache?.close();
  }
}

export async function runCompile(flags: CompileFlags, rt: CliRuntime): Promise<number> {
  const root = findKbRoot(flags.kb);
  const maxCost = parseMaxCost(flags.maxCost);
  const ctx = openKb(root);
  if (flags.estimate) {
    try {
      return await printEstimate(ctx, flags, rt);
    } finally {
      closeKb(ctx);
    }
  }
  const lock = await acquireLock(join(ctx.paths.state, 'lock'), 'compile');
  const bar = progressBar(rt.io);
  const client = flags.offline ? undefined : createModelClient(ctx, maxCost !== undefined ? { maxCostUsd: maxCost } : {});
  try {
    if (!flags.offline && !client && !flags.json) {
      rt.io.err(paint(rt.io, 'dim', 'No ANTHROPIC_API_KEY: using the offline compiler (extractive summaries, heuristic concepts).'));
    }
    if ((flags.batch || maxCost !== undefined) && !client && !flags.json) {
      rt.io.err(paint(rt.io, 'dim', `${flags.batch ? '--batch' : '--max-cost'} applies to the model compiler only; nothing to pay for.`));
    }
    const writer = client ? new ModelWriter(ctx, client) : undefined;
    let report: CompileReport;
    let batchLine: string | undefined;
    try {
      if (writer && flags.batch) {
        const b = await runSourceBatch(ctx, writer, {
          force: Boolean(flags.force),
          ...(maxCost !== undefined ? { maxCostUsd: maxCost } : {}),
          signal: rt.signal,
          onStatus: (l) => {
            if (!flags.json) rt.io.err(l);
          },
          onProgress: (done, total) => bar.update('batch', done, total),
        });
        if (b.id) batchLine = `batch ${b.id}${b.resumed ? ' (resumed)' : ''}: ${b.succeeded} replies, ${n(b.usage.input_tokens)} input + ${n(b.usage.output_tokens)} output tokens; ${formatUsd(b.usd)} at batch price`;
      } else if (writer) {
        await prefetchSources(ctx, writer, { force: Boolean(flags.force), signal: rt.signal, onProgress: (done, total) => bar.update('model', done, total) });
      }
      report = await compile(ctx, {
        force: Boolean(flags.force),
        signal: rt.signal,
        ...(writer ? { writer } : {}),
        onProgress: (e) => bar.update(e.phase, e.done, e.total),
        ...(flags.verbose ? { onFile: (l: string) => rt.io.err(l) } : {}),
      });
    } catch (err) {
      bar.stop();
      if (client && err instanceof BudgetExceededError) appendLog(ctx.paths.wiki, 'compile', 'stopped at --max-cost', [usageLine(client)]);
      throw err;
    }
    bar.stop();
    if (writer) {
      // An entry the model could not write for a transient reason is compiled again next time.
      for (const p of writer.retryLater) ctx.store.setDocumentCompiler(p, `${writer.name}!retry`);
    }
    const spent = client?.spent();
    const changed = report.new + report.updated + report.deleted + report.renamed + report.written;
    if (changed > 0 || (spent && spent.calls > 0) || batchLine) {
      appendLog(ctx.paths.wiki, 'compile', summaryLine(report).replace(/ \([\d.]+ s\)$/, ''), [...(batchLine ? [batchLine] : []), ...(client ? [usageLine(client)] : [])]);
    }
    if (flags.json) {
      const model = client && spent ? { name: client.model, calls: spent.calls, cached: spent.cached ?? 0, usage: spent.usage, usd: spent.usd, fallbacks: [...(writer?.fallbacks ?? [])] } : null;
      rt.io.out(JSON.stringify({ ...report, messages: report.messages, model }, null, 2));
    } else {
      printMessages(rt.io, report.messages);
      rt.io.out(summaryLine(report));
      if (batchLine) rt.io.out(batchLine);
      if (client) rt.io.out(usageLine(client));
    }
    const warnings = report.messages.filter((m) => m.severity !== 'info').length;
    return flags.strict && warnings > 0 ? 1 : 0;
  } finally {
    bar.stop();
    lock.release();
    closeKb(ctx);
  }
}
