import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { kbPaths } from '../src/kb/paths.js';
import { createModelClient, ModelUnavailableError, type ModelRequest, type ModelWait } from '../src/model/client.js';
import { startFakeAnthropic, userPrompt, type FakeAnthropic, type FakeRequest } from './fake-anthropic.js';
import { claude } from './model-fixtures.js';
import { join } from 'node:path';
import { scanWiki } from '../src/entry/wiki.js';
import { fixture, runKb, runKbIn } from './helpers.js';

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const req: ModelRequest = { task: 'test', templateHash: 't1', system: 'You write wiki entries.', prompt: 'hello' };

const RAW = {
  'raw/slow.md':
    '# Slow Notes\n\nThe reply to this note takes longer than the timeout allows. Retrieval-Augmented Generation (RAG) helps.\n',
  'raw/quick.md':
    '# Quick Notes\n\nA vector database stores embeddings. Retrieval-Augmented Generation (RAG) searches them.\n',
};

const env = (url: string) => ({ ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: url });
/** The request that compiles raw/slow.md (concept requests quote it as a `<source_entry>`, not a `<source>`). */
const isSlow = (r: FakeRequest) => userPrompt(r).includes('<source path="raw/slow.md"');
const config = (model: Record<string, unknown>) => JSON.stringify({ model });

/** Which compiler wrote the source entry of a raw file (the model may retitle it). */
function compiledBy(root: string, raw: string): string {
  const e = scanWiki(join(root, 'wiki')).entries.find(
    (x) => x.fm.kind === 'source' && (x.fm.source_ref ?? []).includes(raw),
  );
  return String(e?.fm['compiled_by'] ?? 'no entry');
}

describe('model.timeoutSeconds and model.maxRetries', () => {
  it('a reply slower than the timeout (1 s, no retry): that document falls back with a warning naming the timeout, the rest is compiled, and the next compile asks again', async () => {
    let slow = true;
    fake = await startFakeAnthropic((r) => (isSlow(r) && slow ? { ...claude(r), delayMs: 4000 } : claude(r)));
    const root = fixture({ ...RAW, 'kb.config.json': config({ timeoutSeconds: 1, maxRetries: 0 }) });
    const r = await runKb(['compile'], { cwd: root, env: env(fake.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/2 new/);
    const warned = r.stderr.split('\n').filter((l) => l.startsWith('raw/slow.md:'));
    expect(warned, r.stderr).toHaveLength(1);
    expect(warned[0]).toMatch(
      /warning Unexpected timeout: no reply from the model within 1 s \(model\.timeoutSeconds in kb\.config\.json\); used the offline compiler for this entry — the next `kb compile` tries the model again \[model-unavailable\]/,
    );
    expect(r.stderr).not.toMatch(/unexpected error|at .*\.ts:\d+/);
    // maxRetries 0: the slow source was asked once.
    expect(fake.messages().filter(isSlow)).toHaveLength(1);
    expect(compiledBy(root, 'raw/slow.md')).toMatch(/^offline/);
    expect(compiledBy(root, 'raw/quick.md')).toMatch(/^model:/);

    slow = false;
    const again = await runKbIn(['compile'], { cwd: root, env: env(fake.url) });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('model-unavailable');
    expect(compiledBy(root, 'raw/slow.md')).toMatch(/^model:/);
  }, 120_000);

  it('maxRetries is the number of tries after a timeout', async () => {
    fake = await startFakeAnthropic(() => ({ text: 'late', delayMs: 3000 }));
    const c = createModelClient(
      {
        paths: kbPaths(fixture()),
        config: { ...DEFAULT_CONFIG, model: { ...DEFAULT_CONFIG.model, timeoutSeconds: 0.3, maxRetries: 2 } },
        env: { ANTHROPIC_API_KEY: 'k' },
      },
      { baseURL: fake.url },
    )!;
    const err = await c.complete(req).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelUnavailableError);
    expect((err as Error).message).toBe(
      'timeout: no reply from the model within 0.3 s (model.timeoutSeconds in kb.config.json), tried 3 times',
    );
    expect(fake.messages()).toHaveLength(3);
  });

  it('tells how long a call has been waiting, every second after the first few, and when nothing waits any more', async () => {
    fake = await startFakeAnthropic(() => ({ text: 'ok', delayMs: 5500 }));
    const seen: (ModelWait | undefined)[] = [];
    const c = createModelClient(
      { paths: kbPaths(fixture()), config: DEFAULT_CONFIG, env: { ANTHROPIC_API_KEY: 'k' } },
      { baseURL: fake.url, onWaiting: (w) => seen.push(w) },
    )!;
    expect((await c.complete(req)).text).toBe('ok');
    const waits = seen.filter((w): w is ModelWait => w !== undefined);
    expect(waits.length).toBeGreaterThan(0);
    expect(waits.every((w) => w.seconds >= 3 && w.calls === 1)).toBe(true);
    expect(waits.map((w) => w.seconds)).toEqual([...waits.map((w) => w.seconds)].sort((a, b) => a - b));
    expect(seen.at(-1)).toBeUndefined();
  });

  it('the settings are checked: a timeout of 0 is a configuration error', async () => {
    const root = fixture({ ...RAW, 'kb.config.json': config({ timeoutSeconds: 0 }) });
    const r = await runKbIn(['compile'], { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/`model\.timeoutSeconds` must be > 0/);
  });
});

describe('a 200 reply that is not valid JSON', () => {
  it('is a transient failure with a clear message, retried like one', async () => {
    fake = await startFakeAnthropic([
      { status: 200, body: '{"id": "msg_1", "type": "message", "content": [' },
      { text: 'ok' },
    ]);
    const c = createModelClient(
      { paths: kbPaths(fixture()), config: DEFAULT_CONFIG, env: { ANTHROPIC_API_KEY: 'k' } },
      { baseURL: fake.url, maxRetries: 1 },
    )!;
    expect((await c.complete(req)).text).toBe('ok');
    expect(fake.messages()).toHaveLength(2);

    await fake.close();
    fake = await startFakeAnthropic(() => ({ status: 200, body: '<html>proxy error</html>' }));
    const none = createModelClient(
      { paths: kbPaths(fixture()), config: DEFAULT_CONFIG, env: { ANTHROPIC_API_KEY: 'k' } },
      { baseURL: fake.url, maxRetries: 0 },
    )!;
    const err = await none.complete(req).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelUnavailableError);
    expect((err as Error).message).toMatch(/^reply from the Anthropic API that is not valid JSON \(/);

    await fake.close();
    fake = await startFakeAnthropic(() => ({ status: 200, body: '"just a string"' }));
    const odd = createModelClient(
      { paths: kbPaths(fixture()), config: DEFAULT_CONFIG, env: { ANTHROPIC_API_KEY: 'k' } },
      { baseURL: fake.url, maxRetries: 0 },
    )!;
    await expect(odd.complete(req)).rejects.toThrow(/not a message/);
  });

  it('in a compile: the document falls back to the offline compiler with a warning, and the next compile asks again', async () => {
    let broken = true;
    fake = await startFakeAnthropic((r) =>
      isSlow(r) && broken ? { status: 200, body: '{"id": "msg_1", "content": [{"type": "text", "te' } : claude(r),
    );
    const root = fixture({ ...RAW, 'kb.config.json': config({ maxRetries: 0 }) });
    const r = await runKbIn(['compile'], { cwd: root, env: env(fake.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/unexpected error|SyntaxError/);
    const warned = r.stderr.split('\n').filter((l) => l.startsWith('raw/slow.md:'));
    expect(warned, r.stderr).toHaveLength(1);
    expect(warned[0]).toMatch(
      /warning Unexpected reply from the Anthropic API that is not valid JSON \(.+\); used the offline compiler for this entry — the next `kb compile` tries the model again \[model-unavailable\]/,
    );
    expect(compiledBy(root, 'raw/slow.md')).toMatch(/^offline/);

    broken = false;
    const again = await runKbIn(['compile'], { cwd: root, env: env(fake.url) });
    expect(again.code, again.stderr).toBe(0);
    expect(compiledBy(root, 'raw/slow.md')).toMatch(/^model:/);
  }, 120_000);
});
