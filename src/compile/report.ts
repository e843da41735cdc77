import type { ModelClient } from '../model/client.js';
import { formatUsd } from '../model/price.js';
import type { BatchSummary } from './model/batch.js';
import type { CompileReport } from './types.js';

const n = (x: number) => x.toLocaleString('en-US');

/** One line of what a compile did (printed, and written to wiki/log.md without the time). */
export function summaryLine(r: CompileReport): string {
  const c = r.concepts;
  const renamed = r.renamed ? `, ${r.renamed} renamed` : '';
  const kept = r.protected.length ? `; ${r.protected.length} edited by you left alone` : '';
  return `${r.new} new, ${r.updated} updated, ${r.unchanged} unchanged, ${r.deleted} deleted${renamed}, ${r.skipped} skipped; concepts ${c.created} new, ${c.updated} updated, ${c.deleted} removed${kept} (${(r.elapsedMs / 1000).toFixed(1)} s)`;
}

/** One line of model usage: calls, tokens from the API's usage fields, dollars. */
export function usageLine(client: ModelClient): string {
  const s = client.spent();
  const u = s.usage;
  const cache =
    u.cache_creation_input_tokens || u.cache_read_input_tokens
      ? ` (prompt cache: ${n(u.cache_creation_input_tokens)} written, ${n(u.cache_read_input_tokens)} read)`
      : '';
  const calls = `${s.calls} call${s.calls === 1 ? '' : 's'}${s.cached ? `, ${s.cached} answered from cache` : ''}`;
  return `model ${client.model}: ${calls}; ${n(u.input_tokens)} input + ${n(u.output_tokens)} output tokens${cache}; ${formatUsd(s.usd)}`;
}

/** One line of what a Message Batch did, or undefined when none was sent. */
export function batchLine(b: BatchSummary): string | undefined {
  if (!b.id) return undefined;
  return `batch ${b.id}${b.resumed ? ' (resumed)' : ''}: ${b.succeeded} replies, ${n(b.usage.input_tokens)} input + ${n(b.usage.output_tokens)} output tokens; ${formatUsd(b.usd)} at batch price`;
}

/** Whether a compile changed anything worth a line in wiki/log.md. */
export function changedSomething(r: CompileReport): boolean {
  return r.new + r.updated + r.deleted + r.renamed + r.written > 0;
}
