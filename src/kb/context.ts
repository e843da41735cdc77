import { existsSync } from 'node:fs';
import type { KbConfig } from '../config/defaults.js';
import { loadConfig } from '../config/load.js';
import { createEmbedder, type Embedder } from '../embed/index.js';
import { CHUNKER_VERSION } from '../chunk/index.js';
import { Store } from '../store/store.js';
import { kbPaths, type KbPaths } from './paths.js';

/**
 * What every stage gets: where the knowledge base is, its config, the store and the embedder.
 * Passed in, never global, so tests can pass their own (e.g. an HTTP embedder on 127.0.0.1).
 */
export interface KbContext {
  paths: KbPaths;
  config: KbConfig;
  store: Store;
  embedder: Embedder;
  env: NodeJS.ProcessEnv;
}

export interface OpenOptions {
  embedder?: Embedder;
  env?: NodeJS.ProcessEnv;
  config?: KbConfig;
  /**
   * The command only reads (status, search, context, ask without --save, lint, mcp): it makes no
   * store where none is (an empty one in memory stands in), so nothing is written outside .kb/.
   */
  readOnly?: boolean;
}

export function vectorFingerprint(embedder: Embedder): string {
  return `${embedder.fingerprint}|chunker:${CHUNKER_VERSION}`;
}

export function openKb(root: string, opts: OpenOptions = {}): KbContext {
  const paths = kbPaths(root);
  const config = opts.config ?? loadConfig(paths.config);
  const env = opts.env ?? process.env;
  const embedder = opts.embedder ?? createEmbedder(config.embedding, env);
  const store = new Store(paths.db, {
    fingerprint: vectorFingerprint(embedder),
    dims: embedder.dims,
    create: !opts.readOnly,
  });
  return { paths, config, store, embedder, env };
}

/**
 * A context opened read-only where no store file was holds an empty stand-in; a long-lived one
 * (the MCP server) opens the file once a compile has made it.
 */
export function storeOnDisk(ctx: KbContext): Store {
  if (!ctx.store.ephemeral || !existsSync(ctx.paths.db)) return ctx.store;
  ctx.store.close();
  ctx.store = new Store(ctx.paths.db, {
    fingerprint: vectorFingerprint(ctx.embedder),
    dims: ctx.embedder.dims,
    create: false,
  });
  return ctx.store;
}

/**
 * Before the first write of a context opened read-only (the MCP server's save tool): the store
 * file, made now if the open found none.
 */
export function writableStore(ctx: KbContext): Store {
  if (!ctx.store.ephemeral) return ctx.store;
  ctx.store.close();
  ctx.store = new Store(ctx.paths.db, { fingerprint: vectorFingerprint(ctx.embedder), dims: ctx.embedder.dims });
  return ctx.store;
}

export function closeKb(ctx: KbContext): void {
  ctx.store.close();
}
