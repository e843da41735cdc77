import { MODEL_TASKS, type KbConfig, type ModelTask, type TaskModel } from '../config/defaults.js';
import { ConfigError } from '../diagnostics/errors.js';
import { isLocalURL, presetName, PRESETS, type ProviderPreset } from './presets.js';
import type { ModelPrice } from './price.js';

/** Everything needed to talk to one model. Holds the name of the key's variable, never the key. */
export interface ProviderSettings {
  /** The wire protocol. */
  kind: 'anthropic' | 'openai';
  /** `anthropic`, `openai` or a preset name. */
  provider: string;
  /** For people: "DeepSeek", "Ollama", "OpenAI-compatible endpoint". */
  label: string;
  model: string;
  /** Undefined for Anthropic: the SDK's default or ANTHROPIC_BASE_URL. */
  baseURL?: string;
  keyEnv?: string;
  keyNeeded: boolean;
  local: boolean;
  contextTokens: number;
  timeoutMs: number;
  maxRetries: number;
  /** The preset's price, used when model.prices has none for the model. */
  price?: ModelPrice;
  maxTokensParam: 'max_tokens' | 'max_completion_tokens';
  /** Sampling temperature sent with every call; undefined: the API's default (model.temperature). */
  temperature?: number;
  /** Names the model in cache keys and usage rows: the bare name for Claude (as before), provider/name otherwise. */
  id: string;
}

const DEFAULT_TIMEOUT_S = 600;
const LOCAL_TIMEOUT_S = 1800;
const DEFAULT_RETRIES = 4;

/** Which request tasks each `model.tasks` key covers (a repair goes to the model of its task). */
const TASK_OF: Record<string, ModelTask> = {
  'compile-source': 'sources',
  'compile-source-part': 'sources',
  'combine-source': 'sources',
  concept: 'concepts',
  'expand-query': 'expand',
  answer: 'answer',
  'heal-rewrite': 'heal',
  'heal-merge': 'heal',
  'heal-judge': 'judge',
  'lint-contradiction': 'judge',
};

export function taskOf(requestTask: string): ModelTask | undefined {
  return TASK_OF[requestTask.replace(/-repair$/, '')];
}

/** The provider named by KB_PROVIDER (or `--provider`), else kb.config.json. */
function chosenProvider(config: KbConfig, env: NodeJS.ProcessEnv): { name: string; fromConfig: boolean } {
  const fromEnv = env['KB_PROVIDER']?.trim().toLowerCase();
  if (fromEnv && fromEnv !== config.model.provider) return { name: fromEnv, fromConfig: false };
  return { name: config.model.provider || 'anthropic', fromConfig: true };
}

function checkName(name: string): string {
  if (name === 'anthropic' || name === 'openai') return name;
  const p = presetName(name);
  if (p) return p;
  throw new ConfigError(
    `Unexpected model provider "${name}", expected anthropic, openai or one of: ${Object.keys(PRESETS).join(', ')}`,
  );
}

interface Spec {
  provider: string;
  name?: string | undefined;
  baseURL?: string | undefined;
  apiKeyEnv?: string | undefined;
  contextTokens?: number | undefined;
}

/** The model settings of the whole run (no task) or of one task, from config, env and flags. */
export function resolveProvider(config: KbConfig, env: NodeJS.ProcessEnv, task?: ModelTask): ProviderSettings {
  const chosen = chosenProvider(config, env);
  const m = config.model;
  // Endpoint, key and context in kb.config.json belong to its provider, not to one picked for this run.
  const base: Spec = chosen.fromConfig
    ? {
        provider: chosen.name,
        name: env['KB_MODEL'] || m.name,
        baseURL: m.baseURL,
        apiKeyEnv: m.apiKeyEnv,
        contextTokens: m.contextTokens,
      }
    : { provider: chosen.name, name: env['KB_MODEL'] || undefined };
  // A model chosen for one run (`--model`, `--provider`) answers every task.
  const oneModel = Boolean(env['KB_MODEL']) || !chosen.fromConfig;
  const t: string | TaskModel | undefined = task && !oneModel ? m.tasks[task] : undefined;
  let spec = base;
  if (typeof t === 'string') spec = { ...base, name: t };
  else if (t) {
    const same = !t.provider || t.provider === base.provider;
    spec = same ? { ...base, ...defined(t), provider: base.provider } : { provider: t.provider!, ...defined(t) };
  }
  return settingsOf(spec, config, env);
}

function defined(t: TaskModel): Partial<Spec> {
  return Object.fromEntries(Object.entries(t).filter(([, v]) => v !== undefined));
}

function settingsOf(spec: Spec, config: KbConfig, env: NodeJS.ProcessEnv): ProviderSettings {
  const provider = checkName(spec.provider);
  const timeout = (local: boolean) =>
    1000 * (config.model.timeoutSeconds ?? (local ? LOCAL_TIMEOUT_S : DEFAULT_TIMEOUT_S));
  const maxRetries = config.model.maxRetries ?? DEFAULT_RETRIES;
  const temperature = config.model.temperature ?? 0;
  if (provider === 'anthropic') {
    const model = spec.name || 'claude-sonnet-4-5';
    const baseURL = env['ANTHROPIC_BASE_URL'];
    return {
      kind: 'anthropic',
      provider,
      label: 'Anthropic API',
      model,
      keyEnv: 'ANTHROPIC_API_KEY',
      keyNeeded: true,
      local: false,
      contextTokens: spec.contextTokens ?? 200_000,
      timeoutMs: timeout(false),
      maxRetries,
      maxTokensParam: 'max_tokens',
      // The Messages API of the SDK kb uses (1.x) takes no sampling settings.
      id: model,
      ...(baseURL ? { baseURL } : {}),
    };
  }
  const preset: ProviderPreset = PRESETS[provider]!;
  const generic = provider === 'openai';
  const baseURL = (spec.baseURL ?? (generic ? env['OPENAI_BASE_URL'] : undefined) ?? preset.baseURL).replace(
    /\/+$/,
    '',
  );
  const official = baseURL === PRESETS['openai']!.baseURL;
  const local = preset.local || isLocalURL(baseURL);
  // A Claude name in kb.config.json (kb init writes one) means nothing to another provider.
  const model = spec.name && !/^claude-/.test(spec.name) ? spec.name : preset.model;
  const keyEnv = spec.apiKeyEnv ?? preset.keyEnv ?? (generic ? 'OPENAI_API_KEY' : undefined);
  const price = local ? PRESETS['ollama']!.price : generic && !official ? undefined : preset.price;
  return {
    kind: 'openai',
    provider,
    label: generic && !official ? 'OpenAI-compatible endpoint' : preset.label,
    model,
    baseURL,
    ...(keyEnv ? { keyEnv } : {}),
    keyNeeded: !local,
    local,
    contextTokens: spec.contextTokens ?? (generic && !official ? (local ? 8192 : 128_000) : preset.contextTokens),
    timeoutMs: timeout(local),
    maxRetries,
    ...(price ? { price } : {}),
    maxTokensParam: official ? 'max_completion_tokens' : 'max_tokens',
    // OpenAI's reasoning models refuse any temperature but their own.
    ...(official ? {} : { temperature }),
    id: `${provider}/${model}`,
  };
}

/** The key for these settings, read from the environment; undefined when unset (or not needed and unset). */
export function providerKey(s: ProviderSettings, env: NodeJS.ProcessEnv): string | undefined {
  const v = s.keyEnv ? env[s.keyEnv] : undefined;
  return v?.trim() ? v.trim() : undefined;
}

/** Why these settings cannot call a model, or undefined when they can. */
export function whyNoModel(s: ProviderSettings, env: NodeJS.ProcessEnv): string | undefined {
  if (s.keyNeeded && !providerKey(s, env)) return `No ${s.keyEnv ?? 'API key'}`;
  return undefined;
}

/** The endpoint as it may be shown: without any user:password part. */
export function describeEndpoint(s: ProviderSettings): string {
  return (s.baseURL ?? 'https://api.anthropic.com').replace(/^(https?:\/\/)[^/@]*@/i, '$1');
}

/** Where the model is, for messages: model, label and endpoint. */
export function describeProvider(s: ProviderSettings): string {
  return `${s.model} (${s.label} at ${describeEndpoint(s)})`;
}

/** The default model and the tasks that `model.tasks` sends elsewhere, with the name both go by. */
export interface ModelPlan {
  main: ProviderSettings;
  tasks: Map<ModelTask, ProviderSettings>;
  /** What entries are stamped with: changing any task's model recompiles what it wrote. */
  name: string;
}

export function modelPlan(config: KbConfig, env: NodeJS.ProcessEnv): ModelPlan {
  const main = resolveProvider(config, env);
  const tasks = new Map<ModelTask, ProviderSettings>();
  for (const task of MODEL_TASKS) {
    if (config.model.tasks[task] === undefined) continue;
    // resolveProvider ignores the task when one model was chosen for the run: then s is main.
    const s = resolveProvider(config, env, task);
    if (s.id !== main.id || s.baseURL !== main.baseURL) tasks.set(task, s);
  }
  return {
    main,
    tasks,
    name: routedName(
      main.id,
      [...tasks].map(([t, s]) => [t, s.id]),
    ),
  };
}

export function routedName(mainId: string, tasks: [string, string][]): string {
  return [mainId, ...tasks.map(([t, id]) => `${t}=${id}`)].join('+');
}

/** The settings that answer a request task under a plan. */
export function settingsForTask(plan: ModelPlan, requestTask: string): ProviderSettings {
  const t = taskOf(requestTask);
  return (t && plan.tasks.get(t)) || plan.main;
}

/** Why this run has no model ("No DEEPSEEK_API_KEY"), or undefined when it has one. */
export function noModelReason(config: KbConfig, env: NodeJS.ProcessEnv): string | undefined {
  return whyNoModel(resolveProvider(config, env), env);
}
