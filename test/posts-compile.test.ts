import { describe, expect, it } from 'vitest';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture, read, writeFile } from './helpers.js';
import { closeKb, openKb } from '../src/kb/context.js';
import { LocalEmbedder } from '../src/embed/index.js';
import { compile } from '../src/compile/compile.js';
import { scanWiki } from '../src/entry/wiki.js';
import { entryValidator, schemaErrors } from '../src/entry/validate.js';
import { lintKb } from '../src/lint/run.js';
import { packagePath } from '../src/kb/package-root.js';

const post = (title: string, date: string, body: string) => `${title}\n\n${date}\n\n${body}\n`;
const FEED = [
  'Notes on Example\n',
  post(
    'Vector search in SQLite',
    'Mon, 06 Apr 2026 00:00:00 +0000',
    'SQLite with sqlite-vec stores embeddings next to the text. A vector index answers nearest-neighbour queries in milliseconds.',
  ),
  post(
    '中文分词与检索',
    'Tue, 07 Apr 2026 00:00:00 +0000',
    '中文分词是全文检索的第一步。没有中文分词，倒排索引很难处理中文。',
  ),
  post(
    'Harness design',
    'Wed, 08 Apr 2026 00:00:00 +0000',
    'A planner, a generator and an evaluator split the work of a long-running agent. The evaluator grades each sprint.',
  ),
].join('\n');

async function compileAt(root: string, config?: Record<string, unknown>) {
  if (config) writeFileSync(join(root, 'kb.config.json'), JSON.stringify(config));
  const ctx = openKb(root, { embedder: new LocalEmbedder(64) });
  try {
    return await compile(ctx);
  } finally {
    closeKb(ctx);
  }
}

function sources(root: string) {
  return scanWiki(join(root, 'wiki')).entries.filter((e) => e.fm.kind === 'source');
}

/** Make a rewrite visible to the size+mtime shortcut (as a later save would). */
function touchLater(root: string, p: string) {
  const t = Date.now() / 1000 + 5;
  utimesSync(join(root, p), t, t);
}

describe('multi-post files', () => {
  it('give one source entry per post, each citing raw/file#anchor, with ids that survive edits', async () => {
    const root = fixture({ 'raw/feed.txt': FEED });
    await compileAt(root);
    let s = sources(root);
    expect(s.map((e) => e.fm.title).sort()).toEqual(['Harness design', 'Vector search in SQLite', '中文分词与检索']);
    const ids = new Map(s.map((e) => [e.fm.title, e.fm.id]));
    for (const e of s) {
      expect(e.fm.source_ref).toHaveLength(1);
      expect(e.fm.source_ref[0]).toMatch(/^raw\/feed\.txt#/);
      expect(Object.keys(e.fm.source_hashes ?? {})).toEqual(['raw/feed.txt']);
      expect(e.fm.summary).not.toContain('Notes on Example');
    }
    const validate = entryValidator(root);
    for (const e of scanWiki(join(root, 'wiki')).entries) expect(schemaErrors(validate, e.fm), e.path).toEqual([]);

    // A new post on top, one post edited, one removed: the others keep their entries.
    const edited = [
      'Notes on Example\n',
      post(
        'A brand new post',
        'Thu, 09 Apr 2026 00:00:00 +0000',
        'Backlinks are drawn by Obsidian itself. A generated section doubles every edge of the graph.',
      ),
      post(
        'Vector search in SQLite',
        'Mon, 06 Apr 2026 00:00:00 +0000',
        'SQLite with sqlite-vec stores embeddings next to the text, and FTS5 finds the words.',
      ),
      post(
        'Harness design',
        'Wed, 08 Apr 2026 00:00:00 +0000',
        'A planner, a generator and an evaluator split the work of a long-running agent. The evaluator grades each sprint.',
      ),
    ].join('\n');
    writeFile(root, 'raw/feed.txt', edited);
    touchLater(root, 'raw/feed.txt');
    const r = await compileAt(root);
    expect(r.deleted).toBe(1);
    s = sources(root);
    expect(s.map((e) => e.fm.title).sort()).toEqual(['A brand new post', 'Harness design', 'Vector search in SQLite']);
    for (const e of s) if (ids.has(e.fm.title)) expect(e.fm.id).toBe(ids.get(e.fm.title));
    expect(s.find((e) => e.fm.title === 'Vector search in SQLite')!.body).toContain('FTS5');

    // Unchanged: skipped by size and mtime, nothing rewritten.
    const again = await compileAt(root);
    expect([again.new, again.updated, again.deleted, again.unchanged]).toEqual([0, 0, 0, 1]);

    // Lint sees every post's file as compiled.
    const report = await lintKb(root, { offline: true, rules: ['uncompiled-source', 'deleted-source', 'stale-entry'] });
    expect(report.findings).toEqual([]);
  });

  it('keep their entries when the file is renamed, and lose them when it is deleted', async () => {
    const root = fixture({ 'raw/feed.txt': FEED });
    await compileAt(root);
    const before = new Map(sources(root).map((e) => [e.fm.title, e.fm.id]));
    writeFile(root, 'raw/archive/old-feed.txt', FEED);
    const { rmSync } = await import('node:fs');
    rmSync(join(root, 'raw/feed.txt'));
    const r = await compileAt(root);
    expect(r.renamed).toBe(1);
    const after = sources(root);
    expect(after).toHaveLength(3);
    for (const e of after) {
      expect(e.fm.id).toBe(before.get(e.fm.title));
      expect(e.fm.source_ref[0]).toMatch(/^raw\/archive\/old-feed\.txt#/);
    }
    rmSync(join(root, 'raw/archive/old-feed.txt'));
    await compileAt(root);
    expect(sources(root)).toHaveLength(0);
  });

  it('an article with several `# ` headings stays one entry', async () => {
    const root = fixture({
      'raw/a.md':
        '# Intro\n\nRAG retrieves passages before it answers.\n\n# Method\n\nWe embed chunks of 400 tokens.\n',
    });
    await compileAt(root);
    expect(sources(root).map((e) => [e.fm.title, e.fm.source_ref])).toEqual([['Intro', ['raw/a.md']]]);
  });
});

describe('entries for Obsidian', () => {
  it('have ISO dates and kind/topic tags, and no Backlinks section unless kb.config.json asks for one', async () => {
    const root = fixture({
      'raw/a.md':
        '# Vector stores\n\nA vector database stores embeddings. BM25 ranks passages by terms. The vector database answers RAG queries.\n',
      'raw/b.md': '# Search\n\nBM25 and a vector database are fused for RAG. The vector database holds embeddings.\n',
    });
    await compileAt(root);
    const entries = scanWiki(join(root, 'wiki')).entries;
    expect(entries.length).toBeGreaterThan(2);
    for (const e of entries) {
      expect(String(e.fm.updated)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(e.fm.last_heal_timestamp).toBe('');
      expect(e.fm.tags).toContain(`kb/${e.fm.kind}`);
      expect(read(root, `wiki/${e.path}`)).not.toContain('## Backlinks');
    }
    const linked = entries.filter((e) => e.fm.backlinks.length > 0);
    expect(linked.length).toBeGreaterThan(0);
    expect(entries.find((e) => e.fm.kind === 'source' && e.fm.tags!.some((t) => t.startsWith('topic/')))).toBeDefined();

    await compileAt(root, { wiki: { backlinksSection: true } });
    for (const e of linked) expect(read(root, `wiki/${e.path}`), e.path).toContain('## Backlinks');
    await compileAt(root, { wiki: { backlinksSection: false } });
    for (const e of linked) expect(read(root, `wiki/${e.path}`), e.path).not.toContain('## Backlinks');
  });

  it('read Unix-second dates of older entries as ISO dates, and write them so', async () => {
    const root = fixture({ 'raw/a.md': '# Alpha\n\nAlpha is a letter used in many scripts for a long time.\n' });
    await compileAt(root);
    const [e] = sources(root);
    const file = join(root, 'wiki', e!.path);
    const text = readFileSync(file, 'utf8')
      .replace(/^updated: .*$/m, 'updated: 1767225600')
      .replace(/^last_heal_timestamp: .*$/m, 'last_heal_timestamp: 1767225600');
    writeFileSync(file, text);
    const old = scanWiki(join(root, 'wiki')).entries.find((x) => x.fm.id === e!.fm.id)!;
    expect(old.fm.updated).toBe('2026-01-01');
    expect(old.fm.last_heal_timestamp).toBe('2026-01-01T00:00:00Z');
    // An old knowledge base's own schema (integers) still accepts the dates kb writes now.
    const own = JSON.parse(readFileSync(packagePath('schemas', 'wiki-entry.schema.json'), 'utf8')) as {
      properties: Record<string, unknown>;
    };
    own.properties['updated'] = { type: 'integer', minimum: 0 };
    own.properties['last_heal_timestamp'] = { type: 'integer', minimum: 0 };
    writeFile(root, 'schemas/wiki-entry.schema.json', JSON.stringify(own));
    expect(schemaErrors(entryValidator(root), old.fm)).toEqual([]);
  });
});
