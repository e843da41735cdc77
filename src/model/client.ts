import Anthropic from '@anthropic-ai/sdk';
import type { KbConfig, ModelTask } from '../config/defaults.js';
import type { KbPaths } from '../kb/paths.js';
import { ConfigError } from '../diagnostics/errors.js';
import {
  BudgetExceededError,
  requestKey,
  requestTokens,
  worstCaseUsd,
  ModelUnavailableError,
  WAIT_NOTICE_SECONDS,
  type ModelClient,
  type ModelClientOptions,
  type ModelRequest,
  type ModelWait,
} from './request.js';
import { CachedModelClient, RoutedModelClient, type Transport } from './cached.js';
import { MalformedReplyError } from './errors.js';
import { openaiTransport } from './openai.js';
import { describeProvider, modelPlan, whyNoModel, type ProviderSettings } from './provider.js';
import { addUsage, zeroUsage, type ModelResponse, type ModelUsage } from './usage.js';

export { addUsage, zeroUsage, type ModelResponse, type ModelUsage } from './usage.js';
export {
  BudgetExceededError,
  ModelUnavailableError,
  requestKey,
  requestTokens,
  WAIT_NOTICE_SECONDS,
  worstCaseUsd,
  type ModelClient,
  type ModelClientOptions,
  type ModelRequest,
  type ModelWait,
};

/** The Messages API parameters of a request (shared by direct calls and batches). */
export function messageParams(
  model: string,
  defaultMaxTokens: number,
  req: ModelRequest,
): Anthropic.MessageCreateParamsNonStreaming {
  const system: Anthropic.TextBlockParam[] = [{ type: 'text', text: req.system }];
  if (req.cachedPrefix) system.push({ type: 'text', text: req.cachedPrefix, cache_control: { type: 'ephemeral' } });
  // After the breakpoint: what differs from call to call does not change the cached prefix.
  if (req.relatedContext) system.push({ type: 'text', text: req.relatedContext });
  const params: Anthropic.MessageCreateParamsNonStreaming = {
    model,
    max_tokens: req.maxTokens ?? defaultMaxTokens,
    system,
    messages: [{ role: 'user', content: req.prompt }],
  };
  if (req.tools) params.tools = req.tools as Anthropic.Tool[];
  return params;
}

/** The SDK returns whatever JSON came back: a message has a list of content blocks. */
export function isMessage(msg: unknown): msg is Anthropic.Message {
  return typeof msg === 'object' && msg !== null && Array.isArray((msg as { content?: unknown }).content);
}

/** Text and usage out of a Messages API reply. */
export function readMessage(msg: Anthropic.Message): Omit<ModelResponse, 'cached'> {
  if (!isMessage(msg))
    throw new MalformedReplyError(
      'reply from the Anthropic API that is not a message (no `content` list), expected a Messages API reply',
    );
  const text = msg.content
    .filter((b): b is Anthropic.TextBlock => b.type === 'text')
    .map((b) => b.text)
    .join('');
  const u = msg.usage as Partial<ModelUsage> | undefined;
  return { text, stopReason: msg.stop_reason ?? 'unknown', usage: addUsage(zeroUsage(), u) };
}

/** The Anthropic SDK client kb uses (exported for the batch path). */
export function sdkClient(env: NodeJS.ProcessEnv, opts: ModelClientOptions = {}): Anthropic {
  const baseURL = opts.baseURL ?? env['ANTHROPIC_BASE_URL'];
  return new Anthropic({
    apiKey: env['ANTHROPIC_API_KEY'] ?? null,
    authToken: null,
    ...(baseURL ? { baseURL } : {}),
    maxRetries: opts.maxRetries ?? 4,
    timeout: opts.timeoutMs ?? 10 * 60 * 1000,
    // The SDK's own warnings could echo request details; kb reports errors itself.
    logLevel: 'off',
  });
}

/** Claude through the Messages API. */
function anthropicTransport(settings: ProviderSettings, env: NodeJS.ProcessEnv, opts: ModelClientOptions): Transport {
  const sdk = sdkClient(env, {
    ...opts,
    maxRetries: opts.maxRetries ?? settings.maxRetries,
    timeoutMs: opts.timeoutMs ?? settings.timeoutMs,
  });
  return {
    async send(req, maxTokens, signal) {
      const msg = await sdk.messages.create(messageParams(settings.model, maxTokens, req), signal ? { signal } : {});
      return readMessage(msg);
    },
  };
}
/**
 * The model client for the configured provider (and a client per task in `model.tasks`), or
 * undefined when the default model cannot be called (no key). Every call is cached in
 * `<root>/.kb/cache.db`, so rebuilding the wiki never pays twice; keys are never logged.
 */
export function createModelClient(
  ctx: { paths: KbPaths; config: KbConfig; env: NodeJS.ProcessEnv },
  opts: ModelClientOptions = {},
): ModelClient | undefined {
  const plan = modelPlan(ctx.config, ctx.env);
  if (whyNoModel(plan.main, ctx.env)) return undefined;
  const make = (s: ProviderSettings) =>
    new CachedModelClient(ctx.config, ctx.paths, s, transportFor(s, ctx.env, opts), opts);
  const base = make(plan.main);
  const byTask = new Map<ModelTask, ModelClient>();
  for (const [task, s] of plan.tasks) {
    const why = whyNoModel(s, ctx.env);
    if (why) throw new ConfigError(`model.tasks.${task} in kb.config.json: ${why} for ${describeProvider(s)}`);
    byTask.set(task, make(s));
  }
  return byTask.size ? new RoutedModelClient(base, byTask) : base;
}

function transportFor(s: ProviderSettings, env: NodeJS.ProcessEnv, opts: ModelClientOptions): Transport {
  return s.kind === 'anthropic' ? anthropicTransport(s, env, opts) : openaiTransport(s, env, opts);
}
