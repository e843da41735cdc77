import { describe, expect, it } from 'vitest';
import { LocalEmbedder } from '../embed/index.js';
import { InterruptedError } from '../diagnostics/errors.js';
import type { ContentHash, RawPath } from '../types.js';
import { preparePool, threadsWanted, threadUse } from './pool.js';
import { chunkPart, completeOffline, prepare } from './prepare.js';

const cfg = {
  ingest: {
    maxFileBytes: 64 * 1024 * 1024,
    maxDocumentBytes: 64 * 1024 * 1024,
    maxUnpackedBytes: 64 * 1024 * 1024,
    ignore: [],
  },
  chunk: { maxTokens: 400, overlapTokens: 50 },
};

describe('preparePool', () => {
  it('an abort stops a thread in the middle of a long document, and what waits is rejected', async () => {
    // Seconds of CPU-bound work (ICU segmentation of megabytes of Chinese), on a thread since it is big.
    const bytes = Buffer.from('检索增强生成向量数据库中文分词知识库。'.repeat(200_000));
    const abort = new AbortController();
    const pool = preparePool(2, cfg, new LocalEmbedder(64), { bytes: bytes.length * 2, signal: abort.signal });
    const file = (n: number) => ({
      path: `zh-${n}.txt` as RawPath,
      absPath: `/nowhere/zh-${n}.txt`,
      size: bytes.length,
      mtimeMs: 0,
    });
    const first = pool.run(file(1), bytes, 'h1' as ContentHash);
    const second = pool.run(file(2), bytes, 'h2' as ContentHash);
    // Well after the threads have started, long before they could finish.
    await new Promise((r) => setTimeout(r, 3000));
    abort.abort();
    await expect(first).rejects.toBeInstanceOf(InterruptedError);
    await expect(second).rejects.toBeInstanceOf(InterruptedError);
    await expect(pool.run(file(3), bytes, 'h3' as ContentHash)).rejects.toBeInstanceOf(InterruptedError);
    await pool.close();
  }, 120_000);
});

describe('threadsWanted', () => {
  it('leaves one core to the main thread, takes at most 4, and follows KB_THREADS', () => {
    expect(threadsWanted(2, {})).toBe(1);
    expect(threadsWanted(1, {})).toBe(1);
    expect(threadsWanted(16, {})).toBe(4);
    expect(threadsWanted(2, { KB_THREADS: '0' })).toBe(0);
    expect(threadsWanted(2, { KB_THREADS: '2' })).toBe(2);
    expect(threadsWanted(2, { KB_THREADS: 'many' })).toBe(1);
  });
});

describe('threadUse', () => {
  const KB = 1024;
  it.each([
    // [documents, threads, bytes, heavy, which go to threads]
    [100, 1, 800 * KB, false, 'none'], // notes on 2 cores: the one thread costs more than it saves
    [1000, 1, 7900 * KB, false, 'all'], // megabytes: threads, where a signal is heard at once
    [1, 1, 3000 * KB, false, 'all'], // one big document
    [25, 1, 300 * KB, true, 'slow'], // notes and a PDF or an image to OCR: that one on the thread
    [3, 2, 10 * KB, true, 'all'], // the same with two threads
    [100, 2, 800 * KB, false, 'all'], // two threads prepare side by side
    [10, 4, 80 * KB, false, 'none'], // a few notes
    [100, 0, 8000 * KB, true, 'none'], // KB_THREADS=0
  ] as const)('%i documents, %i threads, %i bytes, heavy %s: %s', (jobs, threads, bytes, heavy, want) => {
    expect(threadUse(jobs, threads, { bytes, heavy })).toBe(want);
  });
});

describe('one thread', () => {
  it('leaves a short work’s chunks and vectors to the main thread, and they come out as the thread’s would', async () => {
    const before = process.env['KB_THREADS'];
    process.env['KB_THREADS'] = '1';
    try {
      const embedder = new LocalEmbedder(64);
      // Counted as big, so a thread runs whatever the machine's cores.
      const pool = preparePool(30, cfg, embedder, { bytes: 2 * 1024 * 1024 });
      const text = '# 知识库\n\n检索增强生成把向量数据库和中文分词放在一起。\n\nA note on hybrid search and BM25.\n';
      const bytes = Buffer.from(text);
      const file = { path: 'short.md' as RawPath, absPath: '/nowhere/short.md', size: bytes.length, mtimeMs: 0 };
      const threaded = await pool.run(file, bytes, 'h' as ContentHash);
      await pool.close();
      const inline = await prepare(file, bytes, 'h' as ContentHash, cfg, embedder);
      const part = threaded.parts![0]!;
      expect(part.chunks).toBeUndefined();
      expect(part.vectors).toBeUndefined();
      expect(part.offline).toEqual(inline.parts![0]!.offline);
      expect(chunkPart(part.doc, cfg)).toEqual(inline.parts![0]!.chunks);
    } finally {
      if (before === undefined) delete process.env['KB_THREADS'];
      else process.env['KB_THREADS'] = before;
    }
  }, 60_000);

  it('leaves a short English work’s summary to the main thread, which writes the draft the thread would have', async () => {
    const left = { ...cfg, leaveChunksBelow: 64 * 1024 };
    const file = (path: string, size: number) => ({
      path: path as RawPath,
      absPath: `/nowhere/${path}`,
      size,
      mtimeMs: 0,
    });
    const en = Buffer.from(
      '# Hybrid search\n\nHybrid search joins BM25 with vector search. BM25 ranks by terms; vectors rank by meaning.\n\n## Fusion\n\nReciprocal rank fusion merges the two lists.\n',
    );
    const onThread = (await prepare(file('en.md', en.length), en, 'h' as ContentHash, left)).parts![0]!;
    const whole = (await prepare(file('en.md', en.length), en, 'h' as ContentHash, cfg)).parts![0]!;
    expect(onThread.textLeft).toBe(true);
    expect(onThread.offline.summary).toBe('');
    expect(onThread.offline.entities).toEqual(whole.offline.entities);
    expect(completeOffline(onThread)).toEqual(whole.offline);
    expect(completeOffline(whole)).toBe(whole.offline);
    // Asked for it whole (the main thread is behind): the thread prepares it as it prepares a long work.
    const asked = (await prepare(file('en.md', en.length), en, 'h' as ContentHash, left, undefined, { leave: false }))
      .parts![0]!;
    expect(asked.textLeft).toBeUndefined();
    expect(asked.offline).toEqual(whole.offline);
    expect(asked.chunks).toEqual(whole.chunks);
    // A work in Chinese keeps its whole draft on the thread (its summary would load jieba here).
    const zh = Buffer.from('# 知识库\n\n检索增强生成把向量数据库和中文分词放在一起。\n');
    const zhPart = (await prepare(file('zh.md', zh.length), zh, 'h' as ContentHash, left)).parts![0]!;
    expect(zhPart.textLeft).toBeUndefined();
    expect(zhPart.offline).toEqual(
      (await prepare(file('zh.md', zh.length), zh, 'h' as ContentHash, cfg)).parts![0]!.offline,
    );
  });
});
