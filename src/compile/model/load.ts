import type { KbContext } from '../../kb/context.js';
import { modelPlan, whyNoModel } from '../../model/provider.js';
import type { ModelClient, ModelClientOptions } from '../../model/request.js';
import type { ModelWriter } from './writer.js';

/**
 * `createModelWriter`, loading the model compiler and its SDKs only when a model will write: an
 * offline or key-less compile (a no-op most of all) does not pay for their ~500 modules.
 */
export async function loadModelWriter(
  ctx: KbContext,
  opts: ModelClientOptions & { offline?: boolean; client?: ModelClient | undefined } = {},
): Promise<ModelWriter | undefined> {
  if (opts.offline) return undefined;
  if (!opts.client && whyNoModel(modelPlan(ctx.config, ctx.env).main, ctx.env)) return undefined;
  const { createModelWriter } = await import('./index.js');
  return createModelWriter(ctx, opts);
}
