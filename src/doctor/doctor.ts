import Anthropic from '@anthropic-ai/sdk';
import type { KbConfig } from '../config/defaults.js';
import { apiFailure, untilAborted, type ApiFailure } from '../model/errors.js';
import { openaiSdk } from '../model/openai.js';
import { isLocalURL } from '../model/presets.js';
import { describeEndpoint, modelPlan, providerKey, whyNoModel, type ProviderSettings } from '../model/provider.js';

export type DoctorProblem =
  | 'no-key'
  | 'connection-refused'
  | 'unreachable'
  | 'timeout'
  | 'unauthorised'
  | 'model-not-found'
  | 'bad-reply'
  | 'error';

/** One model (or the embedder) kb would call, and whether a tiny call to it worked. */
export interface DoctorCheck {
  /** `model`, `model.tasks.judge`, `embedding`. */
  role: string;
  provider: string;
  label: string;
  model: string;
  /** Empty for the built-in embedder, which calls nothing. */
  endpoint: string;
  /** The variable that holds the key, and whether it is set (never its value). */
  keyEnv: string | undefined;
  keySet: boolean;
  ok: boolean;
  problem?: DoctorProblem;
  /** Why not, in a sentence, with the way out. */
  detail: string;
}

/** Tiny calls wait at most this long: a local model being loaded can take a while. */
const CHECK_TIMEOUT_MS = 60_000;

/**
 * `kb doctor`: the default model, every other model in `model.tasks`, and the embedder (the
 * built-in one or an OpenAI-compatible endpoint), each checked with one tiny call (no retries,
 * nothing cached or charged to the budget).
 */
export async function doctorKb(
  ctx: { config: KbConfig; env: NodeJS.ProcessEnv },
  opts: { signal?: AbortSignal } = {},
): Promise<DoctorCheck[]> {
  const plan = modelPlan(ctx.config, ctx.env);
  const targets: [string, ProviderSettings][] = [['model', plan.main]];
  for (const [task, s] of plan.tasks) targets.push([`model.tasks.${task}`, s]);
  const checks = await Promise.all(targets.map(([role, s]) => checkModel(role, s, ctx.env, opts.signal)));
  checks.push(
    ctx.config.embedding.provider === 'openai'
      ? await checkEmbedding(ctx.config, ctx.env, opts.signal)
      : await checkLocalEmbedding(ctx.config),
  );
  return checks;
}

/** The built-in embedder: no key, no network; one text through it, its vector the size embedding.dims says. */
async function checkLocalEmbedding(config: KbConfig): Promise<DoctorCheck> {
  const e = config.embedding;
  const head = {
    role: 'embedding',
    provider: 'local',
    label: 'built-in embedder, on this machine, no network',
    model: e.model,
    endpoint: '',
    keyEnv: undefined,
    keySet: false,
  };
  try {
    const { LocalEmbedder } = await import('../embed/local.js');
    const [v] = await new LocalEmbedder(e.dims).embed(['ping']);
    if (v?.length !== e.dims || !v.every(Number.isFinite))
      return { ...head, ok: false, problem: 'bad-reply', detail: `no vector of ${e.dims} numbers for a test text` };
    return { ...head, ok: true, detail: `answered (${v.length} dimensions)` };
  } catch (err) {
    return { ...head, ok: false, problem: 'error', detail: (err as Error).message };
  }
}

function base(role: string, s: ProviderSettings, env: NodeJS.ProcessEnv): Omit<DoctorCheck, 'ok' | 'detail'> {
  return {
    role,
    provider: s.provider,
    label: s.label,
    model: s.model,
    endpoint: describeEndpoint(s),
    keyEnv: s.keyEnv,
    keySet: providerKey(s, env) !== undefined,
  };
}

async function checkModel(
  role: string,
  s: ProviderSettings,
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<DoctorCheck> {
  const head = base(role, s, env);
  const why = whyNoModel(s, env);
  if (why) {
    const other = s.kind === 'anthropic' ? ', or choose another provider (model.provider, KB_PROVIDER)' : '';
    const detail = `${why}: set it in the environment (kb never stores keys)${other}`;
    return { ...head, ok: false, problem: 'no-key', detail };
  }
  const key = providerKey(s, env);
  const limits = { timeoutMs: Math.min(s.timeoutMs, CHECK_TIMEOUT_MS), maxRetries: 0 };
  try {
    await tinyCall(s, key, limits, signal);
    return { ...head, ok: true, detail: 'answered' };
  } catch (err) {
    if (signal?.aborted) throw err;
    if (err instanceof NotAReply) return { ...head, ok: false, problem: 'bad-reply', detail: err.message };
    return { ...head, ok: false, ...diagnose(err, s, key) };
  }
}

class NotAReply extends Error {}

/** A one-token reply to "ping", without retries. */
async function tinyCall(
  s: ProviderSettings,
  key: string | undefined,
  limits: Limits,
  signal?: AbortSignal,
): Promise<void> {
  const call = signal ? { signal } : {};
  if (s.kind === 'anthropic') {
    const baseURL = s.baseURL ? { baseURL: s.baseURL } : {};
    const timeout = limits.timeoutMs;
    const sdk = new Anthropic({
      apiKey: key ?? null,
      authToken: null,
      ...baseURL,
      timeout,
      maxRetries: 0,
      logLevel: 'off',
    });
    await untilAborted(sdk.messages.create({ model: s.model, max_tokens: 1, messages: [PING] }, call), signal);
    return;
  }
  const sdk = openaiSdk(s, key, limits);
  const c = await untilAborted(
    sdk.chat.completions.create({ model: s.model, messages: [PING], max_tokens: 1 }, call),
    signal,
  );
  if (!Array.isArray(c?.choices)) throw new NotAReply(NOT_A_COMPLETION);
}

const PING = { role: 'user' as const, content: 'ping' };
const NOT_A_COMPLETION =
  'the server answered, but not with a chat completion: is the base URL the OpenAI-compatible one (…/v1)?';
type Limits = { timeoutMs: number; maxRetries: number };

async function checkEmbedding(config: KbConfig, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<DoctorCheck> {
  const e = config.embedding;
  const key = e.apiKeyEnv ? env[e.apiKeyEnv]?.trim() || undefined : undefined;
  const s = { baseURL: e.baseURL.replace(/\/+$/, ''), timeoutMs: CHECK_TIMEOUT_MS, maxRetries: 0 };
  const endpoint = s.baseURL.replace(/^(https?:\/\/)[^/@]*@/i, '$1');
  const head = {
    role: 'embedding',
    provider: 'openai',
    label: 'embeddings',
    model: e.model,
    endpoint,
    keyEnv: e.apiKeyEnv,
    keySet: key !== undefined,
  };
  const bad = (detail: string): DoctorCheck => ({ ...head, ok: false, problem: 'bad-reply', detail });
  try {
    const req = { model: e.model, input: ['ping'], encoding_format: 'float' as const };
    const res = await untilAborted(openaiSdk(s, key).embeddings.create(req, signal ? { signal } : {}), signal);
    const got = res?.data?.[0]?.embedding;
    if (!Array.isArray(got)) return bad('the server answered, but not with an embedding');
    if (got.length !== e.dims)
      return bad(`vectors of ${got.length} numbers, but embedding.dims is ${e.dims}: set "dims": ${got.length}`);
    return { ...head, ok: true, detail: `answered (${got.length} dimensions)` };
  } catch (err) {
    if (signal?.aborted) throw err;
    const local = isLocalURL(s.baseURL);
    const where = { local, model: e.model, keyEnv: e.apiKeyEnv, provider: local ? 'embedding' : 'openai' };
    return { ...head, ok: false, ...diagnose(err, where, key) };
  }
}

type Where = Pick<ProviderSettings, 'local' | 'model' | 'keyEnv' | 'provider'>;
type Diagnosis = { problem: DoctorProblem; detail: string };

const NOT_JSON =
  'the server answered with something that is not JSON: is the base URL the OpenAI-compatible one (…/v1)?';

/** What an error means for a person: the kind of problem and the way out. Keys are cut out of it. */
function diagnose(err: unknown, s: Where, key: string | undefined): Diagnosis {
  const f: ApiFailure | undefined = apiFailure(err);
  const redact = (t: string) => (key ? t.split(key).join('***') : t);
  if (!f) return { problem: 'error', detail: redact(err instanceof Error ? err.message : String(err)) };
  if (f.timeout) {
    return {
      problem: 'timeout',
      detail: `no answer within ${CHECK_TIMEOUT_MS / 1000} s (a local model may still be loading: try again)`,
    };
  }
  if (f.code === 'malformed') return { problem: 'bad-reply', detail: NOT_JSON };
  if (f.code === 'cut')
    return {
      problem: 'bad-reply',
      detail: `the server closed the connection in the middle of its reply (${f.detail}): try again`,
    };
  if (f.status === undefined) return unreachable(f, s, redact(f.detail));
  if (f.status === 401 || f.status === 403) {
    const where = s.keyEnv ? ` in ${s.keyEnv}` : '';
    return { problem: 'unauthorised', detail: `unauthorised (HTTP ${f.status}): the server refused the key${where}` };
  }
  if (f.status === 404) {
    const local = s.local ? ': load it on the server, or set model.name' : ': check model.name';
    const pull = s.provider === 'ollama' ? `: run \`ollama pull ${s.model}\`` : local;
    return { problem: 'model-not-found', detail: `model "${s.model}" not found (HTTP 404)${pull}` };
  }
  return { problem: 'error', detail: `HTTP ${f.status}: ${redact(f.detail.replace(/\s+/g, ' ').slice(0, 200))}` };
}

function unreachable(f: ApiFailure, s: Where, said: string): Diagnosis {
  if (f.code !== 'ECONNREFUSED') {
    return {
      problem: 'unreachable',
      detail: `cannot reach the server (${f.code ?? said}): check the base URL and the network`,
    };
  }
  const start =
    s.provider === 'ollama' ? ' (`ollama serve`)' : s.provider === 'llamacpp' ? ' (`llama-server -m …`)' : '';
  return {
    problem: 'connection-refused',
    detail: `connection refused: nothing listens there; start the server${start} or set model.baseURL`,
  };
}
