import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { kbPaths } from '../src/kb/paths.js';
import { createModelClient, type ModelRequest } from '../src/model/client.js';
import { readSpend } from '../src/model/cache.js';
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic.js';
import { fixture } from './helpers.js';

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const req: ModelRequest = {
  task: 'test',
  templateHash: 't1',
  system: 'You write wiki entries.',
  cachedPrefix: 'CATALOG',
  prompt: 'hello',
};

function client(root: string, url: string, maxRetries = 3) {
  const c = createModelClient(
    { paths: kbPaths(root), config: structuredClone(DEFAULT_CONFIG), env: { ANTHROPIC_API_KEY: 'test-key' } },
    { baseURL: url, maxRetries },
  );
  if (!c) throw new Error('no client');
  return c;
}

describe('model client', () => {
  it('is undefined without a key', () => {
    const root = fixture();
    expect(createModelClient({ paths: kbPaths(root), config: DEFAULT_CONFIG, env: {} })).toBeUndefined();
  });

  it('sends the cached prefix with cache_control, caches the reply, records usage', async () => {
    fake = await startFakeAnthropic([
      { text: 'hi there', usage: { input_tokens: 1000, output_tokens: 200, cache_read_input_tokens: 500 } },
    ]);
    const root = fixture();
    const c = client(root, fake.url);
    const a = await c.complete(req);
    expect(a).toMatchObject({ text: 'hi there', stopReason: 'end_turn', cached: false });
    const sent = fake.messages()[0]!;
    expect(sent.headers['x-api-key'] ?? sent.headers['authorization']).toMatch(/test-key/);
    expect(sent.body.system).toEqual([
      { type: 'text', text: 'You write wiki entries.' },
      { type: 'text', text: 'CATALOG', cache_control: { type: 'ephemeral' } },
    ]);
    expect(sent.body.messages).toEqual([{ role: 'user', content: 'hello' }]);
    expect(sent.body.max_tokens).toBe(DEFAULT_CONFIG.model.maxTokens);
    // 1000*3 + 200*15 + 500*0.3 per million
    expect(c.spent().usd).toBeCloseTo((3000 + 3000 + 150) / 1e6, 10);

    const b = await client(root, fake.url).complete(req);
    expect(b).toMatchObject({ text: 'hi there', cached: true });
    expect(fake.messages()).toHaveLength(1);
    expect(existsSync(join(root, '.kb', 'cache.db'))).toBe(true);
    const spend = readSpend(kbPaths(root));
    expect(spend.calls).toBe(1);
    expect(spend.usage.input_tokens).toBe(1000);

    // A different template hash is a different key.
    fake.requests.length = 0;
    await expect(client(root, fake.url, 0).complete({ ...req, templateHash: 't2' })).rejects.toThrow();
  });

  it('keeps no reply that fails its check, and drops one kept before: the next request asks again', async () => {
    fake = await startFakeAnthropic([{ text: 'bad' }, { text: 'bad' }, { text: 'good' }, { text: 'unused' }]);
    const root = fixture();
    const keep = (r: { text: string }) => r.text === 'good';
    // A bad reply an older kb (or a batch) stored: found, failing the check, dropped and asked again.
    expect((await client(root, fake.url).complete(req)).text).toBe('bad');
    expect(client(root, fake.url).isCached?.({ ...req, keep })).toBe(false);
    const again = await client(root, fake.url).complete({ ...req, keep });
    expect(again).toMatchObject({ text: 'bad', cached: false });
    expect(client(root, fake.url).isCached?.(req)).toBe(false);
    expect((await client(root, fake.url).complete({ ...req, keep })).text).toBe('good');
    expect(await client(root, fake.url).complete({ ...req, keep })).toMatchObject({ text: 'good', cached: true });
    expect(fake.messages()).toHaveLength(3);
  });

  it.each([
    [429, { 'retry-after': '1' }],
    [529, {}],
    [500, {}],
    [503, { 'retry-after-ms': '10' }],
  ])('retries %i and then succeeds', async (status, headers) => {
    fake = await startFakeAnthropic([{ status, headers }, { text: 'ok' }]);
    const t0 = Date.now();
    const r = await client(fixture(), fake.url).complete(req);
    expect(r.text).toBe('ok');
    expect(fake.messages()).toHaveLength(2);
    if (status === 429) expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
  });

  it('gives up after maxRetries with the API error', async () => {
    fake = await startFakeAnthropic(() => ({ status: 529, headers: { 'retry-after-ms': '5' } }));
    await expect(client(fixture(), fake.url, 2).complete(req)).rejects.toThrow(/529|overloaded/i);
    expect(fake.messages()).toHaveLength(3);
  });

  it('retries a timed-out request', async () => {
    fake = await startFakeAnthropic([{ text: 'late', delayMs: 1500 }, { text: 'ok' }]);
    const c = createModelClient(
      { paths: kbPaths(fixture()), config: DEFAULT_CONFIG, env: { ANTHROPIC_API_KEY: 'k' } },
      { baseURL: fake.url, maxRetries: 2, timeoutMs: 300 },
    )!;
    expect((await c.complete(req)).text).toBe('ok');
  });

  it('bounds concurrency', async () => {
    let active = 0;
    let peak = 0;
    fake = await startFakeAnthropic(async () => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 50));
      active--;
      return { text: 'x' };
    });
    const config = structuredClone(DEFAULT_CONFIG);
    config.model.concurrency = 2;
    const c = createModelClient(
      { paths: kbPaths(fixture()), config, env: { ANTHROPIC_API_KEY: 'k' } },
      { baseURL: fake.url },
    )!;
    await Promise.all(Array.from({ length: 6 }, (_, i) => c.complete({ ...req, prompt: `p${i}` })));
    expect(peak).toBe(2);
    expect(c.spent().calls).toBe(6);
  });
});
