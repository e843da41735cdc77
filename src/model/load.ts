import type { KbConfig } from '../config/defaults.js';
import type { KbPaths } from '../kb/paths.js';
import { modelPlan, whyNoModel } from './provider.js';
import type { ModelClient, ModelClientOptions } from './request.js';

/**
 * The model client, or undefined when no model is set up. The SDKs (about 480 modules, a third of
 * a read-only command's start-up) are loaded only when a model will be used.
 */
export async function loadModelClient(
  ctx: { paths: KbPaths; config: KbConfig; env: NodeJS.ProcessEnv },
  opts: ModelClientOptions = {},
): Promise<ModelClient | undefined> {
  if (whyNoModel(modelPlan(ctx.config, ctx.env).main, ctx.env)) return undefined;
  const { createModelClient } = await import('./client.js');
  return createModelClient(ctx, opts);
}
