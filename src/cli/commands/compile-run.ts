import { compile } from '../../compile/compile.js';
import { appendLog } from '../../emit/indexes.js';
import { closeKb, openKb } from '../../kb/context.js';
import { acquireLock } from '../../kb/lock.js';
import { findKbRoot } from '../../kb/paths.js';
import { join } from 'node:path';
import { paint, printMessages } from '../io.js';
import { progressBar } from '../progress.js';
import type { CliRuntime } from '../main.js';
import type { CompileFlags } from './compile.js';
import type { CompileReport } from '../../compile/types.js';

export function summaryLine(r: CompileReport): string {
  const c = r.concepts;
  return `${r.new} new, ${r.updated} updated, ${r.unchanged} unchanged, ${r.deleted} deleted${r.renamed ? `, ${r.renamed} renamed` : ''}, ${r.skipped} skipped; concepts ${c.created} new, ${c.updated} updated, ${c.deleted} removed${r.protected.length ? `; ${r.protected.length} edited by you left alone` : ''} (${(r.elapsedMs / 1000).toFixed(1)} s)`;
}

export async function runCompile(flags: CompileFlags, rt: CliRuntime): Promise<number> {
  const root = findKbRoot(flags.kb);
  const ctx = openKb(root);
  const lock = await acquireLock(join(ctx.paths.state, 'lock'), 'compile');
  const bar = progressBar(rt.io);
  try {
    if (!flags.offline && ctx.env['ANTHROPIC_API_KEY'] === undefined && !flags.json) {
      rt.io.err(paint(rt.io, 'dim', 'No ANTHROPIC_API_KEY: using the offline compiler (extractive summaries, heuristic concepts).'));
    }
    const report = await compile(ctx, {
      force: Boolean(flags.force),
      signal: rt.signal,
      onProgress: (e) => bar.update(e.phase, e.done, e.total),
      ...(flags.verbose ? { onFile: (l: string) => rt.io.err(l) } : {}),
    });
    bar.stop();
    const changed = report.new + report.updated + report.deleted + report.renamed + report.written;
    if (changed > 0) appendLog(ctx.paths.wiki, 'compile', summaryLine(report).replace(/ \([\d.]+ s\)$/, ''));
    if (flags.json) {
      rt.io.out(JSON.stringify({ ...report, messages: report.messages }, null, 2));
    } else {
      printMessages(rt.io, report.messages);
      rt.io.out(summaryLine(report));
    }
    const warnings = report.messages.filter((m) => m.severity !== 'info').length;
    return flags.strict && warnings > 0 ? 1 : 0;
  } finally {
    bar.stop();
    lock.release();
    closeKb(ctx);
  }
}
