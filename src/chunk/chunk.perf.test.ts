import { describe, expect, it } from 'vitest';
import { chunkMarkdown } from './index.js';

/** 5 KB (UTF-8) documents: English prose, Chinese prose, and Markdown with lists, code, tables and quotes. */
function corpus(count: number): string[] {
  const en =
    'The vector database stores embeddings for fast retrieval. An HNSW index links near neighbours in layers, ' +
    'which keeps queries quick. Luhmann kept a slip box of numbered notes that linked to each other. ';
  const zh = '向量数据库用于存储文本的嵌入向量，并支持近邻检索。知识库编译器把原始文档变成维基条目！检索时先用关键词召回，再用向量排序。';
  const docs: string[] = [];
  for (let i = 0; i < count; i++) {
    let s = `# Document ${i}\n\n`;
    let k = 0;
    while (Buffer.byteLength(s) < 5000) {
      const kind = (i + k++) % 3;
      if (i % 3 === 0) s += `## Part ${k}\n\n${en.repeat(1 + (k % 4))}\n\n`;
      else if (i % 3 === 1) s += `## 第${k}节\n\n${zh.repeat(1 + (k % 5))}\n\n`;
      else if (kind === 0) s += `### Section ${k}\n\n${en}\n\n- item one with **bold**\n- item two with [a link](http://example.com)\n\n`;
      else if (kind === 1) s += `\`\`\`ts\nconst x${k} = await store.search(query, { k: 10 });\n\`\`\`\n\n| key | value |\n|---|---|\n| a | ${k} |\n\n`;
      else s += `> ${en}\n\n${zh}\n\n`;
    }
    docs.push(s);
  }
  return docs;
}

describe('chunkMarkdown performance (slow)', () => {
  it('chunks 1,000 documents of 5 KB in well under 1.5 s', () => {
    const docs = corpus(1000);
    for (const d of docs.slice(0, 50)) chunkMarkdown(d, { maxTokens: 400, overlapTokens: 50 });
    // CPU time of this process: what chunking costs, whatever else the machine is running.
    const before = process.cpuUsage();
    let chunks = 0;
    for (const d of docs) chunks += chunkMarkdown(d, { maxTokens: 400, overlapTokens: 50 }).length;
    const cpu = process.cpuUsage(before);
    expect(chunks).toBeGreaterThan(1000);
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(1500);
  });
});
