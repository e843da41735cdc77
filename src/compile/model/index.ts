import type { KbContext } from '../../kb/context.js';
import { createModelClient, type ModelClientOptions } from '../../model/client.js';
import { ModelWriter } from './writer.js';

export { ModelWriter } from './writer.js';
export { estimateCompile, type CompileEstimate } from './estimate.js';
export { prefetchSources, runSourceBatch, type BatchSummary } from './batch.js';
export { buildCatalog, catalogOfWiki, documentsToCompile } from './plan.js';

/**
 * The model writer for a knowledge base, or undefined when there is no ANTHROPIC_API_KEY or the
 * caller wants the offline compiler. Commands that compile (compile, watch) pass it to compile();
 * compiling without it recompiles model-written documents offline.
 */
export function createModelWriter(ctx: KbContext, opts: ModelClientOptions & { offline?: boolean } = {}): ModelWriter | undefined {
  if (opts.offline) return undefined;
  const { offline: _offline, ...clientOpts } = opts;
  const client = createModelClient(ctx, clientOpts);
  return client ? new ModelWriter(ctx, client) : undefined;
}
