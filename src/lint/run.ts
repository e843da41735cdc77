import { existsSync } from 'node:fs';
import { loadConfig } from '../config/load.js';
import { createEmbedder } from '../embed/index.js';
import { closeKb, openKb, type KbContext } from '../kb/context.js';
import { kbPaths } from '../kb/paths.js';
import { loadModelClient } from '../model/load.js';
import { loadLintInput } from './input.js';
import { lint, type LintReport } from './lint.js';

export interface LintKbOptions {
  /** Only these rules (`--rule`). */
  rules?: string[] | undefined;
  /** No model (the contradiction rule's judge), even with ANTHROPIC_API_KEY set. */
  offline?: boolean;
  /** Rules that need the network (dead links). */
  network?: boolean;
  signal?: AbortSignal | undefined;
}

/**
 * `kb lint`: every finding in the knowledge base at `root`. Lint reads: it opens the store only
 * when there is one (it never creates wiki/ or the database).
 */
export async function lintKb(root: string, opts: LintKbOptions = {}): Promise<LintReport> {
  const paths = kbPaths(root);
  let ctx: KbContext | undefined;
  if (existsSync(paths.db)) ctx = openKb(root);
  try {
    const config = ctx?.config ?? loadConfig(paths.config);
    const env = ctx?.env ?? process.env;
    const embedder = ctx?.embedder ?? createEmbedder(config.embedding, env);
    const model = opts.offline ? undefined : await loadModelClient({ paths, config, env });
    const input = await loadLintInput(paths, config, {
      store: ctx?.store,
      embedder,
      model,
      network: Boolean(opts.network),
      signal: opts.signal,
    });
    return await lint(input, { rules: opts.rules });
  } finally {
    if (ctx) closeKb(ctx);
  }
}
