import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeAnthropic, userPrompt, type FakeRequest } from './fake-anthropic.js';
import { startFakeOpenAI } from './fake-openai.js';
import { claude, RAW } from './model-fixtures.js';
import { fixture, listTree, read, REPO, runKbIn } from './helpers.js';

interface Recorded {
  name: string;
  text: string;
  stopReason?: string;
  expect: 'entry' | 'repair' | 'offline';
  title?: string;
  error?: string;
  contains?: string;
  lacks?: string;
}

const REPLIES = JSON.parse(readFileSync(join(REPO, 'test/fixtures/model-replies/replies.json'), 'utf8')) as Recorded[];

const GOOD = REPLIES.find((r) => r.name === 'good')!;

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** The recorded reply to the source prompt; the good one to a repair; the shared fake for concepts. */
function replay(r: Recorded) {
  return (req: FakeRequest) => {
    const p = userPrompt(req);
    if (!p.includes('<source path="raw/rag-notes.md"')) return claude(req);
    if (p.includes('<previous_reply>')) return { text: GOOD.text };
    return { text: r.text, ...(r.stopReason ? { stopReason: r.stopReason } : {}) };
  };
}

const SDKS = {
  anthropic: async (r: Recorded) => {
    const fake = await startFakeAnthropic(replay(r));
    close = () => fake.close();
    return {
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url },
      prompts: () => fake.messages().map(userPrompt),
    };
  },
  openai: async (r: Recorded) => {
    const fake = await startFakeOpenAI(replay(r));
    close = () => fake.close();
    return {
      env: { KB_PROVIDER: 'openai', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test' },
      prompts: () => fake.chats().map((c) => String(c.body.messages.at(-1).content)),
    };
  },
};

describe.each(Object.keys(SDKS) as (keyof typeof SDKS)[])('recorded model replies through the %s SDK', (sdk) => {
  it.each(REPLIES.map((r) => [r.name, r] as const))('%s', async (_name, r) => {
    const { env, prompts } = await SDKS[sdk](r);
    const root = fixture({ 'raw/rag-notes.md': RAW['raw/rag-notes.md'] });
    const out = await runKbIn(['compile'], { cwd: root, env });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).not.toContain('unexpected error');
    const sources = listTree(join(root, 'wiki')).filter((f) => f.startsWith('sources/'));
    expect(sources).toEqual(['sources/Retrieval notes.md']);
    const entry = read(root, 'wiki/sources/Retrieval notes.md');
    const repairs = prompts().filter((p) => p.includes('<previous_reply>'));
    if (r.expect === 'offline') {
      expect(entry).toMatch(/compiled_by: '?offline/);
      expect(out.stderr).toContain(r.error!);
      return;
    }
    expect(entry).toMatch(/compiled_by: '?model:/);
    if (r.expect === 'repair') {
      expect(repairs).toHaveLength(1);
      expect(repairs[0]).toContain(r.error!);
    } else expect(repairs).toHaveLength(0);
    if (r.contains) expect(entry).toContain(r.contains);
    if (r.lacks) expect(entry).not.toContain(r.lacks);
  });
});
