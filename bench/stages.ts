/**
 * Stage micro-benchmarks: `npm run bench:stages`. CPU-bound stages timed in-process (median of
 * --runs, default 5), each beside a baseline measured in the same run (JSON.stringify of the same
 * input), so the figures compare as ratios on a busy machine. One JSON line per stage.
 * These replace the timed assertions that used to live in the test suite.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chunkMarkdown } from '../src/chunk/index.js';
import { LocalEmbedder } from '../src/embed/index.js';
import { convertHtml } from '../src/ingest/html-convert.js';
import { ingestFile } from '../src/ingest/index.js';
import { initKb } from '../src/init/init.js';
import { walkRaw } from '../src/ingest/walk.js';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import type { RawPath } from '../src/types.js';
import { sha256 } from '../src/util/hash.js';

const { values } = parseArgs({ options: { runs: { type: 'string' } } });
const runs = Number(values.runs ?? 5);

async function median(fn: () => unknown | Promise<unknown>): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    xs.push(performance.now() - t);
  }
  xs.sort((a, b) => a - b);
  return Math.round(xs[Math.floor(xs.length / 2)]! * 10) / 10;
}

async function report(
  stage: string,
  target: string,
  inputs: unknown,
  fn: () => unknown | Promise<unknown>,
): Promise<void> {
  const ms = await median(fn);
  const baselineMs = await median(() => JSON.stringify(inputs));
  process.stdout.write(
    `${JSON.stringify({ stage, ms, baselineMs, ratio: Math.round((ms / Math.max(baselineMs, 0.1)) * 10) / 10, target })}\n`,
  );
}

function chunkCorpus(count: number): string[] {
  const en =
    'The vector database stores embeddings for fast retrieval. An HNSW index links near neighbours in layers, which keeps queries quick. ';
  const zh =
    '向量数据库用于存储文本的嵌入向量，并支持近邻检索。知识库编译器把原始文档变成维基条目！检索时先用关键词召回，再用向量排序。';
  const docs: string[] = [];
  for (let i = 0; i < count; i++) {
    let s = `# Document ${i}\n\n`;
    let k = 0;
    while (Buffer.byteLength(s) < 5000) {
      const kind = (i + k++) % 3;
      if (i % 3 === 0) s += `## Part ${k}\n\n${en.repeat(1 + (k % 4))}\n\n`;
      else if (i % 3 === 1) s += `## 第${k}节\n\n${zh.repeat(1 + (k % 5))}\n\n`;
      else if (kind === 0) s += `### Section ${k}\n\n${en}\n\n- item one with **bold**\n- item two\n\n`;
      else if (kind === 1)
        s += '```ts\nconst x = await store.search(query, { k: 10 });\n```\n\n| key | value |\n|---|---|\n| a | 1 |\n\n';
      else s += `> ${en}\n\n${zh}\n\n`;
    }
    docs.push(s);
  }
  return docs;
}

/** 10,000 passages of ~230 words, one in four with a Chinese sentence (as the embedder's test once had). */
function embedCorpus(): string[] {
  const words =
    'the vector database stores embeddings for fast retrieval an hnsw index links near neighbours in layers which keeps queries quick luhmann kept a slip box of numbered notes'.split(
      ' ',
    );
  const zh =
    '向量数据库用于存储文本的嵌入向量，并支持近邻检索。知识库编译器把原始文档变成维基条目！检索时先用关键词召回，再用向量排序。';
  return Array.from({ length: 10_000 }, (_, i) => {
    let s = '';
    for (let k = 0; k < 230; k++) s += `${words[(i * 31 + k * 7) % words.length]} `;
    return i % 4 === 0 ? s.slice(0, 600) + zh.repeat(2).slice(i % 40, (i % 40) + 140) : s;
  });
}

const PAGE = `<!DOCTYPE html><html><head><title>Chunking for RAG | Blog</title></head><body><nav><a href="/">Home</a></nav>
<main><article><h1>Chunking for RAG</h1>${'<p>Every RAG system cuts documents into <em>chunks</em>. See <a href="/b">BM25</a>.</p>'.repeat(20)}
<table><tr><th>Strategy</th><th>Cost</th></tr><tr><td>Fixed</td><td>Low</td></tr></table></article></main><footer>© 2025</footer></body></html>`;

const docs = chunkCorpus(1000);
await report('chunk 1,000 × 5 KB', '≤ 1.5 s', docs, () => {
  for (const d of docs) chunkMarkdown(d, { maxTokens: 400, overlapTokens: 50 });
});
// One 100,000-character line of Chinese, with and without punctuation: Intl.Segmenter slows down
// badly on long strings, so the chunker segments through windows (once a test's CPU ceiling).
const longLines = [
  '向量数据库用于存储文本的嵌入向量，并支持近邻检索。'.repeat(4000),
  '向量数据库知识库编译器检索增强生成'.repeat(3000),
];
await report('chunk two 100,000-character Chinese lines', '≤ 5 s', longLines, () => {
  for (const l of longLines) chunkMarkdown(l, { maxTokens: 400, overlapTokens: 50 });
});
const embedTexts = embedCorpus();
const embedder = new LocalEmbedder(384);
await report('local embedder, 10,000 passages of ~300 tokens', '≤ 4 s', embedTexts, () => embedder.embed(embedTexts));
const pages = Array.from({ length: 200 }, () => PAGE);
await report('html → Markdown, 200 pages', '≤ 3 s', pages, () => {
  for (const p of pages) convertHtml(p, 'f');
});
const para = 'Retrieval-augmented generation retrieves passages and cites them. ';
const md = Buffer.from(`---\ntitle: Note\ntags: [a, b]\ndate: 2024-01-01\n---\n# Note\n\n${para.repeat(75)}\n`);
const mds = Array.from({ length: 1000 }, () => md.toString());
await report('ingest 1,000 Markdown × 5 KB', '≤ 2 s', mds, async () => {
  for (let i = 0; i < 1000; i++) {
    const path = `notes/n${i}.md` as RawPath;
    await ingestFile({ path, absPath: `/x/${path}`, size: md.length, mtimeMs: 0 }, md, sha256(md), {
      maxFileBytes: 1e7,
    });
  }
});
const raw = mkdtempSync(join(tmpdir(), 'kb-bench-walk-'));
try {
  for (let d = 0; d < 100; d++) {
    mkdirSync(join(raw, `d${d}`));
    for (let i = 0; i < 100; i++) writeFileSync(join(raw, `d${d}`, `f${i}.md`), 'x');
  }
  const names = Array.from({ length: 10_000 }, (_, i) => `d${i % 100}/f${i}.md`);
  await report('walk 10,000 files', '≤ 2 s', names, () => walkRaw(raw, { ignore: DEFAULT_CONFIG.ingest.ignore }));
} finally {
  rmSync(raw, { recursive: true, force: true });
}
// kb init on a folder that cannot be made ends at once with its error (test/init.test.ts checks the
// message; how soon it ends is measured here, not asserted there).
if (existsSync('/proc/self'))
  await report('kb init on a folder that cannot be made', '≤ 15 s', '/proc/kb-cannot-be-here', () => {
    try {
      initKb('/proc/kb-cannot-be-here', { git: false });
    } catch {
      // The error is the expected end.
    }
  });
