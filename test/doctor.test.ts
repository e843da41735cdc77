import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { startFakeOpenAI, type FakeOpenAI } from './fake-openai.js';
import { fixture, runKb, writeFile, runKbIn } from './helpers.js';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const KEY = 'sk-doctor-SECRET-9d2e';

interface Check {
  role: string;
  model: string;
  ok: boolean;
  problem?: string;
  detail: string;
  keyEnv?: string;
  keySet: boolean;
}

async function doctor(
  root: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; checks: Check[]; text: string }> {
  const j = await runKb(['doctor', '--json'], { cwd: root, env });
  const t = await runKbIn(['doctor'], { cwd: root, env });
  expect(j.stdout + j.stderr + t.stdout + t.stderr).not.toContain(KEY);
  expect(t.code).toBe(j.code);
  return { code: j.code, checks: JSON.parse(j.stdout) as Check[], text: t.stdout };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const port = (s.address() as { port: number }).port;
  await new Promise((ok) => s.close(ok));
  return port;
}

describe('kb doctor', () => {
  it('says the provider works after one tiny call, and names the key variable without its value', async () => {
    fake = await startFakeOpenAI(() => ({ text: 'p' }), { models: ['qwen-plus'] });
    const root = fixture();
    writeFile(root, 'kb.config.json', JSON.stringify({ model: { provider: 'qwen', baseURL: fake.url } }));
    const r = await doctor(root, { DASHSCOPE_API_KEY: KEY });
    expect(r.code).toBe(0);
    expect(r.checks).toEqual([
      expect.objectContaining({
        role: 'model',
        model: 'qwen-plus',
        ok: true,
        keyEnv: 'DASHSCOPE_API_KEY',
        keySet: true,
      }),
      expect.objectContaining({ role: 'embedding', provider: 'local', ok: true }),
    ]);
    expect(r.text).toMatch(
      /ok +model +qwen-plus \(Qwen \(DashScope compatible mode\) at http:\/\/127\.0\.0\.1:\d+\/v1; key DASHSCOPE_API_KEY set\)/,
    );
    const call = fake.chats()[0]!;
    expect(call.body.max_tokens).toBe(1);
    expect(call.headers['authorization']).toBe(`Bearer ${KEY}`);
  });

  it('reports a missing key without calling anyone', async () => {
    const root = fixture();
    writeFile(root, 'kb.config.json', JSON.stringify({ model: { provider: 'deepseek' } }));
    const r = await doctor(root);
    expect(r.code).toBe(1);
    expect(r.checks[0]).toMatchObject({ model: 'deepseek-chat', ok: false, problem: 'no-key', keySet: false });
    expect(r.checks[0]!.detail).toMatch(/No DEEPSEEK_API_KEY/);
  });

  it('tells connection refused from an unauthorised key and a model that is not pulled', async () => {
    const port = await closedPort();
    const root = fixture();
    writeFile(
      root,
      'kb.config.json',
      JSON.stringify({ model: { provider: 'ollama', baseURL: `http://127.0.0.1:${port}/v1` } }),
    );
    const refused = await doctor(root);
    expect(refused.code).toBe(1);
    expect(refused.checks[0]).toMatchObject({ ok: false, problem: 'connection-refused' });
    expect(refused.checks[0]!.detail).toMatch(/ollama serve/);

    fake = await startFakeOpenAI(() => ({
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${KEY}`, type: 'invalid_request_error' } },
    }));
    writeFile(
      root,
      'kb.config.json',
      JSON.stringify({ model: { provider: 'openai', baseURL: fake.url, name: 'gpt-4.1-mini', apiKeyEnv: 'MY_KEY' } }),
    );
    const denied = await doctor(root, { MY_KEY: KEY });
    expect(denied.checks[0]).toMatchObject({ ok: false, problem: 'unauthorised', keyEnv: 'MY_KEY', keySet: true });
    expect(denied.checks[0]!.detail).toMatch(/refused the key in MY_KEY/);
    await fake.close();

    fake = await startFakeOpenAI(() => ({ text: 'p' }), { models: ['qwen2.5:7b'] });
    writeFile(
      root,
      'kb.config.json',
      JSON.stringify({
        model: { provider: 'ollama', baseURL: fake.url, tasks: { judge: 'llama3.1:70b', concepts: 'qwen2.5:7b' } },
      }),
    );
    const missing = await doctor(root);
    expect(missing.code).toBe(1);
    expect(missing.checks.map((c) => [c.role, c.model, c.ok, c.problem])).toEqual([
      ['model', 'qwen2.5:7b', true, undefined],
      ['model.tasks.judge', 'llama3.1:70b', false, 'model-not-found'],
      ['embedding', 'kb-local-hash', true, undefined],
    ]);
    expect(missing.checks[1]!.detail).toContain('ollama pull llama3.1:70b');
  });

  it('has a line for the built-in embedder: no key, no network, vectors of embedding.dims', async () => {
    fake = await startFakeOpenAI(() => ({ text: 'p' }), { models: ['qwen2.5:7b'] });
    const root = fixture();
    writeFile(
      root,
      'kb.config.json',
      JSON.stringify({ model: { provider: 'ollama', baseURL: fake.url }, embedding: { provider: 'local', dims: 256 } }),
    );
    const r = await doctor(root);
    expect(r.code, r.text).toBe(0);
    expect(r.checks[1]).toMatchObject({
      role: 'embedding',
      provider: 'local',
      model: 'kb-local-hash',
      ok: true,
      keySet: false,
      detail: 'answered (256 dimensions)',
    });
    expect(r.text).toMatch(
      /ok +embedding +kb-local-hash \(built-in embedder, on this machine, no network\)\n +answered \(256 dimensions\)/,
    );
    expect(fake.requests.filter((q) => q.path.includes('embeddings'))).toHaveLength(0);
  });

  it('checks an OpenAI-compatible embedder too, with its dimensions', async () => {
    fake = await startFakeOpenAI(() => ({ text: 'p' }), {
      models: ['qwen2.5:7b'],
      embed: (input) => input.map(() => [0.1, 0.2, 0.3]),
    });
    const root = fixture();
    writeFile(
      root,
      'kb.config.json',
      JSON.stringify({
        model: { provider: 'ollama', baseURL: fake.url },
        embedding: { provider: 'openai', baseURL: fake.url, model: 'nomic-embed-text', dims: 768 },
      }),
    );
    const r = await doctor(root);
    expect(r.code).toBe(1);
    expect(r.checks[1]).toMatchObject({ role: 'embedding', ok: false, problem: 'bad-reply' });
    expect(r.checks[1]!.detail).toContain('"dims": 3');
  });
});
