import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { scanWiki } from '../src/entry/wiki.js';
import { closeKb, openKb } from '../src/kb/context.js';
import { lintKb } from '../src/lint/run.js';
import { computeStatus, type KbStatus } from '../src/status/status.js';
import { sha256 } from '../src/util/hash.js';
import { fixture, runKb, writeFile, runKbIn } from './helpers.js';

/*
 * `kb status` and `kb lint` take entry files whose size and mtime compile recorded from the scan
 * cache instead of parsing them. Here they must say exactly what they say when every file is parsed
 * (the same knowledge base with the cache emptied), also after a person edited the wiki by hand.
 */

const RAW = {
  'raw/alpha.md': '# Alpha\n\nAlpha is about Vector Databases and embeddings. The Eiffel Tower is 330 metres tall.\n',
  'raw/beta.md': '# Beta\n\nBeta also covers Vector Databases, and the Eiffel Tower, which is 300 metres tall.\n',
  // BM25 is used, not named in passing (once a source): it gets a concept page.
  'raw/gamma.md': '# Gamma\n\nGamma compares BM25 with Vector Databases for hybrid search. BM25 ranks by terms.\n',
  'raw/zh.md': '# 知识库\n\n个人知识库用向量数据库（Vector Databases）做检索，也用 BM25。BM25 按词打分。\n',
};

function entryFiles(root: string): string[] {
  const out: string[] = [];
  for (const dir of ['sources', 'concepts', 'answers']) {
    try {
      for (const f of readdirSync(join(root, 'wiki', dir))) out.push(`${dir}/${f}`);
    } catch {
      // no such folder
    }
  }
  return out;
}

/** Entry files as an earlier compile left them: older than the racy window, so the cache trusts them. */
function age(root: string, seconds: number): void {
  const t = Date.now() / 1000 - seconds;
  for (const f of entryFiles(root)) utimesSync(join(root, 'wiki', f), t, t);
}

/** Cache rows by how status and lint will take them: by size and mtime, or by content (written too recently). */
function cacheUse(root: string): { byMtime: string[]; byContent: string[] } {
  const db = new Database(join(root, 'wiki', 'embeddings.db'), { readonly: true });
  const out = { byMtime: [] as string[], byContent: [] as string[] };
  try {
    const rows = db.prepare(`SELECT path, mtime_ms, size, text_hash FROM wiki_files`).all() as {
      path: string;
      mtime_ms: number;
      size: number;
      text_hash: string;
    }[];
    for (const r of rows) {
      const abs = join(root, 'wiki', r.path);
      if (!existsSync(abs) || statSync(abs).size !== r.size) continue;
      if (statSync(abs).mtimeMs === r.mtime_ms) out.byMtime.push(r.path);
      else if (r.text_hash && r.text_hash === sha256(readFileSync(abs))) out.byContent.push(r.path);
    }
    return out;
  } finally {
    db.close();
  }
}

/** The same knowledge base with an empty scan cache: every entry file is parsed. */
function parsedCopy(root: string): string {
  const copy = `${root}-parsed`;
  cpSync(root, copy, { recursive: true, preserveTimestamps: true });
  const db = new Database(join(copy, 'wiki', 'embeddings.db'));
  db.exec(`DELETE FROM wiki_files`);
  db.close();
  return copy;
}

function status(root: string): Omit<KbStatus, 'root' | 'store'> & { store: unknown } {
  const ctx = openKb(root, { env: {} });
  try {
    const { root: _r, store, ...rest } = computeStatus(ctx);
    return { ...rest, store: { documents: store.documents, chunks: store.chunks, vectors: store.vectors } };
  } finally {
    closeKb(ctx);
  }
}

async function lint(root: string) {
  const r = await lintKb(root, { offline: true });
  return r.findings.map((f) => ({ ...f, url: undefined }));
}

describe('status and lint from the scan cache', () => {
  it('say what a full parse says, after edits by hand outside kb', async () => {
    const root = fixture(RAW);
    expect((await runKb(['compile', '--offline'], { cwd: root })).code).toBe(0);
    age(root, 120);
    // A compile that has work to do scans the wiki: the (now settled) entry files are recorded by
    // size and mtime; the ones it writes again are too recent for that and are recorded by content.
    writeFile(root, 'raw/gamma.md', `${RAW['raw/gamma.md']}\nGamma adds a line about BM25.\n`);
    expect((await runKbIn(['compile', '--offline'], { cwd: root })).code).toBe(0);
    const files = entryFiles(root);
    const before = cacheUse(root);
    expect([...before.byMtime, ...before.byContent].sort()).toEqual([...files].sort());
    expect(before.byMtime.length).toBeGreaterThan(0);
    expect(before.byContent).toContain('sources/Gamma.md');

    // Edits by hand: a broken link appended (size changes); a title changed in place, same size,
    // another mtime; the body of a file recorded by content changed in place, same size, its mtime
    // put back; an entry deleted; a new entry written by hand (no cache row).
    const source = before.byMtime.find((f) => f.startsWith('sources/'))!;
    writeFileSync(
      join(root, 'wiki', source),
      `${readFileSync(join(root, 'wiki', source), 'utf8').trimEnd()}\n\nSee [[Nowhere At All]].\n`,
    );
    const concept = files.find((f) => f.startsWith('concepts/'))!;
    const text = readFileSync(join(root, 'wiki', concept), 'utf8');
    const renamed = text.replace(/^title: (.)/m, (_m, c: string) => `title: ${c === 'Z' ? 'Y' : 'Z'}`);
    expect(renamed.length).toBe(text.length);
    writeFileSync(join(root, 'wiki', concept), renamed);
    const t = Date.now() / 1000 - 30;
    utimesSync(join(root, 'wiki', concept), t, t);
    const gamma = join(root, 'wiki', 'sources/Gamma.md');
    const was = statSync(gamma);
    const gammaText = readFileSync(gamma, 'utf8');
    const edited = gammaText.replace('\n# Gamma', '\n# GAMMA');
    expect(edited).not.toBe(gammaText);
    writeFileSync(gamma, edited);
    utimesSync(gamma, was.atime, was.mtime);
    expect(statSync(gamma).size).toBe(was.size);
    const gone = files.filter((f) => f.startsWith('sources/') && f !== source && f !== 'sources/Gamma.md').at(-1)!;
    rmSync(join(root, 'wiki', gone));
    writeFile(
      root,
      'wiki/concepts/Hand Written.md',
      '---\nid: concept/hand-written\nkind: concept\ntitle: Hand Written\nsummary: Written by a person.\n---\n# Hand Written\n\nIt links to [[Alpha]] and [[Missing Page]]; the Eiffel Tower is 310 metres tall.\n',
    );

    // The unchanged files are still taken from the cache (this test exercises the shortcut).
    const after = cacheUse(root);
    expect(after.byMtime.length + after.byContent.length).toBe(files.length - 4);
    expect([...after.byMtime, ...after.byContent]).not.toContain(concept);
    expect(after.byContent).not.toContain('sources/Gamma.md');

    const copy = parsedCopy(root);
    expect(cacheUse(copy)).toEqual({ byMtime: [], byContent: [] });
    const fast = status(root);
    expect(fast).toEqual(status(copy));
    expect(fast.links.brokenLinks.map((l) => l.target)).toEqual(
      expect.arrayContaining(['Missing Page', 'Nowhere At All']),
    );
    expect(fast.entries.humanEdited).toBeGreaterThanOrEqual(2);

    const findings = await lint(root);
    expect(findings).toEqual(await lint(copy));
    const broken = findings.filter((f) => f.ruleId === 'broken-link').map((f) => f.file);
    expect(broken).toEqual(expect.arrayContaining([`wiki/${source}`, 'wiki/concepts/Hand Written.md']));
    expect(findings.some((f) => f.file === 'wiki/sources/Gamma.md' && f.ruleId === 'human-edited')).toBe(true);
    // The title edited in place is read from the file, not from the cache.
    const ctx = openKb(root, { env: {} });
    try {
      const scanned = scanWiki(ctx.paths.wiki, ctx.store.scanCache({ readOnly: true })).entries.find(
        (e) => e.path === concept,
      );
      expect(scanned?.fm.title).toBe(/^title: (.*)$/m.exec(renamed)?.[1]);
    } finally {
      closeKb(ctx);
    }
  });
  it('take link targets of unchanged entries from the cache, and find a link a deleted entry broke', async () => {
    const root = fixture(RAW);
    expect((await runKbIn(['compile', '--offline'], { cwd: root })).code).toBe(0);
    age(root, 120);
    writeFile(root, 'raw/gamma.md', `${RAW['raw/gamma.md']}\nGamma adds a line about BM25.\n`);
    expect((await runKbIn(['compile', '--offline'], { cwd: root })).code).toBe(0);
    const db = new Database(join(root, 'wiki', 'embeddings.db'), { readonly: true });
    const rows = db.prepare(`SELECT path, links FROM wiki_files`).all() as { path: string; links: string }[];
    db.close();
    // Every entry's targets are recorded as compile wrote or read it.
    expect(rows.length).toBe(entryFiles(root).length);
    const linked = rows.find((r) => r.path.startsWith('concepts/') && r.links.includes('Gamma'));
    expect(linked).toBeDefined();
    const cached = cacheUse(root);
    expect([...cached.byMtime, ...cached.byContent]).toContain(linked!.path);
    // The entry it links to is deleted by hand: the link breaks in a file status does not parse.
    rmSync(join(root, 'wiki', 'sources', 'Gamma.md'));
    const fast = status(root);
    expect(fast).toEqual(status(parsedCopy(root)));
    const broken = fast.links.brokenLinks.filter((l) => l.file === linked!.path && l.target === 'Gamma');
    expect(broken.length).toBeGreaterThan(0);
    const line = readFileSync(join(root, 'wiki', linked!.path), 'utf8').split('\n')[broken[0]!.line - 1];
    expect(line?.slice(broken[0]!.column - 1)).toMatch(/^\[\[Gamma[\]|#]/);
  });

  it("take an entry's own links from the cache apart from its Backlinks section, as a full parse does", async () => {
    const root = fixture({ ...RAW, 'kb.config.json': JSON.stringify({ wiki: { backlinksSection: true } }) });
    expect((await runKbIn(['compile', '--offline'], { cwd: root })).code).toBe(0);
    age(root, 120);
    writeFile(root, 'raw/gamma.md', `${RAW['raw/gamma.md']}\nGamma adds a line about BM25.\n`);
    expect((await runKbIn(['compile', '--offline'], { cwd: root })).code).toBe(0);
    const db = new Database(join(root, 'wiki', 'embeddings.db'), { readonly: true });
    const rows = db.prepare(`SELECT path, links, own_links FROM wiki_files`).all() as {
      path: string;
      links: string;
      own_links: string;
    }[];
    db.close();
    // An entry others link to has a Backlinks section: its own links are recorded apart from it.
    const sectioned = rows.filter((r) => r.own_links && r.own_links !== '=');
    expect(sectioned.length).toBeGreaterThan(0);
    for (const r of sectioned) expect(JSON.parse(r.own_links).length).toBeLessThan(JSON.parse(r.links).length);
    // A person writes an entry linking to a source: the source's Backlinks section lists it, though
    // the source does not link to it. Later, status and lint take the source from the cache by size
    // and mtime: its section is still no link of its own, and lint says what a full parse says.
    writeFile(
      root,
      'wiki/concepts/Hand Written.md',
      '---\nid: concept/hand-written\nkind: concept\ntitle: Hand Written\nsummary: Written by a person.\n---\n# Hand Written\n\nIt builds on [[Alpha]].\n',
    );
    writeFile(root, 'raw/gamma.md', `${RAW['raw/gamma.md']}\nGamma adds another line about BM25.\n`);
    expect((await runKbIn(['compile', '--offline'], { cwd: root })).code).toBe(0);
    const alpha = readFileSync(join(root, 'wiki', 'sources', 'Alpha.md'), 'utf8');
    expect(alpha.slice(alpha.indexOf('<!-- kb:backlinks -->'))).toContain('[[Hand Written]]');
    age(root, 120);
    const use = cacheUse(root);
    expect([...use.byMtime, ...use.byContent]).toContain('sources/Alpha.md');
    const findings = await lint(root);
    expect(findings).toEqual(await lint(parsedCopy(root)));
    expect(status(root)).toEqual(status(`${root}-parsed`));
  });
});
