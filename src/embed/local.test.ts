import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config/defaults.js';
import { createEmbedder, OpenAIEmbedder, LocalEmbedder } from './index.js';

function cosine(a: Float32Array | undefined, b: Float32Array | undefined): number {
  if (!a || !b) throw new Error('missing vector');
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] ?? 0) * (b[i] ?? 0);
  return s;
}

function norm(v: Float32Array | undefined): number {
  return Math.sqrt(cosine(v, v));
}

describe('LocalEmbedder', () => {
  const embedder = new LocalEmbedder(384);

  it('has dims and a fingerprint naming them', () => {
    expect(embedder.dims).toBe(384);
    expect(embedder.fingerprint).toBe('local:hash-v2:384');
    expect(new LocalEmbedder(128).fingerprint).toBe('local:hash-v2:128');
    expect(new LocalEmbedder().dims).toBe(384);
  });

  it('rejects dims outside 64..4096', () => {
    expect(() => new LocalEmbedder(8)).toThrow(/embedding.dims 8/);
    expect(() => new LocalEmbedder(100.5)).toThrow(/expected an integer from 64 to 4096/);
  });

  it('is deterministic, across instances too', async () => {
    const texts = ['A vector database stores embeddings.', '向量数据库存储嵌入向量。', ''];
    const a = await embedder.embed(texts);
    const b = await new LocalEmbedder(384).embed(texts);
    const c = await embedder.embed(texts);
    expect(a.map((v) => [...v])).toEqual(b.map((v) => [...v]));
    expect(a.map((v) => [...v])).toEqual(c.map((v) => [...v]));
  });

  it('returns one unit vector of dims numbers per text, in order', async () => {
    const texts = ['vector index', "Luhmann's slip box", '知识库', 'mixed 中文 and English', '!!!', ''];
    const vs = await embedder.embed(texts);
    expect(vs).toHaveLength(texts.length);
    for (const v of vs) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(384);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    const [one] = await embedder.embed(['知识库']);
    expect([...(one ?? [])]).toEqual([...(vs[2] ?? [])]);
  });

  it('gives texts with no words the unit vector along dimension 0', async () => {
    const [empty, punct] = await embedder.embed(['', '  ... !!! ']);
    expect(empty?.[0]).toBe(1);
    expect(punct?.[0]).toBe(1);
    expect(norm(empty)).toBe(1);
  });

  it.each([
    ['English', 'vector database index', 'a vector database stores embeddings', "Luhmann's slip box"],
    ['English morphology', 'embedding indexes', 'the embedded index', 'a walk in the park'],
    ['Chinese', '向量数据库索引', '向量数据库存储嵌入向量', '卢曼的卡片盒笔记法'],
    ['Chinese sentences', '如何用向量数据库做检索？', '向量数据库支持近邻检索。', '今天的天气很好。'],
    ['mixed', 'RAG 检索增强生成', '检索增强生成 (RAG) 结合检索与生成', 'slip box 卡片盒'],
  ])('puts texts that share vocabulary closer than unrelated ones (%s)', async (_name, query, near, far) => {
    const [q, n, f] = await embedder.embed([query, near, far]);
    expect(cosine(q, n)).toBeGreaterThan(cosine(q, f) + 0.2);
  });

  it('embeds Traditional and Simplified Chinese, and full-width and ASCII letters, alike', async () => {
    const [trad, simp, other] = await embedder.embed([
      '機器學習與資料庫檢索：ＲＡＧ',
      '机器学习与资料库检索：RAG',
      '今天的天气很好。',
    ]);
    expect(cosine(trad, simp)).toBeCloseTo(1, 5);
    expect(cosine(trad, other)).toBeLessThan(0.3);
  });

  it('down-weights stopwords', async () => {
    const [a, b, c] = await embedder.embed(['the vector of the index', 'vector index', 'the of a to']);
    expect(cosine(a, b)).toBeGreaterThan(0.9);
    expect(cosine(a, c)).toBeLessThan(0.3);
  });

  it('stops when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(embedder.embed(['x'], controller.signal)).rejects.toThrow('stop');
  });
});

describe('createEmbedder', () => {
  it('makes the local embedder by default', () => {
    const e = createEmbedder(DEFAULT_CONFIG.embedding, {});
    expect(e).toBeInstanceOf(LocalEmbedder);
    expect(e.fingerprint).toBe(`local:hash-v2:${DEFAULT_CONFIG.embedding.dims}`);
  });

  it('makes an HTTP embedder for openai, with or without a key', () => {
    const cfg = { ...DEFAULT_CONFIG.embedding, provider: 'openai' as const, model: 'nomic-embed-text', dims: 768 };
    const e = createEmbedder(cfg, { KB_EMBEDDING_API_KEY: 'sk-test' });
    expect(e).toBeInstanceOf(OpenAIEmbedder);
    expect(e.fingerprint).toBe('openai:http://127.0.0.1:11434/v1:nomic-embed-text:768');
    expect(e.dims).toBe(768);
    expect(createEmbedder(cfg, {})).toBeInstanceOf(OpenAIEmbedder);
  });

  it('rejects an unknown provider', () => {
    const cfg = { ...DEFAULT_CONFIG.embedding, provider: 'nope' } as unknown as typeof DEFAULT_CONFIG.embedding;
    expect(() => createEmbedder(cfg, {})).toThrow(/embedding.provider "nope"/);
  });
});
