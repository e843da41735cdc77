import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture, KB_BIN, listTree, mtime, read, REPO, runKb, writeFile, runKbIn } from './helpers.js';
import { cpSync } from 'node:fs';
import { scanWiki } from '../src/entry/wiki.js';
import { extractWikiLinks } from '../src/parse/links.js';
import { linkTable, resolveLink } from '../src/entry/links.js';
import { entryValidator, schemaErrors } from '../src/entry/validate.js';
import { parseEntryFile } from '../src/entry/frontmatter.js';

const DOCS: Record<string, string> = {
  'raw/rag.md': `---\ntitle: Retrieval Basics\ndate: 2026-03-14\n---\n# Retrieval Basics\n\nRetrieval-Augmented Generation (RAG) answers questions from documents. A vector database stores embeddings for RAG. BM25 ranks passages by term frequency.\n\n## Hybrid search\n\nHybrid search fuses BM25 and a vector database with Reciprocal Rank Fusion. Reciprocal Rank Fusion uses k = 60.\n`,
  'raw/notes/vectors.md': `# Vector Stores\n\nA vector database indexes embeddings with HNSW. RAG systems query the vector database first. BM25 remains a strong baseline for keyword search.\n\nReciprocal Rank Fusion merges BM25 with vector results.\n`,
  'raw/notes/zettel.txt': `Zettelkasten notes\n\nNiklas Luhmann kept about 90,000 cards in his Zettelkasten. Niklas Luhmann linked cards by address. The Zettelkasten inspired Obsidian users.\n`,
  'raw/zh/检索.md': `# 检索增强生成笔记\n\n检索增强生成（RAG）先检索再生成。向量数据库（vector database）存储嵌入。检索增强生成依赖向量数据库和 BM25。\n\n中文分词对倒排索引很重要，中文分词的质量决定检索效果。\n`,
  'raw/zh/分词.md': `# 中文分词与检索\n\n中文分词是全文检索的第一步。没有中文分词，BM25 很难处理中文。向量数据库可以补充关键词检索。\n`,
};

/** Every entry validates and every link resolves to exactly one file (Obsidian's rules). */
function checkWiki(root: string): { entries: number; links: number } {
  const wiki = join(root, 'wiki');
  const scan = scanWiki(wiki);
  const table = linkTable(scan.files);
  const validate = entryValidator(root);
  let links = 0;
  for (const e of scan.entries) {
    expect(schemaErrors(validate, e.fm), e.path).toEqual([]);
    expect(e.humanEdited, `${e.path} content_hash`).toBe(false);
    for (const l of extractWikiLinks(e.body)) {
      links++;
      expect(resolveLink(l.target, table), `${e.path} → [[${l.target}]]`).toHaveLength(1);
    }
  }
  for (const f of ['index.md']) {
    for (const l of extractWikiLinks(read(root, `wiki/${f}`)))
      expect(resolveLink(l.target, table), `${f} → [[${l.target}]]`).toHaveLength(1);
  }
  return { entries: scan.entries.length, links };
}

function entry(root: string, rel: string) {
  return parseEntryFile(read(root, `wiki/${rel}`));
}

function findEntry(
  root: string,
  pred: (fm: Record<string, unknown>) => boolean,
): { path: string; fm: Record<string, unknown>; body: string } | undefined {
  for (const e of scanWiki(join(root, 'wiki')).entries) if (pred(e.fm)) return { path: e.path, fm: e.fm, body: e.body };
  return undefined;
}

describe('kb compile (offline, end to end)', () => {
  it('compiles a fresh knowledge base into a linked, valid wiki', async () => {
    const root = fixture(DOCS);
    const r = await runKb(['compile'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/5 new, 0 updated, 0 unchanged, 0 deleted/);
    expect(r.stderr).toMatch(/No ANTHROPIC_API_KEY/);
    const files = listTree(join(root, 'wiki'));
    expect(files).toContain('index.md');
    expect(files).toContain('index.json');
    expect(files).toContain('log.md');
    expect(files.filter((f) => f.startsWith('sources/'))).toHaveLength(5);
    const concepts = files.filter((f) => f.startsWith('concepts/'));
    expect(concepts.length).toBeGreaterThanOrEqual(3);
    // Shared names across languages become one concept with aliases.
    const rag = findEntry(
      root,
      (fm) => fm['kind'] === 'concept' && ((fm['aliases'] as string[]).includes('RAG') || fm['title'] === 'RAG'),
    );
    expect(rag, concepts.join(', ')).toBeDefined();
    expect([rag!.fm['title'], ...(rag!.fm['aliases'] as string[])]).toContain('检索增强生成');
    expect((rag!.fm['source_ref'] as string[]).length).toBeGreaterThanOrEqual(3);
    expect(rag!.body).toMatch(/\[\[Retrieval Basics\]\]/);
    // Every statement in a concept cites its source; backlinks are in step with links.
    const src = findEntry(root, (fm) => fm['title'] === 'Retrieval Basics')!;
    expect(src.fm['backlinks']).toContain(rag!.fm['id']);
    // No Backlinks section in a vault by default: Obsidian draws them (wiki.backlinksSection turns it on).
    expect(src.body).not.toMatch(/<!-- kb:backlinks -->/);
    // Frontmatter dates stay strings; JSON index lists every entry.
    const index = JSON.parse(read(root, 'wiki/index.json')) as { id: string }[];
    expect(index.length).toBe(files.filter((f) => /^(sources|concepts|answers)\//.test(f)).length);
    const { entries, links } = checkWiki(root);
    expect(entries).toBeGreaterThan(7);
    expect(links).toBeGreaterThan(10);
    expect(read(root, 'wiki/log.md')).toMatch(/## \[\d{4}-\d\d-\d\d \d\d:\d\d\] compile \| 5 new/);
    expect(existsSync(join(root, 'wiki', 'embeddings.db'))).toBe(true);
  });

  it('skips unchanged files, rewrites what a change touches, removes what a deletion leaves', async () => {
    const root = fixture(DOCS);
    expect((await runKbIn(['compile'], { cwd: root })).code).toBe(0);
    const before = new Map(listTree(join(root, 'wiki')).map((f) => [f, mtime(root, `wiki/${f}`)]));

    const noop = await runKbIn(['compile', '--json'], { cwd: root });
    expect(noop.code).toBe(0);
    const rep = JSON.parse(noop.stdout) as { unchanged: number; new: number; written: number };
    expect(rep).toMatchObject({ unchanged: 5, new: 0, written: 0 });
    for (const [f, t] of before) expect(mtime(root, `wiki/${f}`), f).toBe(t);

    // Change one file: its entry gets version 2; an unrelated source is not touched.
    writeFile(
      root,
      'raw/notes/vectors.md',
      `${DOCS['raw/notes/vectors.md']}\nProduct quantization shrinks vectors in a vector database.\n`,
    );
    const ch = await runKbIn(['compile'], { cwd: root });
    expect(ch.stdout).toMatch(/0 new, 1 updated, 4 unchanged/);
    const vec = findEntry(root, (fm) => fm['title'] === 'Vector Stores')!;
    expect(vec.fm['version']).toBe(2);
    expect(vec.body).toMatch(/Product quantization/);
    const zettel = findEntry(root, (fm) => fm['title'] === 'Zettelkasten notes')!;
    expect(mtime(root, `wiki/${zettel.path}`)).toBe(before.get(zettel.path));
    checkWiki(root);

    // Delete: the source entry goes, and concepts left with one source go, with no dangling link.
    rmSync(join(root, 'raw/zh/分词.md'));
    const del = await runKbIn(['compile'], { cwd: root });
    expect(del.stdout).toMatch(/1 deleted/);
    expect(findEntry(root, (fm) => fm['title'] === '中文分词与检索')).toBeUndefined();
    expect(findEntry(root, (fm) => fm['kind'] === 'concept' && fm['title'] === '中文分词')).toBeUndefined();
    const rag = findEntry(root, (fm) => fm['kind'] === 'concept' && (fm['aliases'] as string[]).includes('RAG'))!;
    expect(rag.fm['source_ref']).not.toContain('raw/zh/分词.md');
    checkWiki(root);
  });

  it('keeps the entry id when a raw file is renamed or moved', async () => {
    const root = fixture(DOCS);
    await runKbIn(['compile'], { cwd: root });
    const before = findEntry(root, (fm) => fm['title'] === 'Zettelkasten notes')!;
    renameSync(join(root, 'raw/notes/zettel.txt'), join(root, 'raw/zettelkasten-notes.txt'));
    const r = await runKbIn(['compile'], { cwd: root });
    expect(r.stdout).toMatch(/1 renamed/);
    const after = findEntry(root, (fm) => fm['title'] === 'Zettelkasten notes')!;
    expect(after.fm['id']).toBe(before.fm['id']);
    expect(after.fm['source_ref']).toEqual(['raw/zettelkasten-notes.txt']);
    checkWiki(root);
  });

  it('never overwrites an entry a person edited', async () => {
    const root = fixture(DOCS);
    await runKbIn(['compile'], { cwd: root });
    const e = findEntry(root, (fm) => fm['title'] === 'Vector Stores')!;
    const edited = `${read(root, `wiki/${e.path}`)}\nMy own note: check pgvector too.\n`;
    writeFileSync(join(root, 'wiki', e.path), edited);
    writeFile(
      root,
      'raw/notes/vectors.md',
      `${DOCS['raw/notes/vectors.md']}\nA new sentence about the vector database.\n`,
    );
    const r = await runKbIn(['compile'], { cwd: root });
    expect(r.code).toBe(0);
    expect(read(root, `wiki/${e.path}`)).toBe(edited);
    expect(r.stderr).toMatch(new RegExp(`wiki/${e.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*edit`));
    expect(r.stdout).toMatch(/1 edited by you left alone/);
  });

  it('reports each bad input in one line and compiles the rest', async () => {
    const root = fixture({
      ...DOCS,
      'raw/empty.md': '',
      'raw/junk.md': Buffer.from([0x00, 0x01, 0x02, 0xff, 0x00, 0x10, 0x00, 0x00]),
      'raw/latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6e, 0x6f, 0x69, 0x72]),
      'raw/broken.md':
        '---\ntitle: [unclosed\n---\n# Broken frontmatter\n\nThe body of a note whose frontmatter does not parse is still compiled.\n',
      'raw/big.md': `# Big\n\n${'word '.repeat(3000)}`,
      'kb.config.json': JSON.stringify({ ingest: { maxFileBytes: 8000 } }),
    });
    symlinkSync(join(root, 'raw'), join(root, 'raw', 'loop'));
    const r = await runKb(['compile'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n');
    for (const [file, rule] of [
      ['raw/empty.md', 'ingest-empty'],
      ['raw/junk.md', 'ingest-binary'],
      ['raw/latin1.txt', 'ingest-encoding'],
      ['raw/broken.md', 'ingest-frontmatter'],
      ['raw/big.md', 'ingest-too-large'],
      ['raw/loop', 'ingest-symlink-loop'],
    ] as const) {
      expect(
        lines.filter((l) => l.startsWith(file) && l.includes(`[${rule}]`)),
        `${file} ${rule}\n${r.stderr}`,
      ).toHaveLength(1);
    }
    expect(findEntry(root, (fm) => fm['title'] === 'Broken frontmatter')).toBeDefined();
    expect(r.stdout).toMatch(/6 new/);
    checkWiki(root);
    const strict = await runKb(['compile', '--strict', '--force'], { cwd: root });
    expect(strict.code).toBe(1);
  });

  it('finishes the job after being killed mid-compile', async () => {
    const files: Record<string, string> = { ...DOCS };
    for (let i = 0; i < 120; i++)
      files[`raw/bulk/doc-${i}.md`] =
        `# Bulk note ${i}\n\nBM25 and the vector database appear in note ${i}. Reciprocal Rank Fusion combines them. ${'Filler sentence about retrieval. '.repeat(40)}\n`;
    const root = fixture(files);
    const child = spawn(process.execPath, [KB_BIN, 'compile'], {
      cwd: root,
      env: { ...process.env, ANTHROPIC_API_KEY: '' },
    });
    const closed = new Promise((r) => child.on('close', r));
    // Kill it as soon as it has started writing (the store exists), whatever the machine's speed.
    for (let i = 0; i < 600 && !existsSync(join(root, 'wiki', 'embeddings.db')); i++)
      await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGKILL');
    await closed;
    const again = await runKb(['compile'], { cwd: root });
    expect(again.code, again.stderr).toBe(0);
    expect(readdirSync(join(root, 'wiki', 'sources')).filter((f) => f.endsWith('.md'))).toHaveLength(125);
    expect(listTree(join(root, 'wiki')).some((f) => f.endsWith('.tmp'))).toBe(false);
    checkWiki(root);
    const third = await runKbIn(['compile', '--json'], { cwd: root });
    expect(JSON.parse(third.stdout)).toMatchObject({ unchanged: 125, written: 0 });
  });

  it('lets one writer in at a time and names the holder', async () => {
    const root = fixture(DOCS);
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
    writeFile(
      root,
      '.kb/lock',
      JSON.stringify({ pid: holder.pid, host: (await import('node:os')).hostname(), command: 'watch', started: 1 }),
    );
    const r = await runKb(['compile'], { cwd: root });
    holder.kill();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`pid ${holder.pid}`));
    // A lock left by a dead process is taken over.
    writeFile(
      root,
      '.kb/lock',
      JSON.stringify({ pid: 999999, host: (await import('node:os')).hostname(), command: 'compile', started: 1 }),
    );
    expect((await runKb(['compile'], { cwd: root })).code).toBe(0);
  });

  it('prints help, and exits 2 on a usage error', async () => {
    const root = fixture(DOCS);
    const help = await runKb(['compile', '--help'], { cwd: root });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--force/);
    const bad = await runKb(['compile', '--no-such-flag'], { cwd: root });
    expect(bad.code).toBe(2);
    const nowhere = await runKb(['compile'], { cwd: '/' });
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toMatch(/kb init/);
  });

  it('compiles Chinese documents: titles, file names, summaries and concepts', async () => {
    const root = fixture(DOCS);
    await runKbIn(['compile'], { cwd: root });
    expect(existsSync(join(root, 'wiki', 'sources', '检索增强生成笔记.md'))).toBe(true);
    const zh = entry(root, 'sources/检索增强生成笔记.md');
    expect(String(zh.data['summary'])).toMatch(/检索增强生成/);
    expect(readFileSync(join(root, 'wiki', 'index.md'), 'utf8')).toMatch(/\[\[检索增强生成笔记\]\]/);
    const seg = findEntry(root, (fm) => fm['kind'] === 'concept' && fm['title'] === '中文分词');
    expect(seg).toBeDefined();
  });

  it('compiles the shipped sample raw/ into a wiki where every entry validates and every link resolves', async () => {
    const root = fixture();
    cpSync(join(REPO, 'raw'), join(root, 'raw'), { recursive: true });
    const r = await runKbIn(['compile', '--json'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    const rep = JSON.parse(r.stdout) as { new: number; skipped: number; messages: unknown[] };
    expect(rep.new).toBeGreaterThanOrEqual(15);
    expect(rep.skipped).toBe(0);
    expect(rep.messages).toEqual([]);
    const { entries, links } = checkWiki(root);
    expect(entries).toBeGreaterThan(30);
    expect(links).toBeGreaterThan(100);
    // The image gets an entry of its own and is embedded from the note that shows it.
    expect(existsSync(join(root, 'wiki', 'attachments', 'rag-pipeline.png'))).toBe(true);
    const sketch = findEntry(
      root,
      (fm) => fm['kind'] === 'source' && (fm['source_ref'] as string[]).includes('raw/notes/rag-pipeline-sketch.md'),
    )!;
    expect(sketch.body).toMatch(/!\[\[rag-pipeline\.png\]\]/);
    expect(
      findEntry(root, (fm) => (fm['source_ref'] as string[]).includes('raw/images/rag-pipeline.png')),
    ).toBeDefined();
    // Chinese and English names of one concept meet in one entry.
    const rag = findEntry(root, (fm) => fm['kind'] === 'concept' && (fm['aliases'] as string[]).includes('RAG'))!;
    expect([rag.fm['title'], ...(rag.fm['aliases'] as string[])]).toContain('检索增强生成');
    expect((rag.fm['source_ref'] as string[]).some((p) => p.startsWith('raw/zh/'))).toBe(true);
    expect((rag.fm['source_ref'] as string[]).some((p) => p.startsWith('raw/articles/'))).toBe(true);
  });
});
