import { closeKb, openKb } from '../../kb/context.js';
import { findKbRoot } from '../../kb/paths.js';
import { serveStdio } from '../../mcp/server.js';
import type { CliRuntime } from '../runtime.js';
import type { McpFlags } from '../flags.js';

/** stdout carries the protocol: this command prints nothing there itself. */
export async function runMcp(flags: McpFlags, rt: CliRuntime): Promise<number> {
  const ctx = openKb(findKbRoot(flags.kb), { readOnly: true });
  ctx.store.mapForSearch();
  try {
    await serveStdio(ctx, rt.signal, { offline: Boolean(flags.offline) });
  } finally {
    closeKb(ctx);
  }
  return 0;
}
