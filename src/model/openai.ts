import OpenAI from 'openai';
import type { Transport } from './cached.js';
import { MalformedReplyError, untilAborted } from './errors.js';
import { describeEndpoint, providerKey, type ProviderSettings } from './provider.js';
import type { ModelClientOptions, ModelRequest } from './request.js';
import { zeroUsage, type ModelResponse, type ModelUsage } from './usage.js';

/** A server without keys still gets one: the SDK refuses to start without. */
const NO_KEY = 'no-key';

/** The OpenAI SDK client for an OpenAI-compatible endpoint (chat and embeddings alike). */
export function openaiSdk(
  s: Pick<ProviderSettings, 'baseURL' | 'timeoutMs' | 'maxRetries'>,
  apiKey: string | undefined,
  opts: {
    baseURL?: string | undefined;
    timeoutMs?: number | undefined;
    maxRetries?: number | undefined;
    fetch?: typeof fetch;
  } = {},
): OpenAI {
  return new OpenAI({
    apiKey: apiKey ?? NO_KEY,
    baseURL: opts.baseURL ?? s.baseURL ?? null,
    organization: null,
    project: null,
    maxRetries: opts.maxRetries ?? s.maxRetries,
    timeout: opts.timeoutMs ?? s.timeoutMs,
    // The SDK's own warnings could echo request details; kb reports errors itself.
    logLevel: 'off',
    // No key, no Authorization header: a local server should not see a made-up one.
    ...(apiKey ? {} : { defaultHeaders: { authorization: null } }),
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
}

/**
 * Chat Completions parameters of a request. The cached prefix (the catalog) joins the system
 * message, then the call's related context: OpenAI-compatible servers cache a repeated prefix
 * themselves, without markers.
 */
export function chatParams(
  s: ProviderSettings,
  maxTokens: number,
  req: ModelRequest,
): OpenAI.Chat.ChatCompletionCreateParamsNonStreaming {
  // The call's own context after the shared prefix, so that the prefix a server caches stays the same.
  const shared = req.cachedPrefix ? `${req.system}\n\n${req.cachedPrefix}` : req.system;
  const system = req.relatedContext ? `${shared}\n\n${req.relatedContext}` : shared;
  return {
    model: s.model,
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: req.prompt },
    ],
    ...(s.maxTokensParam === 'max_completion_tokens'
      ? { max_completion_tokens: maxTokens }
      : { max_tokens: maxTokens }),
    ...(s.temperature !== undefined ? { temperature: s.temperature } : {}),
  };
}

/** Stop reasons in the Messages API's words, which the rest of kb reads. */
const STOP: Record<string, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  content_filter: 'refusal',
  tool_calls: 'tool_use',
};

interface CompatUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
  /** DeepSeek reports its prompt cache so. */
  prompt_cache_hit_tokens?: number;
}

/** Text, stop reason and usage out of a chat completion; reasoning models' `<think>` is dropped. */
export function readCompletion(c: OpenAI.Chat.ChatCompletion, from = 'the server'): Omit<ModelResponse, 'cached'> {
  if (!c || !Array.isArray(c.choices))
    throw new MalformedReplyError(`reply from ${from} that is not a chat completion (no \`choices\` list)`);
  const choice = c.choices[0];
  const raw = choice?.message?.content ?? '';
  const text = (typeof raw === 'string' ? raw : '').replace(/<think>[\s\S]*?<\/think>\s*/g, '');
  const u = (c.usage ?? {}) as CompatUsage;
  const cachedIn = u.prompt_tokens_details?.cached_tokens ?? u.prompt_cache_hit_tokens ?? 0;
  const usage: ModelUsage = {
    ...zeroUsage(),
    input_tokens: Math.max(0, (u.prompt_tokens ?? 0) - cachedIn),
    output_tokens: u.completion_tokens ?? 0,
    cache_read_input_tokens: cachedIn,
  };
  const reason = choice?.finish_reason ?? 'unknown';
  return { text, stopReason: STOP[reason] ?? reason, usage };
}

/** A model behind an OpenAI-compatible endpoint. Tools (Anthropic's web search) are not sent. */
export function openaiTransport(s: ProviderSettings, env: NodeJS.ProcessEnv, opts: ModelClientOptions): Transport {
  const sdk = openaiSdk(s, providerKey(s, env), opts);
  return {
    async send(req, maxTokens, signal) {
      const c = await untilAborted(
        sdk.chat.completions.create(chatParams(s, maxTokens, req), signal ? { signal } : {}),
        signal,
      );
      return readCompletion(c, `${s.label} at ${describeEndpoint(s)}`);
    },
  };
}
