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
}

export function vectorFingerprint(embedder: Embedder): string {
  return `${embedder.fingerprint}|chunker:${CHUNKER_VERSION}`;
}

export function openKb(root: string, opts: OpenOptions = {}): KbContext {
  const paths = kbPaths(root);
  const config = opts.config ?? loadConfig(paths.config);
  const env = opts.env ?? process.env;
  const embedder = opts.embedder ?? createEmbedder(config.embedding, env);
  const store = new Store(paths.db, { fingerprint: vectorFingerprint(embedder), dims: embedder.dims });
  return { paths, config, store, embedder, env };
}

export function closeKb(ctx: KbContext): void {
  ctx.store.close();
}
