import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startFakeAnthropic, userPrompt, type FakeAnthropic } from './fake-anthropic.js';
import { fixture, KB_BIN, listTree, read, runKb, runKbIn } from './helpers.js';
import { claude } from './model-fixtures.js';

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const RAW = {
  'raw/a.md':
    '# Retrieval notes\n\nRetrieval-Augmented Generation (RAG) combines search with a language model. A vector database stores the embeddings RAG searches.\n',
  'raw/b.md': '# 检索增强生成笔记\n\n检索增强生成（RAG）先检索相关段落，再让模型回答。RAG 使用向量数据库保存嵌入。\n',
};

const env = (url: string) => ({ ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: url, KB_BATCH_POLL_MS: '30' });
const sourceCalls = (f: FakeAnthropic) => f.messages().filter((r) => userPrompt(r).includes('<source path='));

describe('kb compile --batch', () => {
  it('submits the source compiles as one batch, polls it, and compiles from the results', async () => {
    fake = await startFakeAnthropic(claude, { pollsBeforeEnd: 2 });
    const root = fixture(RAW);
    const r = await runKb(['compile', '--batch'], { cwd: root, env: env(fake.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Submitted batch msgbatch_1 with 2 requests/);
    expect(fake.batches.get('msgbatch_1')!.requests).toHaveLength(2);
    expect(fake.batches.get('msgbatch_1')!.polls).toBeGreaterThanOrEqual(3);
    expect(sourceCalls(fake)).toHaveLength(0);
    expect(r.stdout).toMatch(/batch msgbatch_1: 2 replies/);
    expect(listTree(join(root, 'wiki'))).toContain('sources/Notes on Retrieval-Augmented Generation.md');
    expect(read(root, 'wiki/log.md')).toMatch(/batch msgbatch_1: 2 replies.*at batch price/);
    // Nothing left to send: a second --batch run submits nothing.
    const again = await runKbIn(['compile', '--batch', '--force'], { cwd: root, env: env(fake.url) });
    expect(again.code, again.stderr).toBe(0);
    expect(fake.batches.size).toBe(1);
  });

  it('resumes an interrupted batch from its stored id instead of submitting again', async () => {
    const opts = { pollsBeforeEnd: 1_000_000 };
    fake = await startFakeAnthropic(claude, opts);
    const root = fixture(RAW);
    const child = spawn(process.execPath, [KB_BIN, 'compile', '--batch'], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', ...env(fake.url) },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setInterval(() => {
        if ((fake!.batches.get('msgbatch_1')?.polls ?? 0) >= 2) {
          clearInterval(timer);
          child.kill('SIGINT');
        }
      }, 20);
      child.on('close', (c) => {
        clearInterval(timer);
        resolve(c);
      });
    });
    expect(code).toBe(130);
    expect(stderr).toMatch(/Run `kb compile --batch` again to resume/);

    opts.pollsBeforeEnd = 0;
    const r = await runKbIn(['compile', '--batch'], { cwd: root, env: env(fake.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Resuming batch msgbatch_1/);
    expect(fake.batches.size).toBe(1);
    expect(sourceCalls(fake)).toHaveLength(0);
    expect(read(root, 'wiki/sources/检索增强生成笔记.md')).toMatch(/compiled_by: '?model:/);
  });
});
