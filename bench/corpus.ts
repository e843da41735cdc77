import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Small seeded PRNG (mulberry32): the same corpus every run. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EN_TERMS = [
  'Retrieval-Augmented Generation (RAG)',
  'vector database',
  'BM25',
  'Reciprocal Rank Fusion',
  'knowledge graph',
  'Zettelkasten',
  'Obsidian',
  'prompt caching',
  'context window',
  'word segmentation',
  'inverted index',
  'sqlite-vec',
  'FTS5',
  'embedding model',
  'hybrid search',
  'Niklas Luhmann',
  'Andy Matuschak',
  'HNSW',
  'cosine similarity',
  'chunking strategy',
  'citation tracking',
  'hallucination',
  'semantic search',
  'query expansion',
];
export const ZH_TERMS = [
  '检索增强生成',
  '向量数据库',
  '倒排索引',
  '中文分词',
  '知识图谱',
  '卡片盒笔记法',
  '提示缓存',
  '上下文窗口',
  '余弦相似度',
  '混合检索',
  '嵌入模型',
  '语义搜索',
  '查询扩展',
  '幻觉问题',
  '引用追踪',
  '分块策略',
];
const EN_WORDS =
  'system note index query answer source search model text document reader writer memory result ranking score passage sentence section heading link graph store cache token budget latency recall precision method'.split(
    ' ',
  );
const EN_VERBS =
  'improves stores ranks links reduces explains combines splits returns measures describes compares'.split(' ');
const ZH_WORDS =
  '系统 笔记 索引 查询 答案 来源 搜索 模型 文本 文档 读者 记忆 结果 排序 分数 段落 句子 标题 链接 图谱 存储 缓存 预算 延迟 召回 精度 方法'.split(
    ' ',
  );
const ZH_VERBS = '提高了 存储了 排序了 连接了 减少了 解释了 结合了 切分了 返回了 衡量了 描述了 比较了'.split(' ');

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

function enSentence(r: () => number): string {
  const t = pick(r, EN_TERMS);
  return `The ${pick(r, EN_WORDS)} ${pick(r, EN_VERBS)} ${t} for every ${pick(r, EN_WORDS)} and ${pick(r, EN_WORDS)} in ${1990 + Math.floor(r() * 35)}.`;
}

function zhSentence(r: () => number): string {
  return `${pick(r, ZH_WORDS)}${pick(r, ZH_VERBS)}${pick(r, ZH_TERMS)}的${pick(r, ZH_WORDS)}和${pick(r, ZH_WORDS)}。`;
}

/** One document of about `bytes` bytes: headings, paragraphs, sometimes a code block. */
export function makeDoc(i: number, bytes: number): { path: string; text: string } {
  const r = rng(i + 1);
  const zh = i % 4 === 3;
  const topic = zh ? pick(r, ZH_TERMS) : pick(r, EN_TERMS).replace(/ \(.*\)$/, '');
  const title = zh ? `${topic}笔记 ${i}` : `Notes on ${topic} ${i}`;
  const parts = [
    `---\ntitle: "${title}"\ndate: "2026-01-${String(1 + (i % 28)).padStart(2, '0')}"\ntags: [bench]\n---\n`,
    `# ${title}\n`,
  ];
  let size = parts.join('\n').length;
  let section = 0;
  while (size < bytes) {
    if (section % 3 === 0) parts.push(`## ${zh ? `第${section / 3 + 1}节` : `Part ${section / 3 + 1}`}\n`);
    const para = Array.from({ length: 3 + Math.floor(r() * 4) }, () => (zh ? zhSentence(r) : enSentence(r))).join(
      zh ? '' : ' ',
    );
    parts.push(`${para}\n`);
    if (r() < 0.05) parts.push('```python\nscore = bm25(query, doc)\nprint(score)\n```\n');
    size += Buffer.byteLength(parts[parts.length - 1]!);
    section++;
  }
  const folder = zh ? 'zh' : `en/${i % 10}`;
  return { path: `${folder}/doc-${String(i).padStart(4, '0')}.md`, text: parts.join('\n') };
}

export function writeCorpus(rawDir: string, docs: number, totalBytes: number): number {
  let written = 0;
  for (let i = 0; i < docs; i++) {
    const d = makeDoc(i, Math.round(totalBytes / docs));
    mkdirSync(join(rawDir, d.path, '..'), { recursive: true });
    writeFileSync(join(rawDir, d.path), d.text);
    written += Buffer.byteLength(d.text);
  }
  return written;
}
