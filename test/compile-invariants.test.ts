/**
 * Compile invariants, through the real CLI: whatever path led to the current wiki (compiler
 * switch, template edit, fallback then recovery, an interrupted run, an embedder change, an edit
 * plus a deletion), the wiki afterwards has every source entry and the same concepts as a clean
 * compile of the same raw/, no broken link, and a sound store.
 *
 * Raw files are AGED (modification time an hour before the compile): unchanged files are then
 * recognised by size and time without being read, the shortcut every path here must survive.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { startFakeAnthropic, type FakeAnthropic, type FakeHandler, type FakeReply } from './fake-anthropic.js';
import { faithfulClaude } from './model-fixtures.js';
import { KB_BIN, REPO, fixture, listTree, read, runKb, runKbIn, writeFile } from './helpers.js';
import { parseEntryFile } from '../src/entry/frontmatter.js';
import { extractWikiLinks } from '../src/parse/links.js';
import { entityKey } from '../src/entry/names.js';

/** Fifteen of the repository's sample documents: Markdown, HTML, text, code, a link, an image; English and Chinese. */
const SAMPLE = [
  'articles/retrieval-augmented-generation-primer.md',
  'articles/bm25-and-full-text-search.md',
  'articles/chunking-for-rag.html',
  'articles/embeddings-and-vector-databases.md',
  'clips/SQLite FTS5 Extension.url',
  'clips/Hybrid Search with Reciprocal Rank Fusion.md',
  'notes/reading-log.txt',
  'notes/zettelkasten.md',
  'notes/sqlite-fts5-and-sqlite-vec.md',
  'code/bm25.py',
  'images/rag-pipeline.png',
  'zh/中文分词与全文检索.md',
  'zh/卡片盒笔记法.md',
  'zh/读书笔记.txt',
  'zh/混合检索与倒数排名融合.md',
];

function sampleKb(): string {
  const root = mkdtempSync(join(tmpdir(), 'kb-inv-'));
  for (const f of SAMPLE) cpSync(join(REPO, 'raw', f), join(root, 'raw', f));
  return root;
}

/** Set every raw file's modification time an hour back: older than any compile by far more than the racy window. */
function age(root: string): void {
  const past = (Date.now() - 3600_000) / 1000;
  for (const f of listTree(join(root, 'raw'))) utimesSync(join(root, 'raw', f), past, past);
}

/**
 * The CLI in process, documents prepared on the main thread (KB_THREADS=0): the OCR engine of the
 * sample image is then loaded once for the file, not in a new thread for every compile. The
 * reference compile and the interrupted ones run as real processes, with their threads.
 */
function runIn(args: string[], opts: { cwd: string; env?: Record<string, string> }) {
  return runKbIn(args, { ...opts, env: { KB_THREADS: '0', ...opts.env } });
}

function keyEnv(url: string): Record<string, string> {
  return { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: url };
}

interface Snapshot {
  /** raw/ paths that have a source entry. */
  sources: string[];
  /** The concept entries, each as the keys of its names (title and aliases). */
  concepts: { title: string; keys: string[] }[];
}

function entries(root: string): { path: string; fm: Record<string, unknown>; body: string; text: string }[] {
  const wiki = join(root, 'wiki');
  return listTree(wiki)
    .filter((f) => /^(sources|concepts|answers)\/.*\.md$/.test(f))
    .map((f) => {
      const text = readFileSync(join(wiki, f), 'utf8');
      const { data, body } = parseEntryFile(text);
      return { path: f, fm: data, body, text };
    });
}

function snapshot(root: string): Snapshot {
  const all = entries(root);
  return {
    sources: all
      .filter((e) => e.fm['kind'] === 'source')
      .flatMap((e) => e.fm['source_ref'] as string[])
      .sort(),
    concepts: all
      .filter((e) => e.fm['kind'] === 'concept')
      .map((e) => ({
        title: e.fm['title'] as string,
        keys: [e.fm['title'] as string, ...((e.fm['aliases'] as string[]) ?? [])].map(entityKey),
      }))
      .sort((a, b) => a.title.localeCompare(b.title)),
  };
}

/**
 * Concepts of a clean compile with no concept here, and the reverse. A concept is matched by any of
 * its names: an existing concept entry keeps its title across compiles (so links to it survive),
 * which may be another name of the same concept than a clean compile would choose.
 */
function unmatchedConcepts(s: Snapshot, clean: Snapshot): { missing: string[]; extra: string[] } {
  const match = (a: Snapshot['concepts'][number], list: Snapshot['concepts']) =>
    list.some((b) => b.keys.some((k) => a.keys.includes(k)));
  return {
    missing: clean.concepts.filter((c) => !match(c, s.concepts)).map((c) => c.title),
    extra: s.concepts.filter((c) => !match(c, clean.concepts)).map((c) => c.title),
  };
}

/** Every `[[link]]` in the vault that names no file, resolved as Obsidian does (base name or path, any case). */
function brokenLinks(root: string): string[] {
  const wiki = join(root, 'wiki');
  const files = listTree(wiki).filter((f) => !f.endsWith('.db') && !/\.db-(wal|shm)$/.test(f));
  const names = new Set<string>();
  for (const f of files) {
    const noExt = f.endsWith('.md') ? f.slice(0, -3) : f;
    names.add(noExt.toLowerCase());
    names.add(noExt.split('/').pop()!.toLowerCase());
  }
  const out: string[] = [];
  for (const f of files.filter((x) => x.endsWith('.md'))) {
    const text = readFileSync(join(wiki, f), 'utf8');
    for (const l of extractWikiLinks(text)) {
      if (!l.target) continue;
      if (!names.has(l.target.normalize('NFC').toLowerCase())) out.push(`wiki/${f}: [[${l.target}]]`);
    }
  }
  return out;
}

function integrity(root: string): string {
  const db = new Database(join(root, 'wiki', 'embeddings.db'), { readonly: true });
  try {
    sqliteVec.load(db);
    return (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

describe('an upgraded offline compiler', () => {
  it('compiles again the documents an older one compiled, and only once', async () => {
    const root = fixture({
      'raw/a.md': '# Alpha notes\n\nAlpha is a retrieval method that uses BM25 and embeddings together.\n',
      'raw/b.md': '# Beta notes\n\nBeta compares BM25 with embeddings for Chinese text.\n',
    });
    age(root);
    const first = await runIn(['compile'], { cwd: root });
    expect(first.code, first.stderr).toBe(0);
    const chunksOf = (path: string) =>
      storeRows<{ id: number; text: string; v: number }>(
        root,
        `SELECT c.id, c.text, (SELECT count(*) FROM vec_chunks v WHERE v.rowid = c.id) AS v FROM chunks c WHERE c.raw_path = '${path}' ORDER BY c.id`,
      );
    const before = chunksOf('a.md');
    expect(before.length).toBeGreaterThan(0);
    // What an older kb left behind: raw/a.md compiled by an earlier offline compiler.
    const db = new Database(join(root, 'wiki', 'embeddings.db'));
    sqliteVec.load(db);
    db.prepare(`UPDATE documents SET compiler = 'offline-v0' WHERE raw_path IN ('raw/a.md', 'a.md')`).run();
    db.close();
    const r = await runIn(['compile'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^0 new, 1 updated, 1 unchanged/m);
    // The same bytes: its chunks and their vectors are kept as they were (the same rows), not made again.
    expect(chunksOf('a.md')).toEqual(before);
    expect(before.every((c) => c.v === 1)).toBe(true);
    const again = await runIn(['compile'], { cwd: root });
    expect(again.stdout).toMatch(/^0 new, 0 updated, 2 unchanged/m);
  });
});

function storeRows<T>(root: string, sql: string): T[] {
  const db = new Database(join(root, 'wiki', 'embeddings.db'), { readonly: true });
  try {
    sqliteVec.load(db);
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

/** The invariants every compile must leave behind. */
function expectInvariants(root: string, clean: Snapshot): void {
  const s = snapshot(root);
  expect(s.sources, 'every raw document has its source entry').toEqual(clean.sources);
  expect(s.concepts.length, 'as many concepts as a clean compile').toBe(clean.concepts.length);
  expect(unmatchedConcepts(s, clean), 'the same concepts as a clean compile').toEqual({ missing: [], extra: [] });
  expect(brokenLinks(root), 'no broken links').toEqual([]);
  expect(integrity(root)).toBe('ok');
  // No document the store calls skipped while its file has content.
  const skipped = storeRows<{ raw_path: string; error: string | null }>(
    root,
    `SELECT raw_path, error FROM documents WHERE status != 'ok'`,
  );
  expect(
    skipped.filter((d) => statSync(join(root, 'raw', d.raw_path)).size > 0 && /ingest-empty/.test(d.error ?? '')),
  ).toEqual([]);
  expect(skipped.map((d) => d.raw_path)).toEqual([]);
}

/** Run the CLI; when `until` settles, send `signal`. */
function runUntil(
  args: string[],
  opts: { cwd: string; env: Record<string, string>; until: Promise<unknown>; signal: NodeJS.Signals },
): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    NO_COLOR: '1',
    ANTHROPIC_API_KEY: undefined,
    ...opts.env,
  };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [KB_BIN, ...args], {
      cwd: opts.cwd,
      env: env as NodeJS.ProcessEnv,
    });
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    void opts.until.then(() => child.kill(opts.signal));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout!.resume();
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

const fakes: FakeAnthropic[] = [];
async function fake(handler: FakeHandler): Promise<FakeAnthropic> {
  const f = await startFakeAnthropic(handler);
  fakes.push(f);
  return f;
}

afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

describe('compile invariants (aged raw files)', () => {
  let cleanModel: Snapshot;
  /** The sample, aged and compiled with the model: the reference, and the start of the tests that begin with that compile. */
  let compiled: string;
  /** A copy of the compiled sample, file times and all. */
  const compiledCopy = (): string => {
    const root = mkdtempSync(join(tmpdir(), 'kb-inv-'));
    cpSync(compiled, root, { recursive: true, preserveTimestamps: true });
    return root;
  };

  beforeAll(async () => {
    const m = sampleKb();
    age(m);
    const f = await fake(faithfulClaude);
    // A real process: the compile every copy starts from ends as the CLI's does, every database closed.
    const r = await runKb(['compile'], { cwd: m, env: keyEnv(f.url) });
    expect(r.code, r.stderr).toBe(0);
    cleanModel = snapshot(m);
    // A sanity check of the reference itself.
    expect(cleanModel.sources.length).toBe(SAMPLE.length);
    expect(cleanModel.concepts.length).toBeGreaterThan(5);
    expect(brokenLinks(m)).toEqual([]);
    compiled = m;
  });

  it('offline compile, then one with a key: every source recompiled by the model, none emptied', async () => {
    const root = sampleKb();
    age(root);
    const off = await runIn(['compile'], { cwd: root });
    expect(off.code, off.stderr).toBe(0);
    const f = await fake(faithfulClaude);
    const r = await runIn(['compile'], { cwd: root, env: keyEnv(f.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^0 new, 15 updated, 0 unchanged, 0 deleted, 0 skipped/m);
    expectInvariants(root, cleanModel);
  });

  it('a template edit between compiles recompiles every source from its real text', async () => {
    // The first compile, with the model, of the aged sample: the one of beforeAll, copied.
    const root = compiledCopy();
    const f = await fake(faithfulClaude);
    const tpl = readFileSync(join(REPO, 'templates', 'compile-source.md'), 'utf8');
    writeFile(
      root,
      'templates/compile-source.md',
      tpl.replace('Rules for the content:', 'Rules for the content (keep it short):'),
    );
    const r = await runIn(['compile'], { cwd: root, env: keyEnv(f.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^0 new, 15 updated, 0 unchanged, 0 deleted, 0 skipped/m);
    expectInvariants(root, cleanModel);
    // The model saw each document's real text again, not an empty one.
    const prompts = f
      .messages()
      .slice(-20)
      .map((m) => JSON.stringify(m.body.messages));
    expect(
      prompts.some((p) => p.includes('Rules for the content (keep it short)') || p.includes('<source path=')),
    ).toBe(true);
    for (const p of prompts.filter((x) => x.includes('<source path=')))
      expect(p).not.toMatch(/<source [^>]*>\\n\\n<\/source>/);
  });

  it('a compile whose model calls fell back on 529, then a healthy one', async () => {
    const root = sampleKb();
    age(root);
    let healthy = false;
    const f = await fake((req) =>
      healthy ? faithfulClaude(req) : { status: 529, headers: { 'retry-after-ms': '1' } },
    );
    const sick = await runIn(['compile'], { cwd: root, env: keyEnv(f.url) });
    expect(sick.code, sick.stderr).toBe(0);
    expect(sick.stderr).toMatch(/model-unavailable/);
    healthy = true;
    const r = await runIn(['compile'], { cwd: root, env: keyEnv(f.url) });
    expect(r.code, r.stderr).toBe(0);
    expectInvariants(root, cleanModel);
    expect(r.stdout).toMatch(/ 0 skipped/);
  });

  it('a hand edit, then a deletion: the edited entry keeps its text and no link breaks', async () => {
    // The first compile, with the model, of the aged sample: the one of beforeAll, copied.
    const root = compiledCopy();
    const f = await fake(faithfulClaude);
    // The concept of fewest sources (two, where there is one of two): edit one source's entry,
    // delete another's raw file (a concept of two goes).
    const concept = entries(root)
      .filter((e) => e.fm['kind'] === 'concept' && (e.fm['source_ref'] as string[]).length >= 2)
      .sort((a, b) => (a.fm['source_ref'] as string[]).length - (b.fm['source_ref'] as string[]).length)[0]!;
    expect(concept).toBeDefined();
    const [keepRef, goneRef] = concept.fm['source_ref'] as string[];
    const edited = entries(root).find(
      (e) => e.fm['kind'] === 'source' && (e.fm['source_ref'] as string[])[0] === keepRef,
    )!;
    const text = edited.text.replace(
      '\n## Source\n',
      '\nA line of my own with a hard break  \nand more.\n\n## Source\n',
    );
    writeFile(root, `wiki/${edited.path}`, text);
    rmSync(join(root, goneRef!));

    const r = await runIn(['compile'], { cwd: root, env: keyEnv(f.url) });
    expect(r.code, r.stderr).toBe(0);
    const clean = sampleKb();
    rmSync(join(clean, goneRef!));
    const c = await runIn(['compile'], { cwd: clean, env: keyEnv(f.url) });
    expect(c.code, c.stderr).toBe(0);
    expectInvariants(root, snapshot(clean));
    const after = read(root, `wiki/${edited.path}`);
    expect(personText(after)).toBe(personText(text));
    // The concept goes with its second source unless the source left stresses it (gives it with its
    // translation: it keeps its page, and its title): the entry links it exactly while it has a page.
    const link = `[[${concept.fm['title']}]]`;
    const still = entries(root).some((e) => e.fm['kind'] === 'concept' && e.fm['title'] === concept.fm['title']);
    expect(after.includes(link)).toBe(still);
  });

  it('an embedder change: the next compile embeds every passage and entry again, without the model', async () => {
    // The first compile, with the model, of the aged sample: the one of beforeAll, copied.
    const root = compiledCopy();
    const f = await fake(faithfulClaude);
    const calls = f.messages().length;
    writeFile(root, 'kb.config.json', JSON.stringify({ embedding: { dims: 256 } }));
    // Search before the compile: it must not leave the store without its mark.
    const before = await runIn(['search', 'hybrid search'], { cwd: root });
    expect(before.stderr).toMatch(/search uses keywords only until `kb compile`/);
    const r = await runIn(['compile'], { cwd: root, env: keyEnv(f.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(f.messages()).toHaveLength(calls);
    expect(r.stderr.match(/\[vectors-rebuilt\]/g)).toHaveLength(1);
    const n = (sql: string) => storeRows<{ n: number }>(root, sql)[0]!.n;
    expect(n(`SELECT count(*) n FROM chunks`)).toBeGreaterThan(SAMPLE.length);
    expect(n(`SELECT count(*) n FROM vec_chunks`)).toBe(n(`SELECT count(*) n FROM chunks`));
    expect(n(`SELECT count(*) n FROM vec_entries`)).toBe(n(`SELECT count(*) n FROM entries`));
    expect(n(`SELECT vec_length(embedding) n FROM vec_chunks LIMIT 1`)).toBe(256);
    const search = await runIn(['search', '--json', 'merging ranked lists from keyword and vector search'], {
      cwd: root,
    });
    const found = JSON.parse(search.stdout) as { entries: { via: string[] }[] };
    expect(found.entries.some((e) => e.via.includes('vector'))).toBe(true);
    const again = await runIn(['compile'], { cwd: root, env: keyEnv(f.url) });
    expect(again.stderr).not.toMatch(/vectors-rebuilt/);
    expectInvariants(root, cleanModel);
  });

  // How the run ends (kill -9: no handler runs; Ctrl-C: the handler's cleanup) and how the resume
  // judges the files (aged: their times trusted; fresh: read and hashed again) do not depend on each
  // other: each of the two of each is run once, not all four pairs.
  for (const [signal, aged] of [
    ['SIGKILL', true],
    ['SIGINT', false],
  ] as const) {
    it(`${signal === 'SIGKILL' ? 'kill -9' : 'Ctrl-C'} while documents are pending (${aged ? 'aged' : 'fresh'} file times), then resume`, async () => {
      const root = sampleKb();
      if (aged) age(root);
      let hang = true;
      let seen!: () => void;
      const conceptAsked = new Promise<void>((ok) => (seen = ok));
      // Concept calls come after every document is stored as pending: hold them until the signal.
      const f = await fake((req) => {
        if (hang && JSON.stringify(req.body.messages).includes('<concept title=')) {
          seen();
          return new Promise<FakeReply>(() => {});
        }
        return faithfulClaude(req);
      });
      const cut = await runUntil(['compile'], { cwd: root, env: keyEnv(f.url), until: conceptAsked, signal });
      if (signal === 'SIGKILL') expect(cut.signal).toBe('SIGKILL');
      else expect(cut.code, cut.stderr).toBe(130);
      const pending = storeRows<{ n: number }>(root, `SELECT count(*) n FROM documents WHERE status = 'pending'`)[0]!.n;
      expect(pending).toBe(SAMPLE.length);
      // The source entries' summary vectors, made while ingesting, wait with their drafts.
      const ahead = () => storeRows<{ n: number }>(root, `SELECT count(*) n FROM pending_vectors`)[0]!.n;
      expect(ahead()).toBeGreaterThan(0);
      hang = false;
      const r = await runIn(['compile'], { cwd: root, env: keyEnv(f.url) });
      expect(r.code, r.stderr).toBe(0);
      expectInvariants(root, cleanModel);
      expect(ahead()).toBe(0);
    });
  }
});

describe('a file recorded as empty by mistake', () => {
  it('is reported by lint and compiled again by the next compile', async () => {
    const root = fixture({
      'raw/a.md': '# Alpha notes\n\nAlpha is a retrieval method that uses BM25 and embeddings together.\n',
      'raw/b.md': '# Beta notes\n\nBeta compares BM25 with embeddings for Chinese text.\n',
      'raw/blank.md': '   \n\n',
    });
    age(root);
    const first = await runIn(['compile'], { cwd: root });
    expect(first.code, first.stderr).toBe(0);
    expect(existsSync(join(root, 'wiki/sources/Alpha notes.md'))).toBe(true);
    // What a compile before the fix left behind: raw/a.md recorded as empty, its entry gone.
    const db = new Database(join(root, 'wiki', 'embeddings.db'));
    sqliteVec.load(db);
    db.prepare(
      `UPDATE documents SET status = 'skipped', error = ? WHERE raw_path = 'raw/a.md' OR raw_path = 'a.md'`,
    ).run('ingest-empty\tUnexpected empty Markdown file, expected some text');
    db.close();
    rmSync(join(root, 'wiki/sources/Alpha notes.md'));

    const lint = await runIn(['lint', '--json'], { cwd: root });
    const findings = (JSON.parse(lint.stdout) as { findings: { ruleId: string; file: string; reason: string }[] })
      .findings;
    const uncompiled = findings.filter((f) => f.ruleId === 'uncompiled-source');
    expect(uncompiled.map((f) => f.file)).toEqual(['raw/a.md']);
    expect(uncompiled[0]!.reason).toMatch(/recorded as empty although it has text/);

    const r = await runIn(['compile'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^1 new, 0 updated, 1 unchanged, 0 deleted, 1 skipped/m);
    expect(read(root, 'wiki/sources/Alpha notes.md')).toContain('Alpha is a retrieval method');
    // A file that really is blank stays skipped, without a compile each time.
    const again = await runIn(['compile'], { cwd: root });
    expect(again.stdout).toMatch(/^0 new, 0 updated, 2 unchanged, 0 deleted, 1 skipped/m);
  });
});

/** An entry's text without kb's marked sections: what belongs to the person who edited it. */
function personText(text: string): string {
  return text
    .split('\n---\n')
    .slice(1)
    .join('\n---\n')
    .replace(/<!-- kb:(\w+) -->[\s\S]*?<!-- \/kb:\1 -->/g, '<kb section>');
}

describe('an entry a person edited, then a deletion', () => {
  it("merges kb's changes into the lines the person did not touch, keeps theirs byte for byte, and reports the links they wrote that broke", async () => {
    const root = fixture({
      // The Backlinks section is off by default in a vault; this knowledge base turns it on.
      'kb.config.json': JSON.stringify({ wiki: { backlinksSection: true } }),
      'raw/a.md':
        '# Alpha notes\n\nBM25 ranks documents by term overlap. Alpha uses BM25 for keyword search over notes. BM25 is fast.\n',
      'raw/b.md':
        '# Beta notes\n\nBM25 is a ranking function. The Zettelkasten method links notes. Beta keeps a Zettelkasten with BM25 search. A Zettelkasten grows slowly.\n',
      'raw/c.md':
        '# Gamma notes\n\nThe Zettelkasten of Niklas Luhmann had 90,000 cards. Gamma compares the Zettelkasten with BM25 ranking. Every Zettelkasten needs links.\n',
    });
    age(root);
    const first = await runIn(['compile'], { cwd: root });
    expect(first.code, first.stderr).toBe(0);
    const beta = 'wiki/sources/Beta notes.md';
    const kbText = read(root, beta);
    expect(kbText).toMatch(
      // Those it mentions most first: Zettelkasten three times, BM25 twice.
      /<!-- kb:concepts -->\n## Concepts\n\n- \[\[Zettelkasten\]\]\n- \[\[BM25\]\]\n<!-- \/kb:concepts -->/,
    );
    expect(kbText).toMatch(/<!-- kb:backlinks -->[\s\S]*\[\[Zettelkasten\]\][\s\S]*<!-- \/kb:backlinks -->/);
    // A person adds lines of their own: a link, and Markdown hard breaks (trailing spaces).
    const edited = kbText.replace(
      '\n## Source\n',
      '\nMy own note, see [[Gamma notes]].  \nSecond line with a hard break  \n\n## Source\n',
    );
    writeFile(root, beta, edited);

    rmSync(join(root, 'raw/c.md'));
    const r = await runIn(['compile'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/0 new, 0 updated, 2 unchanged, 1 deleted.*concepts 0 new, \d+ updated, 1 removed/);
    const after = read(root, beta);
    // kb's line loses its link to the concept that is gone (a three-way merge: kb's change, in a
    // line the person left as kb wrote it); the person's lines are theirs byte for byte.
    expect(personText(after)).toBe(
      personText(edited).replace('The [[Zettelkasten]] method', 'The Zettelkasten method'),
    );
    expect(after).toContain('My own note, see [[Gamma notes]].  \nSecond line with a hard break  \n');
    // kb's sections no longer name the concept and the source that are gone.
    expect(after).toMatch(/<!-- kb:concepts -->\n## Concepts\n\n- \[\[BM25\]\]\n<!-- \/kb:concepts -->/);
    expect(after).not.toMatch(/<!-- kb:backlinks -->[\s\S]*Zettelkasten[\s\S]*<!-- \/kb:backlinks -->/);
    expect(after).toMatch(/backlinks:\n {2}- concept\/bm25\n/);
    // Still the person's: not rewritten, not claimed as kb's.
    expect(after).toContain(`content_hash: ${/content_hash: (\w+)/.exec(kbText)![1]}`);
    // Compile says what it left broken in their text: the link they wrote (kb's own went with the merge).
    expect(r.stderr).toMatch(
      /wiki\/sources\/Beta notes\.md: warning Unexpected link to \[\[Gamma notes\]\], which this compile removed or renamed.*left as you wrote it/,
    );
    expect(r.stderr).toMatch(/kb's update merged into your edited entry/);

    const lint = await runIn(['lint', '--json'], { cwd: root });
    const findings = (
      JSON.parse(lint.stdout) as {
        findings: { ruleId: string; file: string; note?: string; data?: { target?: string } }[];
      }
    ).findings;
    const broken = findings.filter((f) => f.ruleId === 'broken-link');
    expect(broken.map((f) => `${f.file} ${f.data?.target}`)).toEqual([`${beta} Gamma notes`]);
    expect(broken[0]!.note).toMatch(/a person edited this entry, so compile leaves its text alone/);
    expect(broken[0]!.note).not.toMatch(/kb compile/);
    expect(findings.filter((f) => f.ruleId === 'missing-backlink')).toEqual([]);

    // A further compile has nothing to say and leaves the file as it is.
    writeFile(root, 'raw/d.md', '# Delta notes\n\nDelta is about something else entirely, with no shared names.\n');
    const again = await runIn(['compile'], { cwd: root });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/\]\], which this compile/);
    expect(read(root, beta)).toBe(after);
    expect(brokenLinks(root)).toEqual([`${beta}: [[Gamma notes]]`]);
  });
});

describe('generated files a person deleted', () => {
  it('a compile with nothing else to do writes index.md, index.json and log.md again', async () => {
    const root = fixture({
      'raw/a.md':
        '# Alpha notes\n\nBM25 ranks documents by term overlap. Alpha uses BM25 for keyword search. BM25 is fast.\n',
      'raw/b.md': '# Beta notes\n\nBM25 is a ranking function. Beta keeps notes with BM25 search.\n',
    });
    const first = await runIn(['compile'], { cwd: root });
    expect(first.code, first.stderr).toBe(0);
    const index = read(root, 'wiki/index.md');
    const json = read(root, 'wiki/index.json');
    for (const f of ['index.md', 'index.json', 'log.md']) rmSync(join(root, 'wiki', f));
    const r = await runIn(['compile'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^0 new, 0 updated, 2 unchanged, 0 deleted/m);
    expect(read(root, 'wiki/index.md')).toBe(index);
    expect(read(root, 'wiki/index.json')).toBe(json);
    expect(read(root, 'wiki/log.md')).toMatch(/^# Log\n[\s\S]*log\.md was missing; started again/);
    expect(r.stderr).toMatch(/wiki\/index\.md: info Unexpected missing generated file.*written again \[restored\]/);
    expect(r.stderr).toMatch(/wiki\/log\.md: info Unexpected missing log/);
    // Present again: the next compile does not touch them.
    const stamp = statSync(join(root, 'wiki/index.md')).mtimeMs;
    const again = await runIn(['compile'], { cwd: root });
    expect(again.stderr).not.toMatch(/restored/);
    expect(statSync(join(root, 'wiki/index.md')).mtimeMs).toBe(stamp);
  });
});

describe('file names in NFC and NFD', () => {
  const nfd = (s: string) => s.normalize('NFD');
  const versions = (root: string) => Object.fromEntries(entries(root).map((e) => [e.path, e.fm['version']]));

  it('a name spelled in NFD (as macOS writes it) compiles, stays stable, and is read again when its entry must be redone', async () => {
    expect(nfd('café')).not.toBe('café');
    expect(nfd('한글')).not.toBe('한글');
    const root = fixture({
      [`raw/${nfd('café')}.md`]:
        '# Café notes\n\nBM25 ranks documents. The Zettelkasten keeps cards. A Zettelkasten grows; BM25 is fast.\n',
      [`raw/${nfd('한글')} 노트.md`]:
        '# 한글 노트\n\nBM25 는 검색 순위 함수입니다. BM25 is used here too, with a Zettelkasten.\n',
      'raw/b.md':
        '# Beta notes\n\nThe Zettelkasten method links notes. Beta keeps a Zettelkasten. A Zettelkasten grows slowly.\n',
      [`raw/${nfd('schéma')}.png`]: readFileSync(join(REPO, 'raw/images/rag-pipeline.png')),
    });
    age(root);
    const first = await runIn(['compile'], { cwd: root });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^4 new/m);
    const refs = snapshot(root).sources;
    expect(refs).toEqual(['raw/b.md', 'raw/café.md', 'raw/schéma.png', 'raw/한글 노트.md'].sort());
    expect(existsSync(join(root, 'wiki/attachments/schéma.png'))).toBe(true);
    const v1 = versions(root);
    const again = await runIn(['compile'], { cwd: root });
    expect(again.stdout).toMatch(/^0 new, 0 updated, 4 unchanged/m);
    expect(versions(root)).toEqual(v1);
    // A deletion removes a concept: the other entries are rendered again from their raw text.
    rmSync(join(root, 'raw/b.md'));
    const r = await runIn(['compile'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/unexpected error|ENOENT/);
    const cafe = read(root, 'wiki/sources/Café notes.md');
    expect(cafe).toContain('BM25 is fast');
    expect(cafe).not.toContain('[[Zettelkasten]]');
    expect(brokenLinks(root)).toEqual([]);
  });

  it('two files whose names differ only in normalization are two documents, with a warning, and stay stable', async () => {
    const root = fixture({
      'raw/café.md': '# Café in NFC\n\nThis file is named in NFC and talks about BM25 ranking and BM25 tuning.\n',
      [`raw/${nfd('café')}.md`]:
        '# Café in NFD\n\nThis file is named in NFD and talks about BM25 scores and BM25 search.\n',
    });
    age(root);
    const first = await runIn(['compile'], { cwd: root });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^2 new/m);
    expect(first.stderr).toMatch(
      /raw\/café\.md: warning Unexpected 2 files named .*in different Unicode forms.*\[ingest-name-form\]/,
    );
    const titles = entries(root)
      .filter((e) => e.fm['kind'] === 'source')
      .map((e) => e.fm['title'])
      .sort();
    expect(titles).toEqual(['Café in NFC', 'Café in NFD']);
    const v1 = versions(root);
    for (let i = 0; i < 2; i++) {
      const again = await runIn(['compile'], { cwd: root });
      expect(again.stdout).toMatch(/^0 new, 0 updated, 2 unchanged, 0 deleted/m);
      expect(versions(root)).toEqual(v1);
    }
    const lint = await runIn(['lint', '--json'], { cwd: root });
    const findings = (JSON.parse(lint.stdout) as { findings: { ruleId: string }[] }).findings;
    expect(findings.filter((f) => ['uncompiled-source', 'deleted-source', 'broken-link'].includes(f.ruleId))).toEqual(
      [],
    );
  });
});

describe('size and time shortcuts', () => {
  it('an attachment replaced by one of the same size and an older time is copied into the vault again', async () => {
    const png = readFileSync(join(REPO, 'raw/images/rag-pipeline.png'));
    const root = fixture({ 'raw/pic.png': png });
    const first = await runIn(['compile'], { cwd: root });
    expect(first.code, first.stderr).toBe(0);
    const other = Buffer.from(png);
    other[other.length - 20] = other[other.length - 20]! ^ 0xff;
    writeFileSync(join(root, 'raw/pic.png'), other);
    const past = (Date.now() - 3600_000) / 1000;
    utimesSync(join(root, 'raw/pic.png'), past, past);
    const r = await runIn(['compile'], { cwd: root });
    expect(r.stdout).toMatch(/^0 new, 1 updated/m);
    expect(readFileSync(join(root, 'wiki/attachments/pic.png')).equals(other)).toBe(true);
  });

  it("an edit of an entry within its mtime tick (coarse file systems) is still seen as a person's edit", async () => {
    const root = fixture({
      'raw/a.md': '# Alpha notes\n\nAlpha ranks documents with BM25 and keeps notes in plain files for later.\n',
      'raw/b.md': '# Beta notes\n\nBeta also ranks documents with BM25 and keeps a list of sources.\n',
    });
    const first = await runIn(['compile'], { cwd: root });
    expect(first.code, first.stderr).toBe(0);
    const entry = join(root, 'wiki/sources/Alpha notes.md');
    // A coarse clock: kb's write and the person's edit fall in the same tick (here: a time ahead of now).
    const tick = new Date(Math.ceil(Date.now() / 1000) * 1000 + 10_000);
    utimesSync(entry, tick, tick);
    writeFile(root, 'raw/c.md', '# Gamma\n\nSomething unrelated entirely: gardening tomatoes in spring.\n');
    const second = await runIn(['compile'], { cwd: root });
    expect(second.code, second.stderr).toBe(0);
    const text = readFileSync(entry, 'utf8');
    const cut = text.lastIndexOf('plain files');
    const edited = `${text.slice(0, cut)}PLAIN FILES${text.slice(cut + 'plain files'.length)}`;
    expect(edited.length).toBe(text.length);
    writeFileSync(entry, edited);
    utimesSync(entry, tick, tick);
    writeFile(
      root,
      'raw/a.md',
      '# Alpha notes\n\nAlpha ranks documents with BM25 and keeps notes in plain files for later. It grew.\n',
    );
    const r = await runIn(['compile'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    // Seen as the person's: their line stays; kb's own change (the file's size) is merged beside it.
    const after = readFileSync(entry, 'utf8');
    expect(after).toContain('keeps notes in PLAIN FILES for later.');
    expect(after).toContain(`content_hash: ${/content_hash: (\w+)/.exec(edited)![1]}`);
    expect(r.stderr).toMatch(/Alpha notes\.md: info kb's update merged into your edited entry/);
  });
});
