import { join } from 'node:path';
import { closeKb, openKb } from '../../kb/context.js';
import { acquireLock } from '../../kb/lock.js';
import { rootToCompile } from '../compile-root.js';
import { paint, printMessages } from '../io.js';
import { progressBar, type Progress } from '../progress.js';
import type { CliRuntime } from '../runtime.js';
import type { CompileFlags } from '../flags.js';
import { UsageError } from '../../diagnostics/errors.js';
import type { ModelWait } from '../../model/client.js';
import { formatUsd } from '../../model/price.js';
import { noModelReason } from '../../model/provider.js';
import { loadModelWriter } from '../../compile/model/load.js';
import type { CompileEstimate } from '../../compile/model/estimate.js';
import { compileKb, estimateKb } from '../../compile/run.js';
import { summaryLine } from '../../compile/report.js';

const n = (x: number) => x.toLocaleString('en-US');

export function estimateText(e: CompileEstimate): string[] {
  const lines = [
    `Estimate for compiling ${e.documents} document${e.documents === 1 ? '' : 's'} with ${e.model} (no API call made):`,
    `  source calls   ${e.sourceCalls}${e.longDocuments ? ` (${e.longDocuments} long document${e.longDocuments === 1 ? '' : 's'} read in parts)` : ''}${e.cachedCalls ? `, ${e.cachedCalls} already cached (free)` : ''}`,
    `  concept calls  ~${e.conceptCalls}`,
    `  repair calls   ~${e.repairCalls} (${Math.round(e.repairShare * 100)}% of calls: ${e.repairShareMeasured ? 'as in past compiles' : 'assumed until past compiles measure it'})`,
    `  input tokens   ~${n(e.inputTokens)} (of which the catalog: ${n(e.catalogTokens)} per call${e.relatedTokens ? `, and ~${n(e.relatedTokens)} more per call of the entries related to it` : ''}; instructions and ${e.relatedTokens ? 'the shared catalog' : 'catalog'} are prompt-cached after the first call and priced so)`,
    `  output tokens  ~${n(e.outputTokens)}`,
    e.priced
      ? `  cost           ~${formatUsd(e.usd)} (with --batch: ~${formatUsd(e.batchUsd)})`
      : `  cost           unknown: no price for ${e.model} in model.prices of kb.config.json`,
  ];
  if (e.documents > e.modelDocuments)
    lines.push(`  (${e.documents - e.modelDocuments} attachments or links keep their offline entry)`);
  return lines;
}

function parseMaxCost(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const x = Number(v.replace(/^\$/, ''));
  if (!Number.isFinite(x) || x < 0)
    throw new UsageError(`Unexpected --max-cost ${v}, expected a number of US dollars such as 0.50`);
  return x;
}

/** A slow reply is shown as it waits: on the bar's line on a terminal; with --verbose elsewhere, a line every 30 s. */
function showWaiting(rt: CliRuntime, bar: Progress, verbose: boolean, w: ModelWait | undefined): void {
  const text = w ? `waiting for the model (${w.seconds} s${w.calls > 1 ? `, ${w.calls} calls` : ''})…` : undefined;
  if (rt.io.isTTY) bar.note(text);
  else if (verbose && w && w.seconds % 30 === 0) rt.io.err(text!);
}

export async function runCompile(flags: CompileFlags, rt: CliRuntime): Promise<number> {
  const maxCost = parseMaxCost(flags.maxCost);
  // An estimate only looks: it makes no knowledge base, no wiki/ and no store.
  const root = rootToCompile(flags.kb, rt, { write: !flags.estimate });
  const ctx = openKb(root, { readOnly: Boolean(flags.estimate) });
  if (flags.estimate) {
    try {
      const est = await estimateKb(ctx, { force: Boolean(flags.force) });
      if (flags.json) rt.io.out(JSON.stringify(est, null, 2));
      else for (const l of estimateText(est)) rt.io.out(l);
      return 0;
    } finally {
      closeKb(ctx);
    }
  }
  const lock = await acquireLock(join(ctx.paths.state, 'lock'), 'compile');
  const bar = progressBar(rt.io);
  try {
    const writer = await loadModelWriter(ctx, {
      offline: Boolean(flags.offline),
      ...(maxCost !== undefined ? { maxCostUsd: maxCost } : {}),
      onWaiting: (w) => showWaiting(rt, bar, Boolean(flags.verbose), w),
    });
    if (!flags.offline && !writer && !flags.json) {
      const why = noModelReason(ctx.config, ctx.env) ?? 'No model';
      rt.io.err(paint(rt.io, 'dim', `${why}: using the offline compiler (extractive summaries, heuristic concepts).`));
    }
    if ((flags.batch || maxCost !== undefined) && !writer && !flags.json) {
      rt.io.err(
        paint(
          rt.io,
          'dim',
          `${flags.batch ? '--batch' : '--max-cost'} applies to the model compiler only; nothing to pay for.`,
        ),
      );
    }
    let result: Awaited<ReturnType<typeof compileKb>>;
    try {
      result = await compileKb(ctx, {
        force: Boolean(flags.force),
        writer,
        batch: Boolean(flags.batch),
        maxCostUsd: maxCost,
        signal: rt.signal,
        onProgress: (phase, done, total) => bar.update(phase, done, total),
        onStatus: (l) => {
          if (!flags.json) rt.io.err(l);
        },
        ...(flags.verbose ? { onFile: (l: string) => rt.io.err(l) } : {}),
      });
    } finally {
      bar.stop();
    }
    const { report } = result;
    if (flags.json) {
      rt.io.out(JSON.stringify({ ...report, messages: report.messages, model: result.model }, null, 2));
    } else {
      printMessages(rt.io, report.messages);
      rt.io.out(summaryLine(report));
      for (const l of result.details) rt.io.out(l);
    }
    const warnings = report.messages.filter((m) => m.severity !== 'info').length;
    return flags.strict && warnings > 0 ? 1 : 0;
  } finally {
    bar.stop();
    lock.release();
    closeKb(ctx);
  }
}
