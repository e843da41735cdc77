import type { KbContext } from '../kb/context.js';
import { createModelClient } from '../model/client.js';
import { createModelWriter } from '../compile/model/index.js';
import { heal, type HealOptions } from './heal.js';
import type { HealReport } from './types.js';

/**
 * `kb lint --heal`: heal with the model when there is one (content fixes, and new or stale sources
 * compiled on the branch the way `kb compile` would), else offline. The caller holds the lock.
 */
export async function healKb(
  ctx: KbContext,
  opts: Omit<HealOptions, 'model' | 'writer'> & { offline?: boolean } = {},
): Promise<HealReport> {
  const { offline, ...rest } = opts;
  const model = offline ? undefined : createModelClient(ctx);
  return heal(ctx, {
    ...rest,
    model,
    ...(model ? { writer: (wctx: KbContext) => createModelWriter(wctx, { client: model })! } : {}),
  });
}
