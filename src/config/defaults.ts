/** Every setting of kb.config.json with its default. `kb init` writes this object out in full. */
export interface KbConfig {
  /** The model: Claude (ANTHROPIC_API_KEY), or any OpenAI-compatible provider (src/model/presets.ts). */
  model: {
    /**
     * `anthropic` (the default), `openai` (any OpenAI-compatible endpoint) or a preset name: ollama,
     * llamacpp, vllm, lmstudio, deepseek, qwen, kimi. `KB_PROVIDER` and `--provider` override it.
     */
    provider: string;
    /** Model name; a Claude name with another provider means "the preset's model". `--model` overrides it. */
    name: string;
    /** Endpoint of an OpenAI-compatible provider (default: the preset's, else OPENAI_BASE_URL). */
    baseURL?: string;
    /** Name of the environment variable holding the provider's key (never the key itself). */
    apiKeyEnv?: string;
    /** Context window of the model in tokens (default: the preset's); long sources are read in parts that fit. */
    contextTokens?: number;
    /**
     * Seconds to wait for one reply before giving up on that try (a long reply takes a minute or two).
     * Default 600; 1800 for a model on this machine or network.
     */
    timeoutSeconds?: number;
    /**
     * A model per task: `sources`, `concepts`, `expand`, `answer`, `heal`, `judge`. A name (same
     * provider) or `{ provider, name, baseURL, apiKeyEnv }`.
     */
    tasks: Partial<Record<ModelTask, string | TaskModel>>;
    maxTokens: number;
    concurrency: number;
    /** Tries after a timeout, a dropped connection, 429, 529 or 5xx, with growing pauses; 0 gives up at once. */
    maxRetries: number;
    /**
     * Sampling temperature of every call to an OpenAI-compatible model (0: the most repeatable
     * replies, so two compiles of the same raw/ read alike). Not sent to OpenAI's official API, whose
     * reasoning models take none, nor to Claude, whose Messages API (SDK 1.x) has no such setting.
     */
    temperature: number;
    /** USD per million tokens, by model name. */
    prices: Record<string, { input: number; output: number; cacheWrite: number; cacheRead: number }>;
  };
  embedding: {
    /** `local`: built in, no download. `openai`: any OpenAI-compatible /embeddings endpoint. */
    provider: 'local' | 'openai';
    /** Model name sent to the HTTP provider. */
    model: string;
    /** Base URL of the HTTP provider, e.g. http://127.0.0.1:11434/v1 for Ollama. */
    baseURL: string;
    /** Name of the environment variable that holds the provider's API key (never the key itself). */
    apiKeyEnv: string;
    /** Vector size. For `local` any size 64..4096; for HTTP providers, what the model returns. */
    dims: number;
    batchSize: number;
  };
  chunk: {
    maxTokens: number;
    overlapTokens: number;
  };
  ingest: {
    /** Files larger than this are skipped with a diagnostic. */
    maxFileBytes: number;
    /** The same for PDF, Office files, e-books and images, which are often larger than text. */
    maxDocumentBytes: number;
    /** Zip-based documents (DOCX, XLSX, PPTX, ODF, EPUB) may unpack to at most this (zip bombs). */
    maxUnpackedBytes: number;
    /** Glob-like name patterns to ignore under raw/ (matched against the file name). */
    ignore: string[];
  };
  compile: {
    /** A concept needs at least this many sources to get an entry. */
    minConceptSources: number;
    /** Upper bound on concept entries from the offline compiler. */
    maxConcepts: number;
  };
  wiki: {
    /**
     * Write a `## Backlinks` section into every entry. Off by default: Obsidian draws backlinks
     * itself, and a section makes every graph edge two-way; the `backlinks` frontmatter is always kept.
     */
    backlinksSection: boolean;
    /**
     * The language a model writes entries in: `auto` (each source in its own language, a concept in
     * the one most of its sources use), `en`, `zh` (Simplified) or `zh-TW` (Traditional). A title
     * written in another language is kept as an alias.
     */
    language: WikiLanguage;
  };
  ask: {
    budget: number;
    cacheTtlSeconds: number;
  };
  lint: {
    /** Severity per rule id: "error" | "warning" | "info" | "off". */
    rules: Record<string, string>;
  };
}

export const WIKI_LANGUAGES = ['auto', 'en', 'zh', 'zh-TW'] as const;
export type WikiLanguage = (typeof WIKI_LANGUAGES)[number];

export const MODEL_TASKS = ['sources', 'concepts', 'expand', 'answer', 'heal', 'judge'] as const;
export type ModelTask = (typeof MODEL_TASKS)[number];

/** The model of one task, when it differs from `model`. */
export interface TaskModel {
  provider?: string;
  name?: string;
  baseURL?: string;
  apiKeyEnv?: string;
  contextTokens?: number;
}

export const DEFAULT_CONFIG: KbConfig = {
  model: {
    provider: 'anthropic',
    name: 'claude-sonnet-4-5',
    maxTokens: 4096,
    concurrency: 4,
    maxRetries: 4,
    temperature: 0,
    tasks: {},
    prices: {
      'claude-sonnet-4-5': { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
      'claude-opus-4-1': { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 },
      'claude-haiku-4-5': { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 },
    },
  },
  embedding: {
    provider: 'local',
    model: 'kb-local-hash',
    baseURL: 'http://127.0.0.1:11434/v1',
    apiKeyEnv: 'KB_EMBEDDING_API_KEY',
    dims: 384,
    batchSize: 64,
  },
  chunk: { maxTokens: 400, overlapTokens: 50 },
  ingest: {
    maxFileBytes: 10 * 1024 * 1024,
    maxDocumentBytes: 200 * 1024 * 1024,
    maxUnpackedBytes: 256 * 1024 * 1024,
    ignore: ['.DS_Store', 'Thumbs.db', '*.tmp', '*.swp', '~$*'],
  },
  compile: { minConceptSources: 2, maxConcepts: 400 },
  wiki: { backlinksSection: false, language: 'auto' },
  ask: { budget: 4000, cacheTtlSeconds: 3600 },
  lint: { rules: {} },
};
