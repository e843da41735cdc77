import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, KB_BIN, runKb } from './helpers.js';
import { parseEntryFile } from '../src/entry/frontmatter.js';
import { getSection } from '../src/entry/markers.js';

let root: string;
let client: Client;
let transport: StdioClientTransport;

const call = async (name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

beforeAll(async () => {
  root = fixture({
    'raw/vector-databases.md':
      '# Vector Databases\n\nA vector database stores embeddings and answers nearest-neighbour queries. HNSW is the usual index.\n',
    'raw/rag.md':
      '# Retrieval Augmented Generation\n\nRetrieval augmented generation retrieves passages from a vector database before the model answers.\n',
    'raw/zh.md': '# 向量数据库\n\n向量数据库存储嵌入向量，用于相似度搜索。\n',
  });
  const compiled = await runKb(['compile'], { cwd: root });
  expect(compiled.code).toBe(0);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'ANTHROPIC_API_KEY') env[k] = v;
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [KB_BIN, 'mcp', '--kb', root],
    env,
    stderr: 'pipe',
  });
  client = new Client({ name: 'kb-test', version: '1.0.0' });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
});

describe('kb mcp', () => {
  it('lists every tool with input schemas, read-only ones marked', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].sort()).toEqual(['ask', 'context', 'read', 'save', 'search', 'status']);
    for (const name of ['search', 'ask', 'read', 'context', 'status'])
      expect(byName.get(name)!.annotations?.readOnlyHint).toBe(true);
    expect(byName.get('save')!.annotations?.readOnlyHint).toBe(false);
    expect(byName.get('search')!.inputSchema.required).toEqual(['query']);
    expect(byName.get('save')!.inputSchema.required).toEqual(['title', 'content']);
    // Any configured provider answers, not only Claude.
    expect(byName.get('ask')!.description).not.toContain('ANTHROPIC_API_KEY');
    expect(byName.get('ask')!.description).toMatch(/the model kb is configured with \(any provider/);
  });

  it('search ranks entries and passages', async () => {
    const r = await call('search', { query: 'vector database index', limit: 5 });
    expect(r.isError).toBeFalsy();
    const out = JSON.parse(textOf(r)) as { entries: { title: string; path: string }[]; passages: { text: string }[] };
    expect(out.entries[0]!.title).toBe('Vector Databases');
    expect(out.entries[0]!.path).toBe('wiki/sources/Vector Databases.md');
    expect(out.passages.some((p) => p.text.includes('HNSW'))).toBe(true);
    const zh = JSON.parse(textOf(await call('search', { query: '向量数据库' }))) as { entries: { title: string }[] };
    expect(zh.entries[0]!.title).toBe('向量数据库');
  });

  it('read returns an entry by title, id or alias; an unknown name is a tool error', async () => {
    const r = await call('read', { entry: 'Vector Databases' });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toMatch(/^---\nid: source\/vector-databases/);
    const byId = await call('read', { entry: 'source/retrieval-augmented-generation' });
    expect(textOf(byId)).toContain('# Retrieval Augmented Generation');
    const missing = await call('read', { entry: 'No Such Thing' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/No entry named "No Such Thing".*search tool/);
  });

  it('context packs XML-isolated entries within the budget', async () => {
    const r = await call('context', { topic: 'retrieval augmented generation', budget: 300 });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toMatch(/<kb_entry id="source\/retrieval-augmented-generation">/);
    expect((r.structuredContent as { tokens: number }).tokens).toBeLessThanOrEqual(300);
  });

  it('ask answers with citations (offline without a key)', async () => {
    const r = await call('ask', { question: 'What does a vector database store?' });
    expect(r.isError).toBeFalsy();
    const s = r.structuredContent as { answer: string; mode: string; citations: { id: string }[] };
    expect(s.mode).toBe('offline');
    expect(s.answer).toMatch(/embeddings/);
    expect(s.citations.map((c) => c.id)).toContain('source/vector-databases');
  });

  it('save files a note into wiki/answers, indexed at once; saving again updates it', async () => {
    const r = await call('save', {
      title: 'Which index do vector databases use?',
      content: 'Mostly HNSW, see [[Vector Databases]]. Zebrafish recall.',
      cites: ['Vector Databases'],
    });
    expect(r.isError).toBeFalsy();
    const s = r.structuredContent as { path: string; id: string; updated: boolean };
    expect(s.path).toBe('wiki/answers/Which index do vector databases use.md');
    expect(s.updated).toBe(false);
    expect(readFileSync(join(root, s.path), 'utf8')).toMatch(/kind: answer/);
    // The cited entry lists the answer among its backlinks (frontmatter; no body section by default).
    expect(
      parseEntryFile(readFileSync(join(root, 'wiki/sources/Vector Databases.md'), 'utf8')).data['backlinks'],
    ).toContain(s.id);
    const found = JSON.parse(textOf(await call('search', { query: 'zebrafish', kind: 'answer' }))) as {
      entries: { id: string }[];
    };
    expect(found.entries.map((e) => e.id)).toEqual([s.id]);
    const again = await call('save', { title: 'Which index do vector databases use?', content: 'HNSW or IVF.' });
    expect((again.structuredContent as { updated: boolean }).updated).toBe(true);
    const bad = await call('save', { title: 'x', content: 'y', cites: ['Unknown Entry'] });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('Cannot cite "Unknown Entry"');
    expect(existsSync(join(root, 'wiki/answers/x.md'))).toBe(false);
  });

  it('status reports the knowledge base', async () => {
    const r = await call('status');
    expect(r.isError).toBeFalsy();
    const s = JSON.parse(textOf(r)) as { sources: { compiled: number }; entries: { byKind: Record<string, number> } };
    expect(s.sources.compiled).toBe(3);
    expect(s.entries.byKind['answer']).toBe(1);
  });

  it('invalid input is refused as a tool error, and the server keeps serving', async () => {
    const empty = await call('search', { query: '' });
    expect(empty.isError).toBe(true);
    expect(textOf(empty)).toMatch(/Input validation error.*query/);
    const wrong = await call('search', { query: 'x', limit: 'many' });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toMatch(/limit/);
    const ok = await call('search', { query: 'vector' });
    expect(ok.isError).toBeFalsy();
  });

  it('offers the index and every entry as resources', async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain('kb://wiki/index.md');
    expect(uris).toContain('kb://entry/source/vector-databases');
    const zh = resources.find((r) => r.name === '向量数据库')!;
    expect(zh.uri).toMatch(/^kb:\/\/entry\/source\/%/);
    const read = await client.readResource({ uri: zh.uri });
    expect((read.contents[0] as { text: string }).text).toContain('向量数据库存储嵌入向量');
    const index = await client.readResource({ uri: 'kb://wiki/index.md' });
    expect((index.contents[0] as { text: string }).text).toContain('[[Vector Databases]]');
  });

  it('a saved note whose text holds kb markers keeps all its text after it is cited twice', async () => {
    const content =
      'Intro line.\n<!-- kb:backlinks -->\nThis text must survive.\n\n## Later\n\nMore after. 这段中文也要保留。';
    const fake = 'Quoted block:\n<!-- kb:backlinks -->\nInside a fake section.\n<!-- /kb:backlinks -->\nTail text.';
    expect((await call('save', { title: 'Marker note', content, cites: ['Vector Databases'] })).isError).toBeFalsy();
    expect((await call('save', { title: 'Fake section note', content: fake })).isError).toBeFalsy();
    for (const title of ['First citer', 'Second citer']) {
      const r = await call('save', {
        title,
        content: `${title} builds on the marker notes.`,
        cites: ['Marker note', 'Fake section note'],
      });
      expect(r.isError, textOf(r)).toBeFalsy();
    }
    const note = readFileSync(join(root, 'wiki/answers/Marker note.md'), 'utf8');
    for (const part of ['Intro line.', 'This text must survive.', '## Later', 'More after. 这段中文也要保留。'])
      expect(note).toContain(part);
    // The person's marker is shown as text, never taken for kb's section; the frontmatter lists both citers
    // (no body section in a vault by default: wiki.backlinksSection).
    expect(note).toContain('\\<!-- kb:backlinks -->\nThis text must survive.');
    const { body, data } = parseEntryFile(note);
    expect(getSection(body, 'backlinks')).toBeNull();
    expect(data['backlinks']).toEqual(['answer/first-citer', 'answer/second-citer']);
    const other = readFileSync(join(root, 'wiki/answers/Fake section note.md'), 'utf8');
    for (const part of ['Quoted block:', 'Inside a fake section.', 'Tail text.']) expect(other).toContain(part);
    expect(getSection(parseEntryFile(other).body, 'backlinks')).toBeNull();
    expect(parseEntryFile(other).data['backlinks']).toEqual(['answer/first-citer', 'answer/second-citer']);
    expect(textOf(await call('read', { entry: 'Marker note' }))).toContain('This text must survive.');
  });

  it('bounds every input that arrives over MCP, with an error that names the limit', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['save', { title: 'Too big', content: 'x'.repeat(300 * 1024) }, /content is 307,200 bytes, more than the 256 KB/],
      ['save', { title: 'T'.repeat(301), content: 'y' }, /title is longer than 300 characters/],
      ['save', { title: '\u202E\u200B\uFEFF', content: 'y' }, /title has no visible characters/],
      [
        'save',
        { title: 'Many cites', content: 'y', cites: Array.from({ length: 51 }, () => 'Vector Databases') },
        /more than 50 entries/,
      ],
      [
        'save',
        { title: 'Long cite', content: 'y', cites: ['v'.repeat(501)] },
        /cited entry name is longer than 500 characters/,
      ],
      ['ask', { question: 'q '.repeat(1500) }, /question is longer than 2,000 characters/],
      ['search', { query: 'q'.repeat(2001) }, /query is longer than 2,000 characters/],
      ['context', { topic: 'q'.repeat(2001) }, /topic is longer than 2,000 characters/],
      ['read', { entry: 'e'.repeat(501) }, /entry is longer than 500 characters/],
    ];
    for (const [tool, args, message] of cases) {
      const r = await call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args).slice(0, 80)}`).toBe(true);
      expect(textOf(r)).toMatch(message);
    }
    expect(existsSync(join(root, 'wiki/answers/Too big.md'))).toBe(false);
    expect(existsSync(join(root, 'wiki/answers/Many cites.md'))).toBe(false);
    // Just under the limits is fine.
    const ok = await call('save', {
      title: 'Big but allowed',
      content: `${'Zebra notes. '.repeat(20_000)}`.slice(0, 256 * 1024 - 10),
    });
    expect(ok.isError, textOf(ok)).toBeFalsy();
  });

  it('keeps control and invisible characters out of saved titles and file names', async () => {
    const r = await call('save', {
      title: 'Invoice\u202Efdp.exe\u200B\u2066 notes\u2069\u0085\uFEFF',
      content: 'A note about invoices.',
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    const s = r.structuredContent as { path: string; title: string };
    expect(s.path).toBe('wiki/answers/Invoicefdp.exe notes.md');
    expect(s.title).toBe('Invoicefdp.exe notes');
    expect(parseEntryFile(readFileSync(join(root, s.path), 'utf8')).data['title']).toBe('Invoicefdp.exe notes');
  });
});
