import type { KbConfig } from '../config/defaults.js';
import { ConfigError } from '../diagnostics/errors.js';
import { OpenAIEmbedder, type OpenAIEmbedderOptions } from './openai.js';
import { LocalEmbedder } from './local.js';
import type { Embedder } from './types.js';

export { type Embedder, EmbedError, l2normalize } from './types.js';
export { LocalEmbedder } from './local.js';
export { OpenAIEmbedder, type OpenAIEmbedderOptions } from './openai.js';

/**
 * The embedder chosen in kb.config.json. For `openai` the API key is read from the environment
 * variable the config names (`apiKeyEnv`); it may be absent for local servers (Ollama, llama.cpp).
 */
export function createEmbedder(cfg: KbConfig['embedding'], env: NodeJS.ProcessEnv = process.env): Embedder {
  switch (cfg.provider) {
    case 'local':
      return new LocalEmbedder(cfg.dims);
    case 'openai': {
      const opts: OpenAIEmbedderOptions = {
        baseURL: cfg.baseURL,
        model: cfg.model,
        dims: cfg.dims,
        batchSize: cfg.batchSize,
      };
      const key = cfg.apiKeyEnv ? env[cfg.apiKeyEnv] : undefined;
      if (key) opts.apiKey = key;
      return new OpenAIEmbedder(opts);
    }
    default:
      throw new ConfigError(
        `Unexpected embedding.provider "${String((cfg as { provider: unknown }).provider)}", expected "local" or "openai"`,
      );
  }
}
