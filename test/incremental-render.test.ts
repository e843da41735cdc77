/**
 * Incremental rendering: a compile after a change writes the same wiki as `kb compile --force`
 * (which renders every entry again) of the same raw/ and wiki/. Concept pages whose inputs did
 * not change are kept as they are (compile stores a render key per concept page); these tests
 * fail if that shortcut keeps a page a full render would write otherwise.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, utimesSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, listTree, writeFile, runKbIn } from './helpers.js';
import { bodyHash, parseEntryFile, stringifyEntry } from '../src/entry/frontmatter.js';
import { withoutBacklinks } from '../src/entry/backlinks.js';
import type { EntryFrontmatter } from '../src/types.js';
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic.js';
import { faithfulClaude } from './model-fixtures.js';

const SAMPLE = [
  'articles/retrieval-augmented-generation-primer.md',
  'articles/bm25-and-full-text-search.md',
  'articles/embeddings-and-vector-databases.md',
  'clips/Hybrid Search with Reciprocal Rank Fusion.md',
  'notes/sqlite-fts5-and-sqlite-vec.md',
  'notes/zettelkasten.md',
  'zh/中文分词与全文检索.md',
  'zh/混合检索与倒数排名融合.md',
  'zh/卡片盒笔记法.md',
];

const roots: string[] = [];
const fakes: FakeAnthropic[] = [];
afterAll(async () => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
  await Promise.all(fakes.map((f) => f.close()));
});

/** The sample documents, with modification times an hour back (unchanged files are known by size and time). */
function sampleKb(without: readonly string[] = []): string {
  const root = mkdtempSync(join(tmpdir(), 'kb-incr-'));
  roots.push(root);
  for (const f of SAMPLE.filter((x) => !without.includes(x))) cpSync(join(REPO, 'raw', f), join(root, 'raw', f));
  const past = (Date.now() - 3600_000) / 1000;
  for (const f of listTree(join(root, 'raw'))) utimesSync(join(root, 'raw', f), past, past);
  return root;
}

/** Every entry file of the wiki and its index, by path (log.md tells the history of runs, so it differs). */
function wikiFiles(root: string): Record<string, string> {
  const wiki = join(root, 'wiki');
  const out: Record<string, string> = {};
  for (const f of listTree(wiki).filter((x) => (x.endsWith('.md') && x !== 'log.md') || x === 'index.json'))
    out[f] = readFileSync(join(wiki, f), 'utf8');
  return out;
}

async function compile(root: string, args: string[] = [], env?: Record<string, string>): Promise<string> {
  const r = await runKbIn(['compile', ...args], { cwd: root, ...(env ? { env } : {}) });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

/**
 * The wiki after an incremental compile, and after a --force compile of the same state: they must
 * be equal (`only`: the files to compare, when the incremental compile leaves others alone by design).
 */
async function expectSameAsForce(
  root: string,
  env?: Record<string, string>,
  only?: (path: string) => boolean,
): Promise<void> {
  await compile(root, [], env);
  const pick = (files: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(files).flatMap(([p, text]) => (!only ? [[p, text]] : only(p) ? [[p, own(text)]] : [])),
    );
  const incremental = pick(wikiFiles(root));
  await compile(root, ['--force'], env);
  expect(incremental).toEqual(pick(wikiFiles(root)));
}

/** An entry's own content: its frontmatter and text without the backlinks (which other pages decide). */
function own(text: string): unknown {
  const { data, body } = parseEntryFile(text);
  const { backlinks: _b, content_hash: _h, ...fm } = data as Record<string, unknown>;
  return { fm, body: withoutBacklinks(body) };
}

/** A first compile, then a --force one: the render keys are those of a wiki that has its generated files. */
async function compiled(root: string, env?: Record<string, string>): Promise<void> {
  await compile(root, [], env);
  await compile(root, ['--force'], env);
}

/** The concept pages citing a raw file. */
function conceptsCiting(root: string, rawPath: string): string[] {
  return Object.entries(wikiFiles(root))
    .filter(([p, text]) => p.startsWith('concepts/') && text.includes(`raw/${rawPath}`))
    .map(([p]) => p);
}

describe('incremental concept rendering', () => {
  it('a changed document: the wiki equals a --force compile, whether the change touched its concepts or not', async () => {
    const root = sampleKb();
    await compiled(root);
    const doc = 'articles/bm25-and-full-text-search.md';
    expect(conceptsCiting(root, doc).length).toBeGreaterThan(1);
    // A paragraph that names no concept: the concepts citing the document keep their inputs.
    appendFileSync(join(root, 'raw', doc), '\nA closing remark of no consequence, added later.\n');
    await expectSameAsForce(root);
    // A paragraph about its concepts: their counts and sentences change.
    appendFileSync(
      join(root, 'raw', doc),
      '\nBM25 is the ranking function of SQLite FTS5. Reciprocal Rank Fusion merges BM25 with vector search.\n',
    );
    await expectSameAsForce(root);
  });

  it('a document added: the wiki equals a --force compile (kept pages that name its concept or its title link it and list it in their backlinks; a note rendered again keeps its own links)', async () => {
    const later = ['notes/zettelkasten.md', 'zh/卡片盒笔记法.md'];
    const root = sampleKb(later);
    await compiled(root);
    for (const doc of later) {
      cpSync(join(REPO, 'raw', doc), join(root, 'raw', doc));
      await expectSameAsForce(root);
    }
  });

  it('a note that links to itself: the index lists no link of an entry to itself, written this run or kept', async () => {
    const root = sampleKb();
    writeFile(
      root,
      'raw/notes/self-reference.md',
      '# Self reference\n\nThis note, [[Self reference]], is about BM25 and the Zettelkasten method, and links itself.\n',
    );
    await compiled(root);
    appendFileSync(join(root, 'raw', 'notes/zettelkasten.md'), '\nA closing remark of no consequence, added later.\n');
    await expectSameAsForce(root);
    const index = JSON.parse(readFileSync(join(root, 'wiki', 'index.json'), 'utf8')) as {
      id: string;
      links: string[];
    }[];
    expect(index.filter((e) => e.links.includes(e.id))).toEqual([]);
  });

  it('a concept page rewritten outside compile (as heal does) is rendered again once a source it cites changes', async () => {
    const root = sampleKb();
    await compiled(root);
    const doc = 'articles/bm25-and-full-text-search.md';
    const page = conceptsCiting(root, doc)[0]!;
    // Heal rewrites a page and records the hash of its new body: not a person's edit.
    const { data, body } = parseEntryFile(readFileSync(join(root, 'wiki', page), 'utf8'));
    const healed = body.replace(/\n## /, '\nA sentence heal added.\n\n## ');
    expect(healed).not.toBe(body);
    writeFile(
      root,
      `wiki/${page}`,
      stringifyEntry({ ...(data as EntryFrontmatter), content_hash: bodyHash(healed) }, healed),
    );
    appendFileSync(join(root, 'raw', doc), '\nA closing remark of no consequence, added later.\n');
    await expectSameAsForce(root);
  });

  it('with the model: a fallback concept page is written by the model once it answers, as --force would', async () => {
    const root = sampleKb();
    // Sources are written by the model; concept pages fall back to the offline writer while it is busy.
    let busy = true;
    const f = await startFakeAnthropic((req) =>
      busy && JSON.stringify(req.body).includes('<concept title=')
        ? { status: 529, headers: { 'retry-after-ms': '1' } }
        : faithfulClaude(req),
    );
    fakes.push(f);
    const env = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: f.url };
    await compiled(root, env);
    const doc = 'articles/bm25-and-full-text-search.md';
    const page = conceptsCiting(root, doc)[0]!;
    expect(readFileSync(join(root, 'wiki', page), 'utf8')).toMatch(/^compiled_by: offline/m);
    busy = false;
    appendFileSync(join(root, 'raw', doc), '\nA closing remark of no consequence, added later.\n');
    // Only the pages citing the changed document are rendered again (other fallback pages wait for
    // a change of theirs, or --force): their own content is compared, their backlinks come from the others.
    const citing = new Set(conceptsCiting(root, doc));
    await expectSameAsForce(root, env, (p) => citing.has(p));
    expect(readFileSync(join(root, 'wiki', page), 'utf8')).toMatch(/^compiled_by: '?model:/m);
  });

  it('with the model: a change that leaves every concept as it was, right after a first compile, asks for no concept page', async () => {
    const root = sampleKb();
    const f = await startFakeAnthropic(faithfulClaude);
    fakes.push(f);
    const env = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: f.url };
    await compile(root, [], env);
    const doc = 'articles/bm25-and-full-text-search.md';
    expect(conceptsCiting(root, doc).length).toBeGreaterThan(1);
    const before = f.messages().length;
    appendFileSync(join(root, 'raw', doc), '\nA closing remark of no consequence, added later.\n');
    await compile(root, [], env);
    const asked = f
      .messages()
      .slice(before)
      .map((m) => JSON.stringify(m.body));
    expect(asked.filter((m) => m.includes('<source path=')).length).toBe(1);
    expect(asked.filter((m) => m.includes('<concept title='))).toEqual([]);
  });
});
