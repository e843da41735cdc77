import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type KbConfig } from '../config/defaults.js';
import { promptBudget } from '../compile/model/prompts.js';
import { chatParams, readCompletion } from './openai.js';
import { modelPlan, noModelReason, resolveProvider, settingsForTask } from './provider.js';

function config(model: Partial<KbConfig['model']> = {}): KbConfig {
  const c = structuredClone(DEFAULT_CONFIG);
  Object.assign(c.model, model);
  return c;
}

describe('resolveProvider', () => {
  it.each([
    // [config model, env, provider, model, baseURL, local, keyEnv]
    [{}, {}, 'anthropic', 'claude-sonnet-4-5', undefined, false, 'ANTHROPIC_API_KEY'],
    [{ provider: 'ollama' }, {}, 'ollama', 'qwen2.5:7b', 'http://127.0.0.1:11434/v1', true, undefined],
    [{ provider: 'llama.cpp' }, {}, 'llamacpp', 'local', 'http://127.0.0.1:8080/v1', true, undefined],
    [
      { provider: 'deepseek' },
      {},
      'deepseek',
      'deepseek-chat',
      'https://api.deepseek.com/v1',
      false,
      'DEEPSEEK_API_KEY',
    ],
    [
      { provider: 'qwen', name: 'qwen-max' },
      {},
      'qwen',
      'qwen-max',
      'https://dashscope.aliyuncs.com/compatible-mode/v1',
      false,
      'DASHSCOPE_API_KEY',
    ],
    [{ provider: 'kimi' }, {}, 'kimi', 'kimi-k2-0905-preview', 'https://api.moonshot.ai/v1', false, 'MOONSHOT_API_KEY'],
    [{}, { KB_PROVIDER: 'openai' }, 'openai', 'gpt-4.1-mini', 'https://api.openai.com/v1', false, 'OPENAI_API_KEY'],
    [
      {},
      { KB_PROVIDER: 'openai', OPENAI_BASE_URL: 'http://localhost:1234/v1/', KB_MODEL: 'phi-4' },
      'openai',
      'phi-4',
      'http://localhost:1234/v1',
      true,
      'OPENAI_API_KEY',
    ],
    [
      { provider: 'vllm', baseURL: 'http://10.0.0.5:8000/v1', apiKeyEnv: 'VLLM_KEY' },
      {},
      'vllm',
      'Qwen/Qwen2.5-7B-Instruct',
      'http://10.0.0.5:8000/v1',
      true,
      'VLLM_KEY',
    ],
  ] as const)('%j with %j → %s %s', (model, env, provider, name, baseURL, local, keyEnv) => {
    const s = resolveProvider(config(model), env);
    expect(s.provider).toBe(provider);
    expect(s.model).toBe(name);
    expect(s.baseURL).toBe(baseURL);
    expect(s.local).toBe(local);
    expect(s.keyEnv).toBe(keyEnv);
    expect(s.keyNeeded).toBe(!local);
  });

  it('gives local models no price, a longer timeout, and keeps the configured one', () => {
    expect(resolveProvider(config({ provider: 'ollama' }), {})).toMatchObject({
      timeoutMs: 1_800_000,
      price: { input: 0, output: 0 },
    });
    expect(resolveProvider(config({ provider: 'deepseek' }), {}).timeoutMs).toBe(600_000);
    expect(resolveProvider(config({ provider: 'ollama', timeoutSeconds: 90, maxRetries: 1 }), {})).toMatchObject({
      timeoutMs: 90_000,
      maxRetries: 1,
    });
    // An unknown endpoint has no price (the estimate says so) unless model.prices names the model.
    expect(
      resolveProvider(config(), { KB_PROVIDER: 'openai', OPENAI_BASE_URL: 'https://llm.example.com/v1' }).price,
    ).toBeUndefined();
  });

  it('keeps the Claude cache identity (the bare name) and names others provider/model', () => {
    expect(resolveProvider(config(), {}).id).toBe('claude-sonnet-4-5');
    expect(resolveProvider(config({ provider: 'deepseek' }), {}).id).toBe('deepseek/deepseek-chat');
  });

  it('takes KB_PROVIDER over the config, without the config provider endpoint or key', () => {
    const c = config({ provider: 'ollama', baseURL: 'http://127.0.0.1:9999/v1', apiKeyEnv: 'X' });
    expect(resolveProvider(c, { KB_PROVIDER: 'deepseek' })).toMatchObject({
      provider: 'deepseek',
      baseURL: 'https://api.deepseek.com/v1',
      keyEnv: 'DEEPSEEK_API_KEY',
    });
    expect(resolveProvider(c, { KB_PROVIDER: 'ollama' }).baseURL).toBe('http://127.0.0.1:9999/v1');
    expect(() => resolveProvider(config({ provider: 'gemini' }), {})).toThrow(
      /Unexpected model provider "gemini", expected anthropic, openai or one of: ollama/,
    );
  });

  it('says which key is missing', () => {
    expect(noModelReason(config(), {})).toBe('No ANTHROPIC_API_KEY');
    expect(noModelReason(config({ provider: 'qwen' }), {})).toBe('No DASHSCOPE_API_KEY');
    expect(noModelReason(config({ provider: 'qwen' }), { DASHSCOPE_API_KEY: 'k' })).toBeUndefined();
    expect(noModelReason(config({ provider: 'ollama' }), {})).toBeUndefined();
  });
});

describe('model.tasks', () => {
  const c = config({
    provider: 'ollama',
    name: 'qwen2.5:14b',
    tasks: { concepts: 'qwen2.5:3b', expand: 'qwen2.5:3b', judge: { provider: 'deepseek' } },
  });

  it('sends each request task to its model and names the plan after all of them', () => {
    const plan = modelPlan(c, {});
    expect(settingsForTask(plan, 'compile-source').model).toBe('qwen2.5:14b');
    expect(settingsForTask(plan, 'concept').model).toBe('qwen2.5:3b');
    expect(settingsForTask(plan, 'concept-repair').model).toBe('qwen2.5:3b');
    expect(settingsForTask(plan, 'expand-query').model).toBe('qwen2.5:3b');
    expect(settingsForTask(plan, 'heal-judge')).toMatchObject({ provider: 'deepseek', model: 'deepseek-chat' });
    expect(settingsForTask(plan, 'lint-contradiction').provider).toBe('deepseek');
    expect(settingsForTask(plan, 'heal-rewrite').model).toBe('qwen2.5:14b');
    expect(plan.name).toBe(
      'ollama/qwen2.5:14b+concepts=ollama/qwen2.5:3b+expand=ollama/qwen2.5:3b+judge=deepseek/deepseek-chat',
    );
  });

  it('uses one model for every task when the run names one (--model, --provider)', () => {
    expect(modelPlan(c, { KB_MODEL: 'llama3.1:8b' })).toMatchObject({ name: 'ollama/llama3.1:8b' });
    expect(modelPlan(c, { KB_PROVIDER: 'deepseek' }).tasks.size).toBe(0);
  });
});

describe('the OpenAI-compatible wire format', () => {
  const s = resolveProvider(config({ provider: 'deepseek' }), {});

  it('puts instructions and catalog in the system message and sizes the reply', () => {
    const p = chatParams(s, 1000, {
      task: 't',
      templateHash: 'h',
      system: 'SYS',
      cachedPrefix: '<catalog/>',
      prompt: 'P',
    });
    expect(p).toEqual({
      model: 'deepseek-chat',
      max_tokens: 1000,
      temperature: 0,
      messages: [
        { role: 'system', content: 'SYS\n\n<catalog/>' },
        { role: 'user', content: 'P' },
      ],
    });
    const o = resolveProvider(config(), { KB_PROVIDER: 'openai' });
    const official = chatParams(o, 10, { task: 't', templateHash: 'h', system: 'S', prompt: 'P' });
    expect(official).toHaveProperty('max_completion_tokens', 10);
    // OpenAI's reasoning models take no temperature; a configured one reaches other providers.
    expect(official).not.toHaveProperty('temperature');
    const warm = resolveProvider(config({ provider: 'deepseek', temperature: 0.7 }), {});
    expect(chatParams(warm, 10, { task: 't', templateHash: 'h', system: 'S', prompt: 'P' })).toHaveProperty(
      'temperature',
      0.7,
    );
  });

  it('reads text, stop reason and usage (cached prompt tokens apart), and drops <think>', () => {
    const r = readCompletion({
      id: 'x',
      object: 'chat.completion',
      created: 0,
      model: 'm',
      choices: [
        {
          index: 0,
          finish_reason: 'length',
          logprobs: null,
          message: { role: 'assistant', content: '<think>hmm</think>\n<kb_entry/>', refusal: null },
        },
      ],
      usage: {
        prompt_tokens: 1000,
        completion_tokens: 20,
        total_tokens: 1020,
        prompt_tokens_details: { cached_tokens: 600 },
      },
    });
    expect(r).toEqual({
      text: '<kb_entry/>',
      stopReason: 'max_tokens',
      usage: { input_tokens: 400, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 600 },
    });
    expect(() => readCompletion({ error: 'x' } as never)).toThrow(
      /that is not a chat completion \(no `choices` list\)/,
    );
  });

  it('cuts parts, catalog and reply to a small context, and leaves a large one as it was', () => {
    expect(promptBudget(DEFAULT_CONFIG, 200_000)).toEqual({
      maxTokens: 4096,
      partTokens: 12_000,
      catalogTokens: 12_000,
      language: 'auto',
    });
    const small = promptBudget(DEFAULT_CONFIG, 4096);
    expect(small.maxTokens).toBe(1024);
    expect(small.maxTokens + small.partTokens + small.catalogTokens + 1500).toBeLessThanOrEqual(4096 + 400);
  });
});
