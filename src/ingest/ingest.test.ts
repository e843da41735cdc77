import { describe, expect, it } from 'vitest';
import type { RawDocument, RawPath } from '../types.js';
import { sha256 } from '../util/hash.js';
import { ingestFile, type RawFile } from './index.js';

const MAX = 1024 * 1024;

async function ingest(path: string, content: string | Buffer, opts: { maxFileBytes?: number; size?: number } = {}) {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const file: RawFile = {
    path: path as RawPath,
    absPath: `/kb/raw/${path}`,
    size: opts.size ?? bytes.length,
    mtimeMs: 0,
  };
  return ingestFile(file, bytes, sha256(bytes), { maxFileBytes: opts.maxFileBytes ?? MAX });
}

interface DocCase {
  name: string;
  path: string;
  content: string | Buffer;
  expect: Partial<Pick<RawDocument, 'type' | 'title' | 'language' | 'mime' | 'url' | 'lang'>>;
  meta?: Record<string, unknown>;
  contains?: string[];
  excludes?: string[];
  /** Diagnostics that still come with a document. */
  ruleIds?: string[];
  /** The whole markdown. */
  markdown?: string;
}

const docCases: DocCase[] = [
  {
    name: 'control and invisible characters are dropped from the title',
    path: 'notes/invoice.md',
    content: '# Invoice\u202Efdp.exe \u200Bnotes\u2066\u2069\n\nBody text.\n',
    expect: { type: 'markdown', title: 'Invoicefdp.exe notes' },
  },
  {
    name: 'a title of only invisible characters falls back to the file name',
    path: 'notes/发票.txt',
    content: '\u202E\u200B\n\n正文内容。\n',
    expect: { type: 'text', title: '发票' },
  },
  {
    name: 'markdown with frontmatter',
    path: 'notes/a.md',
    content:
      '---\ntitle: Vector Databases\ntags: [rag, db]\nsource: https://example.com/vdb\n---\n# Heading\n\nBody text.\n',
    expect: { type: 'markdown', title: 'Vector Databases', url: 'https://example.com/vdb', lang: 'en' },
    meta: { title: 'Vector Databases', tags: ['rag', 'db'], source: 'https://example.com/vdb' },
    markdown: '# Heading\n\nBody text.\n',
  },
  {
    name: 'frontmatter date stays a string',
    path: 'a.md',
    content: '---\ndate: 2024-01-02\nupdated: 2024-01-02T10:00:00Z\ncount: 3\ndraft: false\nempty:\n---\ntext\n',
    expect: { type: 'markdown', title: 'a' },
    meta: { date: '2024-01-02', updated: '2024-01-02T10:00:00Z', count: 3, draft: false, empty: null },
  },
  {
    name: 'title from first ATX heading, skipping code fences',
    path: 'b.md',
    content: '```sh\n# not a title\n```\n\nIntro\n\n# The `Real` Title #\n\n## Sub\n',
    expect: { type: 'markdown', title: 'The Real Title' },
  },
  {
    name: 'title from setext heading',
    path: 'c.md',
    content: 'Setext Title\n============\n\ntext\n',
    expect: { title: 'Setext Title' },
  },
  {
    name: 'title falls back to the file name; .markdown extension',
    path: 'dir/no heading here.markdown',
    content: 'Just a paragraph.\n\n## Second level only\n',
    expect: { type: 'markdown', title: 'no heading here' },
  },
  {
    name: 'a text that opens with a heading of another level is titled by it',
    path: 'docs/getting-started.md',
    content: '## Getting Started with `Rc<T>`\n\nSome text.\n\n### Details\n',
    expect: { type: 'markdown', title: 'Getting Started with Rc<T>' },
  },
  {
    name: 'a heading keeps no attribute block',
    path: 'docs/anchored.md',
    content: '# Installation {#installation}\n\nText.\n',
    expect: { type: 'markdown', title: 'Installation' },
  },
  {
    name: 'a heading keeps no MDX comment anchor',
    path: 'docs/mdx-anchored.md',
    content: '# Rendering lists {/*rendering-lists*/}\n\nText.\n',
    expect: { type: 'markdown', title: 'Rendering lists' },
  },
  {
    name: 'a level-1 heading wins over an earlier heading of another level',
    path: 'docs/later.md',
    content: '### Note\n\n# The Real Title\n\nText.\n',
    expect: { type: 'markdown', title: 'The Real Title' },
  },
  {
    name: 'mdx is markdown',
    path: 'page.mdx',
    content: '# MDX Page\n\n<Component />\n',
    expect: { type: 'markdown', title: 'MDX Page' },
  },
  {
    name: 'Chinese file name and content',
    path: 'zh/卡片盒笔记法.md',
    content: '卡片盒笔记法是一种把想法写在卡片上并相互链接的方法。每张卡片只写一个想法。\n',
    expect: { type: 'markdown', title: '卡片盒笔记法', lang: 'zh' },
  },
  {
    name: 'Chinese frontmatter title',
    path: 'zh/x.md',
    content: '---\ntitle: 检索增强生成\n---\n检索增强生成（RAG）先检索再生成。\n',
    expect: { title: '检索增强生成', lang: 'zh' },
  },
  {
    name: 'malformed frontmatter: warning, body kept, meta empty',
    path: 'bad.md',
    content: '---\ntitle: [unclosed\n---\nbody text\n',
    expect: { type: 'markdown', title: 'bad' },
    meta: {},
    markdown: 'body text\n',
    ruleIds: ['ingest-frontmatter'],
  },
  {
    name: 'frontmatter that is a list',
    path: 'list.md',
    content: '---\n- a\n- b\n---\n# List FM\n',
    expect: { title: 'List FM' },
    meta: {},
    markdown: '# List FM\n',
    ruleIds: ['ingest-frontmatter'],
  },
  {
    name: 'JavaScript frontmatter is never run',
    path: 'js.md',
    content: '---js\n{ title: (() => { globalThis.__kbPwned = true; return "x"; })() }\n---\nbody\n',
    expect: { title: 'js' },
    meta: {},
    ruleIds: ['ingest-frontmatter'],
  },
  {
    name: 'unclosed frontmatter block is just text',
    path: 'rule.md',
    content: '---\n\nSome text after a rule.\n',
    expect: { title: 'rule' },
    meta: {},
    markdown: '---\n\nSome text after a rule.\n',
  },
  {
    name: 'empty frontmatter',
    path: 'e.md',
    content: '---\n---\n# E\n',
    expect: { title: 'E' },
    meta: {},
    markdown: '# E\n',
  },
  {
    name: 'CRLF becomes LF, BOM is dropped',
    path: 'win.md',
    content: Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('---\r\ntitle: Windows\r\n---\r\nline one\r\nline two\r\n'),
    ]),
    expect: { title: 'Windows' },
    meta: { title: 'Windows' },
    markdown: 'line one\nline two\n',
  },
  {
    name: 'UTF-16 LE with BOM (Notepad) is read',
    path: 'notepad.txt',
    content: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Shopping list\r\nmilk\r\n', 'utf16le')]),
    expect: { type: 'text', title: 'Shopping list' },
    markdown: 'Shopping list\nmilk\n',
  },
  {
    name: 'text: short first line is the title',
    path: 'notes/meeting.txt',
    content: '\n\nMeeting notes — search sync\n\nWe agreed on BM25.\n',
    expect: { type: 'text', title: 'Meeting notes — search sync', lang: 'en' },
  },
  {
    name: 'text: a sentence is not a title',
    path: 'notes/log.txt',
    content: 'We agreed on BM25 today.\nMore.\n',
    expect: { type: 'text', title: 'log' },
  },
  {
    name: 'text: Chinese sentence is not a title',
    path: '读书笔记.text',
    content: '今天读完了关于卡片盒笔记法的书。\n',
    expect: { type: 'text', title: '读书笔记', lang: 'zh' },
  },
  {
    name: 'text: long first line is not a title',
    path: 'long.log',
    content: `${'word '.repeat(30)}\n`,
    expect: { type: 'text', title: 'long' },
  },
  {
    name: 'no extension, UTF-8 text',
    path: 'README',
    content: 'Read me first\n\nsome text\n',
    expect: { type: 'text', title: 'Read me first' },
  },
  {
    name: 'unknown extension, UTF-8 text',
    path: 'data.csv',
    content: 'a,b\n1,2\n',
    expect: { type: 'text', title: 'a,b' },
  },
  {
    name: 'code: python with docstring',
    path: 'code/bm25.py',
    content: '#!/usr/bin/env python3\n"""Okapi BM25 ranking."""\n\ndef score():\n    return 1\n',
    expect: { type: 'code', title: 'bm25.py', language: 'python' },
    markdown:
      '# bm25.py\n\nOkapi BM25 ranking.\n\n```python\n#!/usr/bin/env python3\n"""Okapi BM25 ranking."""\n\ndef score():\n    return 1\n```\n',
  },
  {
    name: 'code: fence longer than backticks inside',
    path: 'x.ts',
    content: 'const md = `\n```js\nx\n```\n`;\n',
    expect: { type: 'code', language: 'typescript' },
    contains: ['````typescript\n', '\n````\n'],
  },
  {
    name: 'code: JSDoc header becomes prose, licence header does not',
    path: 'a/rrf.js',
    content: '/**\n * Reciprocal Rank Fusion.\n *\n * Merges ranked lists.\n */\nexport const k = 60;\n',
    expect: { language: 'javascript' },
    contains: ['# rrf.js\n\nReciprocal Rank Fusion.\n\nMerges ranked lists.\n\n```javascript\n'],
  },
  {
    name: 'code: licence comment is not an intro',
    path: 'main.go',
    content: '// Copyright 2024 Someone. MIT License.\npackage main\n',
    expect: { language: 'go' },
    markdown: '# main.go\n\n```go\n// Copyright 2024 Someone. MIT License.\npackage main\n```\n',
  },
  {
    name: 'code: yaml',
    path: 'conf/kb.yml',
    content: 'a: 1\n',
    expect: { type: 'code', language: 'yaml', title: 'kb.yml' },
  },
  { name: 'code: xml', path: 'config.xml', content: '<config/>\n', expect: { type: 'code', language: 'xml' } },
  {
    name: 'code: Dockerfile by name',
    path: 'Dockerfile',
    content: 'FROM node:20\n',
    expect: { type: 'code', language: 'dockerfile' },
  },
  {
    name: 'url: Windows shortcut',
    path: 'clips/SQLite FTS5.url',
    content: '[InternetShortcut]\r\nURL=https://www.sqlite.org/fts5.html\r\nIconIndex=0\r\n',
    expect: { type: 'url', title: 'SQLite FTS5', url: 'https://www.sqlite.org/fts5.html' },
    markdown: '# SQLite FTS5\n\nLink: <https://www.sqlite.org/fts5.html>\n',
  },
  {
    name: 'url: macOS webloc',
    path: 'clips/Example.webloc',
    content:
      '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n\t<key>URL</key>\n\t<string>https://example.com/a?b=1&amp;c=2</string>\n</dict>\n</plist>\n',
    expect: { type: 'url', title: 'Example', url: 'https://example.com/a?b=1&c=2' },
  },
  {
    name: 'attachment: PNG with pixel size',
    path: 'images/diagram.png',
    content: png(640, 480),
    expect: { type: 'attachment', title: 'diagram.png', mime: 'image/png' },
    meta: { width: 640, height: 480 },
    markdown: '# diagram.png\n\nAttachment: `raw/images/diagram.png` (image/png, 33 B, 640×480).\n',
    // A PNG header without pixels: OCR cannot decode it, the entry describes the file.
    ruleIds: ['ingest-image'],
  },
  {
    name: 'a PDF that is not one: described as an attachment, with a diagnostic',
    path: 'papers/论文.pdf',
    content: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(12_600, 1)]),
    expect: { type: 'attachment', title: '论文.pdf', mime: 'application/pdf' },
    meta: {},
    contains: ['(application/pdf, 12.3 KB)'],
    ruleIds: ['ingest-pdf-broken'],
  },
  {
    name: 'a DOCX that is not a zip: described, with a diagnostic',
    path: 'Report.DOCX',
    content: Buffer.from('PK\x03\x04junk', 'latin1'),
    expect: { type: 'attachment', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
    ruleIds: ['ingest-document-broken'],
  },
  {
    name: 'attachment: svg is an image, not code',
    path: 'logo.svg',
    content: '<svg xmlns="http://www.w3.org/2000/svg"/>',
    expect: { type: 'attachment', mime: 'image/svg+xml' },
  },
  {
    name: 'attachment: a legacy Word .doc is described, not read',
    path: 'Old.doc',
    content: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]),
    expect: { type: 'attachment', mime: 'application/msword' },
  },
  {
    name: 'unknown extension, binary: octet-stream',
    path: 'blob.xyz',
    content: Buffer.from([1, 2, 0, 3, 0xff]),
    expect: { type: 'attachment', mime: 'application/octet-stream' },
  },
  {
    name: 'unknown extension, PNG bytes: sniffed',
    path: 'screenshot',
    content: png(3, 2),
    expect: { type: 'attachment', mime: 'image/png' },
    meta: { width: 3, height: 2 },
    ruleIds: ['ingest-image'],
  },
];

describe('ingestFile: documents', () => {
  it.each(docCases)('$name', async (c) => {
    const { doc, messages } = await ingest(c.path, c.content);
    expect(messages.map((m) => m.ruleId)).toEqual(c.ruleIds ?? []);
    expect(doc).toBeDefined();
    if (!doc) return;
    expect(doc).toMatchObject(c.expect);
    expect(doc.path).toBe(c.path);
    expect(doc.absPath).toBe(`/kb/raw/${c.path}`);
    expect(doc.size).toBe(typeof c.content === 'string' ? Buffer.byteLength(c.content) : c.content.length);
    expect(doc.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(doc.markdown).not.toContain('\r');
    if (c.meta) expect(doc.meta).toEqual(c.meta);
    if (c.markdown !== undefined) expect(doc.markdown).toBe(c.markdown);
    for (const s of c.contains ?? []) expect(doc.markdown).toContain(s);
    for (const s of c.excludes ?? []) expect(doc.markdown).not.toContain(s);
    // Meta survives a JSON round trip unchanged: no Dates, no NaN, no functions.
    expect(JSON.parse(JSON.stringify(doc.meta))).toEqual(doc.meta);
    // Optional fields are absent, never `undefined`.
    for (const [k, v] of Object.entries(doc)) expect(v, k).not.toBeUndefined();
  });

  it('never runs JavaScript frontmatter', async () => {
    await ingest('js.md', '---js\n{ a: (() => { globalThis.__kbPwned = true; return 1; })() }\n---\nx\n');
    expect((globalThis as Record<string, unknown>).__kbPwned).toBeUndefined();
  });

  it('frontmatter error points at the line', async () => {
    const { messages } = await ingest('bad.md', '---\na: 1\nb: 2\n  c: : x\n---\nbody\n');
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      file: 'raw/bad.md',
      ruleId: 'ingest-frontmatter',
      severity: 'warning',
      source: 'kb',
      place: { line: 4 },
    });
    expect(messages[0]?.reason).toMatch(/^Unexpected .*, expected /);
  });

  it('YAML aliases cannot blow up meta', async () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 0; i < 12; i++)
      lines.push(
        `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`,
      );
    const { doc } = await ingest('bomb.md', `---\n${lines.join('\n')}\n---\nbody\n`);
    expect(JSON.stringify(doc?.meta).length).toBeLessThan(200_000);
  });
});

interface ProblemCase {
  name: string;
  path: string;
  content: string | Buffer;
  ruleId: string;
  size?: number;
  line?: number;
}

const problemCases: ProblemCase[] = [
  { name: 'empty file', path: 'empty.md', content: '', ruleId: 'ingest-empty' },
  { name: 'whitespace only', path: 'blank.txt', content: ' \n\t\r\n\u3000\n', ruleId: 'ingest-empty' },
  { name: 'BOM only', path: 'bom.md', content: Buffer.from([0xef, 0xbb, 0xbf, 0x0a]), ruleId: 'ingest-empty' },
  { name: 'empty code file', path: 'a.py', content: '\n\n', ruleId: 'ingest-empty' },
  { name: 'empty file without extension', path: 'EMPTY', content: '', ruleId: 'ingest-empty' },
  { name: 'binary junk named .md', path: 'junk.md', content: junk(4096), ruleId: 'ingest-binary' },
  { name: 'PNG named .md', path: 'image.md', content: png(10, 10), ruleId: 'ingest-binary' },
  {
    name: 'control characters without NUL',
    path: 'ctl.txt',
    content: Buffer.from('\x01\x02\x03\x04abc\x05\x06\x07\x08'),
    ruleId: 'ingest-binary',
  },
  { name: 'invalid UTF-8', path: 'latin.md', content: Buffer.from([0xff, 0xfe, 0x41]), ruleId: 'ingest-encoding' },
  {
    name: 'too large (bytes not read)',
    path: 'big.md',
    content: Buffer.alloc(0),
    size: MAX + 1,
    ruleId: 'ingest-too-large',
  },
  {
    name: 'too large attachment',
    path: 'movie.mp4',
    content: Buffer.alloc(0),
    size: 50 * MAX,
    ruleId: 'ingest-too-large',
  },
  { name: 'url file without URL', path: 'x.url', content: '[InternetShortcut]\nIconIndex=0\n', ruleId: 'ingest-url' },
  {
    name: 'url file with a relative URL',
    path: 'y.url',
    content: '[InternetShortcut]\nURL=/relative\n',
    ruleId: 'ingest-url',
  },
  { name: 'empty webloc', path: 'e.webloc', content: '', ruleId: 'ingest-empty' },
  { name: 'webloc without URL', path: 'z.webloc', content: '<plist><dict></dict></plist>', ruleId: 'ingest-url' },
  {
    name: 'HTML with nothing readable',
    path: 'app.html',
    content: '<html><head><script>boot()</script></head><body><nav>Home</nav></body></html>',
    ruleId: 'ingest-empty',
  },
];

describe('ingestFile: problems', () => {
  it.each(problemCases)('$name → $ruleId', async (c) => {
    const opts = c.size === undefined ? {} : { size: c.size };
    const { doc, messages } = await ingest(c.path, c.content, opts);
    expect(doc).toBeUndefined();
    expect(messages).toHaveLength(1);
    const m = messages[0];
    expect(m).toMatchObject({ file: `raw/${c.path}`, ruleId: c.ruleId, severity: 'warning', source: 'kb' });
    expect(m?.reason).toMatch(/^Unexpected .+, expected .+/);
    expect(m?.note).toBeTruthy();
    if (c.line !== undefined) expect(m?.place?.line).toBe(c.line);
  });

  it('never throws, whatever the bytes', async () => {
    const names = [
      'a.md',
      'a.html',
      'a.py',
      'a.url',
      'a.webloc',
      'a.png',
      'a.jpg',
      'a.webp',
      'a.gif',
      'a',
      'a.txt',
      'a.pdf',
      'a.docx',
      'a.pptx',
      'a.xlsx',
      'a.odt',
      'a.epub',
      'a.rtf',
      'a.eml',
      'a.mbox',
      'a.srt',
      'a.vtt',
      'a.rss',
      'a.atom',
    ];
    for (let seed = 1; seed <= 30; seed++) {
      for (const name of names) {
        const bytes = junk(seed * 7, seed);
        await expect(ingest(name, bytes)).resolves.toHaveProperty('messages');
      }
    }
  });
});

/** A PNG header (signature + IHDR) of the given size. */
function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.set([8, 2, 0, 0, 0], 16);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr]);
}

/** Deterministic pseudo-random bytes. */
function junk(n: number, seed = 42): Buffer {
  const out = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out[i] = x >> 16;
  }
  return out;
}
