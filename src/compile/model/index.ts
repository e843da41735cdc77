import type { KbContext } from '../../kb/context.js';
import { createModelClient, type ModelClient, type ModelClientOptions } from '../../model/client.js';
import { ModelWriter } from './writer.js';

export { ModelWriter } from './writer.js';
export { estimateCompile, type CompileEstimate } from './estimate.js';
export { prefetchSources, runSourceBatch, type BatchSummary } from './batch.js';
export { buildCatalog, catalogOfWiki, documentsToCompile } from './plan.js';

/**
 * The model writer for a knowledge base, or undefined when there is no ANTHROPIC_API_KEY or the
 * caller wants the offline compiler. Compile, watch and heal make theirs here and pass it to
 * compileKb()/compile(); compiling without it recompiles model-written documents offline.
 * `client` shares a client made earlier (heal: one client, and one spend, across worktrees).
 */
export function createModelWriter(
  ctx: KbContext,
  opts: ModelClientOptions & { offline?: boolean; client?: ModelClient | undefined } = {},
): ModelWriter | undefined {
  if (opts.offline) return undefined;
  const { offline: _offline, client: given, ...clientOpts } = opts;
  const client = given ?? createModelClient(ctx, clientOpts);
  return client ? new ModelWriter(ctx, client) : undefined;
}
