import type { ModelPrice } from './price.js';

/**
 * OpenAI-compatible providers kb knows by name. Prices are USD per million tokens as published
 * when this table was written (check the provider's page; `model.prices` in kb.config.json wins).
 */
export interface ProviderPreset {
  label: string;
  baseURL: string;
  /** The model used when kb.config.json names none (or names a Claude model). */
  model: string;
  contextTokens: number;
  /** Runs on this machine or network: no key, no price, longer timeouts. */
  local: boolean;
  /** Environment variable with the key; undefined when the server needs none. */
  keyEnv?: string;
  price?: ModelPrice;
  /** OpenAI's own API wants `max_completion_tokens`; the compatible servers read `max_tokens`. */
  maxTokensParam?: 'max_tokens' | 'max_completion_tokens';
}

const FREE: ModelPrice = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };

export const PRESETS: Record<string, ProviderPreset> = {
  ollama: {
    label: 'Ollama',
    baseURL: 'http://127.0.0.1:11434/v1',
    model: 'qwen2.5:7b',
    contextTokens: 8192,
    local: true,
    price: FREE,
  },
  llamacpp: {
    label: 'llama.cpp server',
    baseURL: 'http://127.0.0.1:8080/v1',
    model: 'local',
    contextTokens: 4096,
    local: true,
    price: FREE,
  },
  vllm: {
    label: 'vLLM',
    baseURL: 'http://127.0.0.1:8000/v1',
    model: 'Qwen/Qwen2.5-7B-Instruct',
    contextTokens: 32768,
    local: true,
    price: FREE,
  },
  lmstudio: {
    label: 'LM Studio',
    baseURL: 'http://127.0.0.1:1234/v1',
    model: 'qwen2.5-7b-instruct',
    contextTokens: 8192,
    local: true,
    price: FREE,
  },
  deepseek: {
    label: 'DeepSeek',
    baseURL: 'https://api.deepseek.com/v1',
    model: 'deepseek-chat',
    contextTokens: 128000,
    local: false,
    keyEnv: 'DEEPSEEK_API_KEY',
    price: { input: 0.28, output: 0.42, cacheWrite: 0.28, cacheRead: 0.028 },
  },
  qwen: {
    label: 'Qwen (DashScope compatible mode)',
    baseURL: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    model: 'qwen-plus',
    contextTokens: 131072,
    local: false,
    keyEnv: 'DASHSCOPE_API_KEY',
    price: { input: 0.4, output: 1.2, cacheWrite: 0.4, cacheRead: 0.08 },
  },
  kimi: {
    label: 'Kimi (Moonshot)',
    baseURL: 'https://api.moonshot.ai/v1',
    model: 'kimi-k2-0905-preview',
    contextTokens: 262144,
    local: false,
    keyEnv: 'MOONSHOT_API_KEY',
    price: { input: 0.6, output: 2.5, cacheWrite: 0.6, cacheRead: 0.15 },
  },
  openai: {
    label: 'OpenAI',
    baseURL: 'https://api.openai.com/v1',
    model: 'gpt-4.1-mini',
    contextTokens: 1047576,
    local: false,
    keyEnv: 'OPENAI_API_KEY',
    price: { input: 0.4, output: 1.6, cacheWrite: 0.4, cacheRead: 0.1 },
    maxTokensParam: 'max_completion_tokens',
  },
};

/** Other spellings people use for the presets. */
const ALIASES: Record<string, string> = {
  'llama.cpp': 'llamacpp',
  'llama-cpp': 'llamacpp',
  'lm-studio': 'lmstudio',
  dashscope: 'qwen',
  moonshot: 'kimi',
};

export function presetName(name: string): string | undefined {
  const n = ALIASES[name] ?? name;
  return n in PRESETS ? n : undefined;
}

/** A server on this machine or a private network: free, no key, slow replies are normal. */
export function isLocalURL(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return (
    host === 'localhost' ||
    host === '::1' ||
    host.endsWith('.local') ||
    /^127\./.test(host) ||
    /^10\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host)
  );
}
