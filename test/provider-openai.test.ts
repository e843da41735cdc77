import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeOpenAI, type FakeOpenAI } from './fake-openai.js';
import { claude, RAW } from './model-fixtures.js';
import { fixture, listTree, read, runKb, writeFile, type CliResult, runKbIn } from './helpers.js';
import type { FakeRequest } from './fake-anthropic.js';
import { exampleEntry, git, gitInit, GIT_ENV, today } from './heal-helpers.js';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const KEY = 'sk-test-SECRET-4f9a1c77';

function env(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return { KB_PROVIDER: 'openai', OPENAI_BASE_URL: url, OPENAI_API_KEY: KEY, ...extra };
}

function config(root: string, model: Record<string, unknown>): void {
  writeFile(root, 'kb.config.json', JSON.stringify({ model }));
}

/** The key must not be in any file kb wrote (wiki, cache, logs, git) nor in anything it printed. */
function expectNoKey(root: string, ...outputs: CliResult[]): void {
  for (const f of listTree(root)) expect(readFileSync(join(root, f)).includes(KEY), f).toBe(false);
  for (const o of outputs) expect(o.stdout + o.stderr).not.toContain(KEY);
}

describe('kb compile through an OpenAI-compatible provider', () => {
  it('writes model entries with the real openai SDK, caches by provider and model, and never shows the key', async () => {
    fake = await startFakeOpenAI(claude);
    const root = fixture(RAW);
    const r = await runKb(['compile'], { cwd: root, env: env(fake.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('offline compiler');
    expect(r.stdout).toMatch(/model openai\/gpt-4\.1-mini: \d+ calls/);
    const src = read(root, 'wiki/sources/Notes on Retrieval-Augmented Generation.md');
    expect(src).toMatch(/compiled_by: '?model:openai\/gpt-4\.1-mini/);
    expect(listTree(join(root, 'wiki')).filter((f) => f.startsWith('concepts/')).length).toBeGreaterThan(0);
    const first = fake.chats()[0]!;
    expect(first.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(first.body.model).toBe('gpt-4.1-mini');
    expect(first.body.messages[0].role).toBe('system');
    expect(first.body.messages[0].content).toContain('<catalog>');
    expect(first.body.messages[1].content).toContain('<source path=');
    expect(read(root, 'wiki/log.md')).toMatch(/model openai\/gpt-4\.1-mini: \d+ calls.*input.*output tokens/);

    // Same provider and model: every reply from the cache. Another model: asked again.
    const calls = fake.chats().length;
    const again = await runKbIn(['compile', '--force'], { cwd: root, env: env(fake.url) });
    expect(again.code, again.stderr).toBe(0);
    expect(fake.chats()).toHaveLength(calls);
    const other = await runKbIn(['compile', '--force', '--model', 'qwen-max'], { cwd: root, env: env(fake.url) });
    expect(other.code, other.stderr).toBe(0);
    expect(fake.chats().length).toBeGreaterThan(calls);
    expect(fake.chats().at(-1)!.body.model).toBe('qwen-max');

    const status = await runKbIn(['status'], { cwd: root, env: env(fake.url) });
    expect(status.stdout).toMatch(/openai\/gpt-4\.1-mini/);
    expect(status.stdout).toMatch(/openai\/qwen-max/);
    expectNoKey(root, r, again, other, status);
  });

  it('repairs a malformed reply in one more call', async () => {
    let n = 0;
    fake = await startFakeOpenAI((req) =>
      n++ === 0 ? { text: 'Sure! Here is a summary of the notes, in prose.' } : claude(req),
    );
    const root = fixture({ 'raw/rag-notes.md': RAW['raw/rag-notes.md'] });
    const r = await runKbIn(['compile'], { cwd: root, env: env(fake.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(fake.chats()[1]!.body.messages[1].content).toContain('Sure! Here is a summary');
    expect(read(root, 'wiki/sources/Notes on Retrieval-Augmented Generation.md')).toMatch(/compiled_by: '?model:/);
    expect(r.stderr).not.toContain('model-output');
  });

  it('falls back to the offline compiler for a model that cannot follow the format, with one warning', async () => {
    fake = await startFakeOpenAI(() => ({ text: 'I am a small model and I like prose.' }));
    const root = fixture({ 'raw/a.md': RAW['raw/rag-notes.md'] });
    config(root, { provider: 'ollama', baseURL: fake.url, name: 'qwen2.5:7b' });
    const s = await runKbIn(['compile'], { cwd: root, env: {} });
    expect(s.code, s.stderr).toBe(0);
    expect(fake.chats()).toHaveLength(2);
    expect(s.stderr.match(/raw\/a\.md: warning Unexpected model output twice/g)).toHaveLength(1);
    expect(s.stderr).toMatch(/small model may not follow the <kb_entry> format/);
    expect(read(root, 'wiki/sources/Retrieval notes.md')).toContain('compiled_by: offline-v62');
  });

  it('waits as retry-after says after a 429 and retries a 500, then writes the entry', async () => {
    let n = 0;
    fake = await startFakeOpenAI((req) => {
      n++;
      if (n === 1) return { status: 429, headers: { 'retry-after': '0' } };
      if (n === 2) return { status: 500 };
      return claude(req);
    });
    const root = fixture({ 'raw/rag-notes.md': RAW['raw/rag-notes.md'] });
    const r = await runKbIn(['compile'], { cwd: root, env: env(fake.url) });
    expect(r.code, r.stderr).toBe(0);
    const bodies = fake.chats().map((c) => JSON.stringify(c.body.messages));
    expect(bodies[0]).toBe(bodies[1]);
    expect(bodies[1]).toBe(bodies[2]);
    expect(read(root, 'wiki/sources/Notes on Retrieval-Augmented Generation.md')).toMatch(/compiled_by: '?model:/);
  });

  it('gives up on a server that keeps failing: the entry falls back and the next compile asks again', async () => {
    fake = await startFakeOpenAI(() => ({ status: 500 }));
    const root = fixture({ 'raw/a.md': RAW['raw/rag-notes.md'] });
    config(root, { maxRetries: 1 });
    const r = await runKbIn(['compile'], { cwd: root, env: env(fake.url) });
    expect(r.code).toBe(0);
    expect(fake.chats()).toHaveLength(2);
    expect(r.stderr).toMatch(
      /raw\/a\.md: warning OpenAI-compatible endpoint at http:\/\/127\.0\.0\.1:\d+\/v1 answered HTTP 500 after retries.*\[model-unavailable\]/,
    );
    expect(read(root, 'wiki/sources/Retrieval notes.md')).toContain('compiled_by: offline-v62');
    await fake.close();
    fake = await startFakeOpenAI(claude);
    const next = await runKbIn(['compile'], { cwd: root, env: env(fake.url) });
    expect(next.code, next.stderr).toBe(0);
    expect(fake.chats().length).toBeGreaterThan(0);
    expect(read(root, 'wiki/sources/Notes on Retrieval-Augmented Generation.md')).toMatch(
      /compiled_by: '?model:openai/,
    );
  });

  it('tries a reply cut mid-body again like a 5xx, then writes the entry', async () => {
    let cut = 2;
    fake = await startFakeOpenAI((req) => ({ ...claude(req), cutBody: cut-- > 0 }));
    const root = fixture({ 'raw/a.md': RAW['raw/rag-notes.md'] });
    const r = await runKbIn(['compile'], { cwd: root, env: env(fake.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/unexpected error|terminated|\s{4}at /);
    expect(read(root, 'wiki/sources/Notes on Retrieval-Augmented Generation.md')).toMatch(
      /compiled_by: '?model:openai/,
    );
  });

  it('names a provider that does not answer in a sentence: "No answer from DeepSeek at … after retries"', async () => {
    fake = await startFakeOpenAI(claude);
    const url = fake.url;
    await fake.close();
    fake = undefined;
    const root = fixture({ 'raw/a.md': RAW['raw/rag-notes.md'] });
    config(root, { provider: 'deepseek', baseURL: url, maxRetries: 0 });
    const r = await runKbIn(['compile'], { cwd: root, env: { DEEPSEEK_API_KEY: KEY } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('Unexpected no answer');
    expect(r.stderr).toMatch(
      /raw\/a\.md: warning No answer from DeepSeek at http:\/\/127\.0\.0\.1:\d+\/v1 after retries \(Connection error: ECONNREFUSED\); used the offline compiler for this entry.*\[model-unavailable\]/,
    );
  });

  it('times out a reply that never comes (model.timeoutSeconds) and falls back for that document', async () => {
    fake = await startFakeOpenAI(() => ({ delayMs: 5000, text: 'late' }));
    const root = fixture({ 'raw/a.md': RAW['raw/rag-notes.md'] });
    config(root, { timeoutSeconds: 0.3, maxRetries: 1 });
    const r = await runKbIn(['compile'], { cwd: root, env: env(fake.url) });
    expect(r.code).toBe(0);
    expect(fake.chats()).toHaveLength(2);
    expect(r.stderr).toMatch(
      /raw\/a\.md: warning Unexpected timeout: no reply from the model within 0\.3 s \(model\.timeoutSeconds in kb\.config\.json\), tried 2 times.*\[model-unavailable\]/,
    );
    expect(read(root, 'wiki/sources/Retrieval notes.md')).toContain('compiled_by: offline-v62');
  });

  it('estimates a local model at $0 and refuses --batch, which is Anthropic only', async () => {
    fake = await startFakeOpenAI(claude);
    const root = fixture(RAW);
    config(root, { provider: 'ollama', baseURL: fake.url });
    const e = await runKbIn(['compile', '--estimate', '--json'], { cwd: root, env: {} });
    expect(e.code, e.stderr).toBe(0);
    const est = JSON.parse(e.stdout) as { model: string; usd: number; priced: boolean; sourceCalls: number };
    expect(est).toMatchObject({ model: 'ollama/qwen2.5:7b', usd: 0, priced: true });
    expect(est.sourceCalls).toBe(2);
    const b = await runKbIn(['compile', '--batch'], { cwd: root, env: {} });
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(
      /--batch uses Anthropic's Message Batches API.*qwen2\.5:7b \(Ollama at http:\/\/127\.0\.0\.1:\d+\/v1\).*without --batch/,
    );
    expect(fake.chats()).toHaveLength(0);
  });

  it('reads a long source in smaller parts when the model has a small context', async () => {
    fake = await startFakeOpenAI(claude);
    const para = (i: number) =>
      `Paragraph ${i} explains retrieval and grounding with enough words to take some room in the context window of a small model. `.repeat(
        6,
      );
    const long = `# Long notes\n\n${Array.from({ length: 40 }, (_, i) => para(i)).join('\n\n')}\n`;
    const root = fixture({ 'raw/long.md': long });
    config(root, { provider: 'ollama', baseURL: fake.url, contextTokens: 4096 });
    const small = await runKbIn(['compile', '--estimate', '--json'], { cwd: root, env: {} });
    config(root, { provider: 'ollama', baseURL: fake.url, contextTokens: 128000 });
    const large = await runKbIn(['compile', '--estimate', '--json'], { cwd: root, env: {} });
    expect(JSON.parse(small.stdout).longDocuments).toBe(1);
    expect(JSON.parse(large.stdout).longDocuments).toBe(0);
  });
});

describe('kb ask and heal through an OpenAI-compatible provider', () => {
  it('answers with citations from the provider', async () => {
    fake = await startFakeOpenAI((req: FakeRequest) => {
      const p = JSON.stringify(req.body.messages);
      if (p.includes('<question>') && /expand|search terms|queries/i.test(JSON.stringify(req.body.system)))
        return { text: '<queries><query>retrieval</query></queries>' };
      if (p.includes('<kb_entry')) return { text: 'RAG retrieves passages before answering [[Retrieval notes]].' };
      return claude(req);
    });
    const root = fixture({ 'raw/a.md': RAW['raw/rag-notes.md'] });
    const c = await runKbIn(['compile', '--offline'], { cwd: root, env: env(fake.url) });
    expect(c.code, c.stderr).toBe(0);
    const a = await runKbIn(['ask', 'What does RAG do?', '--json'], { cwd: root, env: env(fake.url) });
    expect(a.code, a.stderr).toBe(0);
    const res = JSON.parse(a.stdout) as { mode: string; model: string; answer: string };
    expect(res.mode).toBe('model');
    expect(res.model).toBe('openai/gpt-4.1-mini');
    expect(res.answer).toContain('[[Retrieval notes]]');
    expectNoKey(root, c, a);
  });
});

describe('kb lint --heal through an OpenAI-compatible provider', { timeout: 400_000 }, () => {
  it('rewrites with the default model and has the judge of model.tasks check it', async () => {
    const root = fixture({
      'raw/paris.md': '# Paris Guide\n\nThe Eiffel Tower is 330 metres tall, antennas included.\n',
      'wiki/sources/Paris Guide.md': exampleEntry(
        {
          title: 'Paris Guide',
          kind: 'source',
          source_ref: ['raw/paris.md'],
          backlinks: ['concept/eiffel-tower'],
          summary: 'A guide to Paris.',
        },
        '# Paris Guide\n\nThe Eiffel Tower is 330 metres tall, antennas included.\n\n<!-- kb:backlinks -->\n## Backlinks\n\n- [[Eiffel Tower]]\n<!-- /kb:backlinks -->\n',
      ),
      'wiki/concepts/Eiffel Tower.md': exampleEntry(
        { title: 'Eiffel Tower', source_ref: ['raw/paris.md'], summary: 'The tower in Paris.' },
        '# Eiffel Tower\n\nThe tower in Paris.\n\nThe Eiffel Tower is 300 metres tall, says [[Paris Guide]].\n',
      ),
    });
    config(root, { provider: 'openai', name: 'writer-model', tasks: { judge: 'judge-model' } });
    gitInit(root);
    const system = (req: FakeRequest): string => (req.body.system as { text: string }[]).map((b) => b.text).join('\n');
    fake = await startFakeOpenAI((req) => {
      if (system(req).includes('skeptical'))
        return { text: '<verdict>accept</verdict>\n<reason>Both now say 330 metres, as raw/paris.md does.</reason>' };
      if (system(req).includes('Rewrite that entry')) {
        const id = /<entry id="([^"]+)">/.exec(String(req.body.messages[0].content))?.[1] ?? '';
        const title = id === 'concept/eiffel-tower' ? 'Eiffel Tower' : 'Paris Guide';
        return {
          text: `<kb_entry id="${id}"><title>${title}</title><aliases></aliases><summary>330 metres tall.</summary><body># ${title}\n\nThe Eiffel Tower is 330 metres tall, antennas included ([[Paris Guide]]).</body></kb_entry>`,
        };
      }
      return { text: '<verdict>consistent</verdict><subject></subject><reason>They agree.</reason>' };
    });
    const r = await runKbIn(['lint', '--heal'], {
      cwd: root,
      env: { ...GIT_ENV, ...env(fake.url) },
      timeoutMs: 120_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const judged = fake.chats().filter((c) => JSON.stringify(c.body.messages).includes('skeptical'));
    const written = fake.chats().filter((c) => JSON.stringify(c.body.messages).includes('Rewrite that entry'));
    expect(judged.length).toBe(1);
    expect(judged.every((c) => c.body.model === 'judge-model')).toBe(true);
    expect(written.length).toBe(2);
    expect(written.every((c) => c.body.model === 'writer-model')).toBe(true);
    const branch = `heal/contradiction-eiffel-tower-${today()}`;
    expect(git(root, 'show', `${branch}:wiki/concepts/Eiffel Tower.md`)).toContain('330 metres tall');
    expect(git(root, 'log', '-1', '--format=%B', branch)).toContain('Judge: accept');
    expectNoKey(root, r);
  });
});

describe('the openai client', () => {
  it('treats a 200 that is not JSON as the model being unavailable, tried again like a 5xx', async () => {
    const { createModelClient, ModelUnavailableError } = await import('../src/model/client.js');
    const { DEFAULT_CONFIG } = await import('../src/config/defaults.js');
    const { kbPaths } = await import('../src/kb/paths.js');
    fake = await startFakeOpenAI([
      { body: '{"id": "chatcmpl-1", "choi' },
      { body: '<html>proxy</html>' },
      { text: 'fine' },
    ]);
    const c = createModelClient(
      { paths: kbPaths(fixture()), config: structuredClone(DEFAULT_CONFIG), env: env(fake.url) },
      { maxRetries: 2 },
    )!;
    const req = { task: 't', templateHash: 'h', system: 's', prompt: 'p' };
    expect((await c.complete(req)).text).toBe('fine');
    expect(fake.chats()).toHaveLength(3);
    await fake.close();
    fake = await startFakeOpenAI([{ body: '{"object": "list"}' }]);
    const odd = createModelClient(
      { paths: kbPaths(fixture()), config: structuredClone(DEFAULT_CONFIG), env: env(fake.url) },
      { maxRetries: 0 },
    )!;
    const err = await odd.complete(req).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelUnavailableError);
    expect((err as Error).message).toMatch(
      /^reply from OpenAI-compatible endpoint at http:\/\/127\.0\.0\.1:\d+\/v1 that is not a chat completion/,
    );
    expect(odd.model).toBe('openai/gpt-4.1-mini');
  });
});

describe('the language entries are written in, and repeatable replies', () => {
  it('follows wiki.language in every prompt, sends a reply in another language to the repair round, and sends temperature 0', async () => {
    const { userPrompt } = await import('./fake-anthropic.js');
    fake = await startFakeOpenAI((req) => {
      const p = userPrompt(req);
      // The English source: first in English (as the source), then, asked to repair, in Chinese.
      if (p.includes('<source path="raw/rag-notes.md"') && p.includes('expected Chinese'))
        return {
          text: `<kb_entry><title>检索笔记</title><aliases><alias>Retrieval notes</alias></aliases><summary>关于检索增强生成如何用检索到的段落支撑回答的笔记。</summary><body>## 要点

- 检索增强生成先检索段落，再生成回答。</body></kb_entry>`,
        };
      return claude(req);
    });
    const root = fixture({ ...RAW, 'kb.config.json': JSON.stringify({ wiki: { language: 'zh' } }) });
    const r = await runKbIn(['compile'], { cwd: root, env: env(fake.url) });
    expect(r.code, r.stderr).toBe(0);
    const prompts = fake.chats().map((c) => c.body.messages.at(-1).content as string);
    expect(
      prompts.filter((p) => p.includes('<source path=')).every((p) => p.includes('<wiki_language>Simplified Chinese')),
    ).toBe(true);
    expect(prompts.some((p) => p.includes('Unexpected entry written in English, expected Chinese'))).toBe(true);
    expect(listTree(join(root, 'wiki'))).toContain('sources/检索笔记.md');
    expect(read(root, 'wiki/sources/检索笔记.md')).toMatch(/aliases:\n\s+- Retrieval notes/);
    expect(fake.chats().every((c) => c.body.temperature === 0)).toBe(true);
  });

  it('with auto, a source in English must not come back as a Chinese entry with a translated title', async () => {
    const { userPrompt } = await import('./fake-anthropic.js');
    fake = await startFakeOpenAI((req) => {
      const p = userPrompt(req);
      if (p.includes('<source path="raw/rag-notes.md"') && !p.includes('previous_reply'))
        return {
          text: `<kb_entry><title>检索笔记</title><summary>关于检索增强生成如何用检索到的段落支撑回答的简短笔记。</summary><body>## 要点

- 先检索，再生成。</body></kb_entry>`,
        };
      return claude(req);
    });
    const root = fixture(RAW);
    const r = await runKbIn(['compile'], { cwd: root, env: env(fake.url) });
    expect(r.code, r.stderr).toBe(0);
    const prompts = fake.chats().map((c) => c.body.messages.at(-1).content as string);
    expect(prompts.some((p) => p.includes('Unexpected entry written in Chinese, expected English'))).toBe(true);
    expect(listTree(join(root, 'wiki'))).toContain('sources/Notes on Retrieval-Augmented Generation.md');
    expect(listTree(join(root, 'wiki'))).not.toContain('sources/检索笔记.md');
  });
});
