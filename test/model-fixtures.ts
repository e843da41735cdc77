import { userPrompt, type FakeReply, type FakeRequest } from './fake-anthropic.js';

/** A fake Claude that answers every kb prompt with a well-formed <kb_entry>. */
export function claude(req: FakeRequest): FakeReply {
  const p = userPrompt(req);
  const concept = /<concept title="([^"]*)">/.exec(p);
  if (concept) {
    const titles = [...p.matchAll(/<source_entry title="([^"]*)"/g)].map((m) => m[1]!);
    return {
      text: `<kb_entry>
  <title>${concept[1]}</title>
  <aliases>${/检索|RAG|Retrieval/.test(concept[1]!) ? '<alias>RAG</alias>' : ''}</aliases>
  <summary>${concept[1]} grounds a model's answers in retrieved passages.</summary>
  <body>## Overview

${concept[1]} retrieves passages before generating an answer ${titles.map((t) => `[[${t}]]`).join(' ')}.

## In the sources

Both sources stress grounding & fewer made-up facts when x < y ${titles.map((t) => `[[${t}]]`).join(', ')}.</body>
</kb_entry>`,
      usage: { input_tokens: 900, output_tokens: 300 },
    };
  }
  const zh = p.includes('检索增强生成笔记');
  if (zh) {
    return {
      text: `这是条目：
<kb_entry>
  <title>检索增强生成笔记</title>
  <summary>关于检索增强生成（RAG）的简短笔记。</summary>
  <entities>
    <entity name="检索增强生成" kind="concept"><alias>RAG</alias></entity>
    <entity name="向量数据库" kind="concept"><alias>vector database</alias></entity>
  </entities>
  <body>## Key points

- RAG 先检索再回答。
- 使用 [[向量数据库]] 保存嵌入。</body>
</kb_entry>`,
      usage: { input_tokens: 700, output_tokens: 200 },
    };
  }
  return {
    text: `<kb_entry>
  <title>Notes on Retrieval-Augmented Generation</title>
  <aliases><alias>Retrieval notes</alias></aliases>
  <summary>Short notes on how RAG grounds answers in retrieved passages & why chunking matters.</summary>
  <entities>
    <entity name="Retrieval-Augmented Generation" kind="concept"><alias>RAG</alias><alias>检索增强生成</alias></entity>
    <entity name="Vector Database" kind="concept"><alias>vector database</alias><alias>向量数据库</alias></entity>
  </entities>
  <body>## Key points

- [[Retrieval-Augmented Generation]] retrieves passages, then generates.
- A [[Vector Database]] stores the embeddings; chunking matters for quality (recall < 100% otherwise).</body>
</kb_entry>`,
    usage: { input_tokens: 800, output_tokens: 250, cache_creation_input_tokens: 120 },
  };
}

/** Concepts a faithful fake Claude names when a source mentions them (name, other names). */
const VOCABULARY: [string, string[]][] = [
  ['Retrieval-Augmented Generation', ['RAG', '检索增强生成']],
  ['BM25', []],
  ['Vector Database', ['vector database', '向量数据库']],
  ['Reciprocal Rank Fusion', ['RRF', '倒数排名融合']],
  ['Zettelkasten', ['slip box', '卡片盒']],
  ['SQLite FTS5', ['FTS5']],
  ['Embedding', ['embeddings', '嵌入']],
  ['Obsidian', []],
  ['Hybrid Search', ['hybrid search', '混合检索']],
  ['Full-Text Search', ['full-text search', '全文检索']],
  ['Chinese Word Segmentation', ['中文分词', 'jieba']],
  ['Knowledge Graph', ['knowledge graph', '知识图谱']],
  ['Hallucination', ['hallucination', '幻觉']],
];

const unescapeXml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A fake Claude that writes each source's entry from the source itself: its own title, its first
 * sentence as the summary, and the vocabulary concepts its text mentions. An empty source gets an
 * entry saying so (the mark of a compile that lost the text). Concepts cite every source given.
 */
export function faithfulClaude(req: FakeRequest): FakeReply {
  const p = userPrompt(req);
  const concept = /<concept title="([^"]*)">/.exec(p);
  if (concept) {
    const titles = [...p.matchAll(/<source_entry title="([^"]*)"/g)].map((m) => m[1]!);
    return {
      text: `<kb_entry><title>${concept[1]}</title><summary>${concept[1]} as the sources describe it.</summary><body>## Overview

${concept[1]} comes up in ${titles.map((t) => `[[${t}]]`).join(', ')}.</body></kb_entry>`,
    };
  }
  const src = /<source path="([^"]*)" type="[^"]*" title="([^"]*)"[^>]*>\n([\s\S]*)\n<\/source>/.exec(p);
  if (!src)
    return {
      status: 400,
      body: { type: 'error', error: { type: 'invalid_request_error', message: 'fake: not a kb prompt' } },
      headers: { 'x-should-retry': 'false' },
    };
  const title = unescapeXml(src[2]!);
  const content = unescapeXml(src[3]!);
  const low = content.toLowerCase();
  const first =
    content
      .split('\n')
      .map((l) => l.replace(/^[#>*\-\s]+/, '').trim())
      .find((l) => l.length > 20) ?? '';
  const summary = first ? first.replace(/\[\[|\]\]/g, '').slice(0, 200) : 'EMPTY SOURCE';
  const entities = VOCABULARY.filter(([name, aliases]) =>
    [name, ...aliases].some((n) => low.includes(n.toLowerCase())),
  );
  return {
    text: `<kb_entry>
  <title>${escapeXml(title)}</title>
  <summary>${escapeXml(summary)}</summary>
  <entities>${entities.map(([n, a]) => `<entity name="${escapeXml(n)}" kind="concept">${a.map((x) => `<alias>${escapeXml(x)}</alias>`).join('')}</entity>`).join('')}</entities>
  <body>## Key points

- ${escapeXml(summary)}</body>
</kb_entry>`,
  };
}

/** A small English and Chinese corpus about RAG that the model fixtures above can write entries for. */
export const RAW = {
  'raw/rag-notes.md': `# Retrieval notes

Retrieval-Augmented Generation (RAG) combines a search step with a language model. The retriever finds
passages and the model answers from them, which keeps answers grounded.

A vector database stores the embeddings that RAG systems search. Good chunking matters for RAG quality.
`,
  'raw/zh/rag-zh.md': `# 检索增强生成笔记

检索增强生成（RAG）先检索相关段落，再让模型根据这些段落回答问题。RAG 通常使用向量数据库来保存嵌入。

这种方法减少了模型编造事实的情况。
`,
};
