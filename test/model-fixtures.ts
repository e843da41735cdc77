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
