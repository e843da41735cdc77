import { describe, expect, it } from 'vitest';
import { countTokens } from '../text/tokens.js';
import { CHUNKER_VERSION, chunkMarkdown, type ChunkOptions } from './index.js';
import type { Chunk } from '../types.js';

const OPTS: ChunkOptions = { maxTokens: 400, overlapTokens: 50 };

/** Every fence opened in the text is closed again (fences inside lists and quotes included). */
function fencesBalanced(text: string): boolean {
  let open: { ch: string; len: number } | undefined;
  for (const line of text.split('\n')) {
    const m = /^(`{3,}|~{3,})(.*)$/.exec(line.replace(/^(?:[ \t>]|[-+*][ \t]|\d{1,9}[.)][ \t])*/, ''));
    if (!m) continue;
    const marker = m[1] ?? '';
    const rest = m[2] ?? '';
    if (!open) {
      if (!(marker.startsWith('`') && rest.includes('`'))) open = { ch: marker.charAt(0), len: marker.length };
    } else if (marker.charAt(0) === open.ch && marker.length >= open.len && rest.trim() === '') open = undefined;
  }
  return open === undefined;
}

/** Sentences "S<n> …" that can be told apart, about 12 tokens each. */
function numbered(from: number, count: number): string {
  return Array.from({ length: count }, (_, i) => `S${from + i} the vector index links near neighbours in layers.`).join(
    ' ',
  );
}

function checkInvariants(md: string, chunks: Chunk[], opts: ChunkOptions): void {
  const lines = md.split('\n');
  chunks.forEach((c, i) => {
    expect(c.ord).toBe(i);
    expect(c.text.trim()).not.toBe('');
    expect(c.text).toBe(c.text.trimEnd());
    expect(c.tokens).toBe(countTokens(c.text));
    expect(fencesBalanced(c.text), c.text).toBe(true);
    // Not just a heading.
    expect(
      c.text.split('\n').every((l) => /^\s*(#{1,6}(\s.*)?|=+|-+)?\s*$/.test(l)),
      c.text,
    ).toBe(false);
    expect(c.line).toBeGreaterThanOrEqual(1);
    expect(c.line).toBeLessThanOrEqual(lines.length);
    // Over the budget only for a whole code block (allowed up to 2×).
    if (c.tokens > opts.maxTokens) {
      expect(c.tokens, c.text).toBeLessThanOrEqual(opts.maxTokens * 2 + 10);
      expect(c.text, c.text).toMatch(/```|~~~|^ {4}/m);
    }
  });
}

describe('chunkMarkdown', () => {
  it('exposes a chunker version for the vector fingerprint', () => {
    expect(CHUNKER_VERSION).toMatch(/^md-v\d+$/);
  });

  it.each([
    ['empty', ''],
    ['blank lines', '  \n\n\t\n'],
    ['headings only', '# Title\n\n## Empty section\n'],
    ['front matter only', '---\ntitle: x\n---\n'],
    ['rules and comments only', '***\n\n<!-- nothing -->\n'],
  ])('gives no chunks for a document with no body: %s', (_name, md) => {
    expect(chunkMarkdown(md, OPTS)).toEqual([]);
  });

  it('records the heading path of each section', () => {
    const md = [
      'Preamble before any heading.',
      '# Vector Databases',
      'Intro.',
      '## Indexes',
      'HNSW and IVF.',
      '### HNSW',
      'Graph layers.',
      '## Storage',
      'Pages on disk.',
      'Setext *Title*\n==============',
      'Under setext.',
    ].join('\n\n');
    const chunks = chunkMarkdown(md, OPTS);
    expect(chunks.map((c) => [c.headings, c.text])).toEqual([
      [[], 'Preamble before any heading.'],
      [['Vector Databases'], '# Vector Databases\n\nIntro.'],
      [['Vector Databases', 'Indexes'], '## Indexes\n\nHNSW and IVF.'],
      [['Vector Databases', 'Indexes', 'HNSW'], '### HNSW\n\nGraph layers.'],
      [['Vector Databases', 'Storage'], '## Storage\n\nPages on disk.'],
      [['Setext Title'], 'Setext *Title*\n==============\n\nUnder setext.'],
    ]);
  });

  it('gives the 1-based line where each chunk starts', () => {
    const md = '---\ntitle: t\n---\n# A\n\npara one\n\n## B\n\n\n\npara two\nstill two\n\n```js\nx\n```\n';
    const chunks = chunkMarkdown(md, OPTS);
    expect(chunks.map((c) => c.line)).toEqual([4, 8]);
    const lines = md.split('\n');
    for (const c of chunks) expect(lines[c.line - 1]).toBe(c.text.split('\n')[0]);
  });

  it('merges a heading with no body into the next section and drops trailing empty headings', () => {
    const md = '# Title\n\n## Empty\n\n## Full\n\nbody text\n\n## Trailing\n';
    const chunks = chunkMarkdown(md, OPTS);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({
      headings: ['Title', 'Full'],
      line: 1,
      text: '# Title\n\n## Empty\n\n## Full\n\nbody text',
    });
  });

  it('keeps every chunk within the budget for long English prose, with line numbers that point at the text', () => {
    const paras = Array.from({ length: 30 }, (_, i) => numbered(i * 10, 3 + (i % 9) * 5));
    const md = `# Long\n\n${paras.join('\n\n')}\n`;
    const opts = { maxTokens: 120, overlapTokens: 20 };
    const chunks = chunkMarkdown(md, opts);
    expect(chunks.length).toBeGreaterThan(10);
    checkInvariants(md, chunks, opts);
    for (const c of chunks) expect(c.tokens).toBeLessThanOrEqual(120);
    const lines = md.split('\n');
    for (const c of chunks) expect(lines[c.line - 1]).toContain(c.text.split('\n')[0]);
  });

  it('keeps a 5,000-character Chinese document without headings within 400 tokens', () => {
    const sentences = [
      '向量数据库用于存储文本的嵌入向量，并支持近邻检索。',
      '知识库编译器把原始文档变成维基条目！',
      '检索时先用关键词召回，再用向量排序？',
      '这个系统同时支持中文和英文',
    ];
    let md = '';
    for (let i = 0; md.length < 5000; i++) {
      md += sentences[i % sentences.length];
      if (i % 7 === 6) md += '\n\n';
    }
    const chunks = chunkMarkdown(md, OPTS);
    checkInvariants(md, chunks, OPTS);
    expect(chunks.length).toBeGreaterThanOrEqual(Math.ceil(countTokens(md) / 400));
    for (const c of chunks) {
      expect(c.tokens).toBeLessThanOrEqual(400);
      expect(c.headings).toEqual([]);
    }
    // Cuts fall at sentence ends (。！？) or paragraph ends.
    for (const c of chunks.slice(0, -1)) expect(c.text).toMatch(/[。！？]$|[^\n]$/);
  });

  it('cuts Chinese without any punctuation at words, and a giant token at characters', () => {
    const zh = '向量数据库知识库编译器检索增强生成'.repeat(200);
    const word = 'x'.repeat(5000);
    for (const md of [zh, word]) {
      const opts = { maxTokens: 100, overlapTokens: 10 };
      const chunks = chunkMarkdown(md, opts);
      checkInvariants(md, chunks, opts);
      for (const c of chunks) expect(c.tokens).toBeLessThanOrEqual(100);
      expect(chunks.map((c) => c.text).join('')).toBe(md);
    }
  });

  it('cuts a 100,000-character line of Chinese, and one without punctuation, into chunks within the limit', () => {
    // Intl.Segmenter slows down badly on long strings; the chunker segments through windows (its
    // speed on these lines is measured by `npm run bench:stages`).
    const line = '向量数据库用于存储文本的嵌入向量，并支持近邻检索。'.repeat(4000);
    const bare = '向量数据库知识库编译器检索增强生成'.repeat(3000);
    for (const md of [line, bare]) {
      const chunks = chunkMarkdown(md, OPTS);
      for (const c of chunks) expect(c.tokens).toBeLessThanOrEqual(400);
      expect(chunks.length).toBeGreaterThanOrEqual(Math.ceil(countTokens(md) / 400));
    }
  });

  it('starts the next chunk of a section with whole sentences from the end of the previous one', () => {
    const md = `## Section\n\n${numbered(0, 60)}\n`;
    const opts = { maxTokens: 100, overlapTokens: 30 };
    const chunks = chunkMarkdown(md, opts);
    expect(chunks.length).toBeGreaterThan(3);
    for (let i = 1; i < chunks.length; i++) {
      const prev = chunks[i - 1]?.text ?? '';
      const cur = chunks[i]?.text ?? '';
      // The overlap: the longest tail of the previous chunk, starting at a sentence, that the next one starts with.
      const starts = [...prev.matchAll(/S\d+ /g)].map((m) => m.index).filter((at) => at > 0);
      const at = starts.find((k) => cur.startsWith(prev.slice(k)));
      expect(at, `${prev}\n---\n${cur}`).toBeDefined();
      const overlap = prev.slice(at);
      expect(countTokens(overlap)).toBeLessThanOrEqual(30 * 1.5);
      expect(cur.length).toBeGreaterThan(overlap.length);
    }
    // Overlap repeats text, it never loses any: every sentence appears.
    const all = chunks.map((c) => c.text).join(' ');
    for (let n = 0; n < 60; n++) expect(all).toContain(`S${n} `);
  });

  it('does not overlap across sections, or when overlap is 0', () => {
    const md = `# A\n\n${numbered(0, 30)}\n\n# B\n\n${numbered(100, 30)}\n`;
    const noOverlap = chunkMarkdown(md, { maxTokens: 100, overlapTokens: 0 });
    const seen = noOverlap.flatMap((c) => c.text.match(/S\d+ /g) ?? []);
    expect(new Set(seen).size).toBe(seen.length);
    const withOverlap = chunkMarkdown(md, { maxTokens: 100, overlapTokens: 20 });
    const firstOfB = withOverlap.find((c) => c.headings[0] === 'B');
    expect(firstOfB?.text.startsWith('# B')).toBe(true);
  });

  it('keeps a code block whole up to twice the budget and never overlaps code', () => {
    const code = Array.from({ length: 30 }, (_, i) => `const value${i} = compute(${i});`).join('\n');
    const md = `# Code\n\n${numbered(0, 6)}\n\n\`\`\`ts\n${code}\n\`\`\`\n\n${numbered(10, 3)}\n`;
    const opts = { maxTokens: 200, overlapTokens: 30 };
    expect(countTokens(code)).toBeGreaterThan(200);
    expect(countTokens(code)).toBeLessThan(400);
    const chunks = chunkMarkdown(md, opts);
    checkInvariants(md, chunks, opts);
    const withCode = chunks.filter((c) => c.text.includes('```ts'));
    expect(withCode).toHaveLength(1);
    expect(withCode[0]?.text).toContain(code);
    const after = chunks[chunks.indexOf(withCode[0] as Chunk) + 1];
    expect(after?.text.startsWith('S10 ')).toBe(true);
  });

  it('cuts a code block over twice the budget at lines, each piece fenced with the same info string', () => {
    const body = Array.from({ length: 200 }, (_, i) => `    print("line ${i}")  # ${'x'.repeat(i % 7)}`).join('\n');
    const md = `Some intro.\n\n~~~python title="big.py"\n${body}\n~~~\n\nOutro.\n`;
    const opts = { maxTokens: 150, overlapTokens: 20 };
    const chunks = chunkMarkdown(md, opts);
    checkInvariants(md, chunks, opts);
    const pieces = chunks.filter((c) => c.text.includes('print('));
    expect(pieces.length).toBeGreaterThan(4);
    const bodies: string[] = [];
    for (const p of pieces) {
      expect(p.tokens).toBeLessThanOrEqual(150);
      const m = /~~~python title="big.py"\n([\s\S]*?)\n~~~/.exec(p.text);
      expect(m, p.text).not.toBeNull();
      bodies.push(m?.[1] ?? '');
    }
    expect(bodies.join('\n')).toBe(body);
    // Each piece's line is the first code line it holds (or the fence for the first piece).
    const lines = md.split('\n');
    for (const p of pieces.slice(1)) expect(lines[p.line - 1]).toBe(p.text.split('\n')[1]);
  });

  it('never cuts inside a fence nested in a list', () => {
    const item = (i: number): string =>
      `- Item ${i}: ${numbered(i * 10, 4)}\n  \`\`\`sh\n  run ${i}\n  # not a heading\n  \`\`\``;
    const md = `# List\n\n${Array.from({ length: 12 }, (_, i) => item(i)).join('\n')}\n`;
    const opts = { maxTokens: 80, overlapTokens: 10 };
    const chunks = chunkMarkdown(md, opts);
    checkInvariants(md, chunks, opts);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.every((c) => c.headings.join() === 'List')).toBe(true);
  });

  it('cuts a big table at rows and repeats the header', () => {
    const rows = Array.from({ length: 80 }, (_, i) => `| row ${i} | value ${i * 3} |`).join('\n');
    const md = `| name | value |\n| --- | ---: |\n${rows}\n`;
    const opts = { maxTokens: 100, overlapTokens: 20 };
    const chunks = chunkMarkdown(md, opts);
    checkInvariants(md, chunks, opts);
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(c.text.startsWith('| name | value |\n| --- | ---: |\n| row ')).toBe(true);
      expect(c.tokens).toBeLessThanOrEqual(100);
    }
    expect(chunks.flatMap((c) => c.text.split('\n').slice(2)).join('\n')).toBe(rows);
  });

  it('keeps invariants and loses no text on random documents', () => {
    const pieces = [
      () => `# ${word()} ${word()}`,
      () => `## ${word()}`,
      () => `### ${word()}`,
      () => numbered(rnd(1000), 1 + rnd(20)),
      () => '向量数据库用于存储嵌入。它使用索引来加速检索！'.repeat(1 + rnd(15)),
      () => Array.from({ length: 1 + rnd(12) }, () => `- ${numbered(rnd(1000), 1 + rnd(3))}`).join('\n'),
      () => `\`\`\`js\n${Array.from({ length: 1 + rnd(80) }, (_, i) => `let v${i} = ${word()};`).join('\n')}\n\`\`\``,
      () => `> ${numbered(rnd(1000), 1 + rnd(8))}\n> ${word()}`,
      () =>
        `| a | b |\n|---|---|\n${Array.from({ length: 1 + rnd(40) }, () => `| ${word()} | ${word()} |`).join('\n')}`,
      () => `1. ${word()}\n   \`\`\`\n   code ${word()}\n   \`\`\`\n2. ${numbered(rnd(1000), 2)}`,
    ];
    let seed = 11;
    function rnd(n: number): number {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    }
    function word(): string {
      return ['vector', 'index', 'graph', 'embedding', 'note', 'slip', 'box', '知识', '检索'][rnd(9)] ?? 'x';
    }
    const chars = (s: string): Map<string, number> => {
      const m = new Map<string, number>();
      for (const ch of s.replace(/\s|`|~/g, '')) m.set(ch, (m.get(ch) ?? 0) + 1);
      return m;
    };
    for (let k = 0; k < 150; k++) {
      const parts = Array.from({ length: 1 + rnd(12) }, () => (pieces[rnd(pieces.length)] ?? (() => ''))());
      parts.push(numbered(rnd(1000), 1));
      const md = `${parts.join('\n\n')}\n`;
      const opts = { maxTokens: 40 + rnd(400), overlapTokens: rnd(60) };
      const chunks = chunkMarkdown(md, opts);
      checkInvariants(md, chunks, opts);
      // Every non-space character of the document is in some chunk (overlap and repeated headers only add).
      const have = chars(chunks.map((c) => c.text).join('\n'));
      for (const [ch, n] of chars(md)) expect(have.get(ch) ?? 0, `${ch} in\n${md}`).toBeGreaterThanOrEqual(n);
    }
  });
});
