import { join } from 'node:path';
import type { KbContext } from '../kb/context.js';
import { acquireLock } from '../kb/lock.js';
import type { EntryFrontmatter, EntryId } from '../types.js';
import { chunkMarkdown } from '../chunk/index.js';
import { scanWiki, writeEntry, type LoadedEntry } from '../emit/wiki.js';
import { appendLog, writeIndexes } from '../emit/indexes.js';
import { linkMarkup } from '../emit/linker.js';
import { KIND_FOLDER, linkKey, makeEntryId, safeFileName } from '../entry/names.js';
import { setSection } from '../entry/markers.js';
import { bodyHash } from '../entry/frontmatter.js';
import { entryValidator } from '../entry/validate.js';
import { extractWikiLinks } from '../parse/links.js';
import { sentences } from '../text/segment.js';
import type { Citation } from './answer.js';

export interface SaveInput {
  question: string;
  answer: string;
  citations: Citation[];
  /** Who wrote the answer: 'offline' or the model's name. */
  by: string;
  /** Body format: plain Markdown, or a Marp slide deck. */
  format?: 'markdown' | 'marp';
  /** Extra frontmatter (e.g. `marp: true`). */
  extraFrontmatter?: Record<string, unknown>;
  /** Body to write instead of the default layout (used by the Marp format). */
  body?: string;
}

export interface SaveResult {
  id: string;
  /** Path under wiki/. */
  path: string;
  title: string;
  /** True when an answer to the same question was already filed and got updated. */
  updated: boolean;
  /** Cited entries whose backlinks now list the answer (entries edited by a person are left alone). */
  backlinked: string[];
}

const base = (p: string) => p.replace(/\.md$/, '').split('/').pop() ?? p;

/** The title of a filed answer: the question, on one line, bounded. */
export function answerTitle(question: string): string {
  const q = question.replace(/\s+/g, ' ').trim();
  const chars = Array.from(q);
  return chars.length > 120 ? `${chars.slice(0, 119).join('').trim()}…` : q;
}

function plain(md: string): string {
  return md.replace(/\[\[([^\]|]*\|)?([^\]]*)\]\]/g, '$2').replace(/\s+/g, ' ').trim();
}

function backlinkSection(ids: string[], byId: Map<string, { title: string; path: string }>): string | null {
  const items = ids
    .map((i) => byId.get(i))
    .filter((x): x is { title: string; path: string } => Boolean(x))
    .sort((a, b) => a.title.localeCompare(b.title));
  return items.length ? `## Backlinks\n\n${items.map((i) => `- ${linkMarkup(base(i.path), i.title)}`).join('\n')}` : null;
}

/**
 * `kb ask --save`: file the answer as wiki/answers/<Title>.md (a schema-valid entry of kind answer
 * linking the entries it cites), add it to the cited entries' backlinks (unless a person edited
 * them), index it in the store at once, refresh wiki/index.md + index.json and log it.
 */
export async function saveAnswer(ctx: KbContext, input: SaveInput, opts: { signal?: AbortSignal; lockWaitMs?: number } = {}): Promise<SaveResult> {
  const lock = await acquireLock(join(ctx.paths.state, 'lock'), 'ask --save', { waitMs: opts.lockWaitMs ?? 30_000 });
  try {
    const { store, paths } = ctx;
    const validate = entryValidator(paths.root);
    const scan = scanWiki(paths.wiki);
    const byId = new Map<string, LoadedEntry>(scan.entries.map((e) => [e.fm.id, e]));
    const title = answerTitle(input.question);

    // The same question filed before keeps its entry (id and file); otherwise a new unique name.
    const existing = scan.entries.find((e) => e.fm.kind === 'answer' && linkKey(e.fm.title) === linkKey(title));
    const id = (existing?.fm.id ?? makeEntryId('answer', title, (x) => byId.has(x) || store.getEntry(x) !== undefined)) as EntryId;
    let path = existing?.path as string | undefined;
    if (!path) {
      const takenNames = new Set(scan.files.map((f) => linkKey(base(f))));
      const b = safeFileName(title);
      let name = b;
      for (let n = 1; takenNames.has(linkKey(name)); n++) name = n === 1 ? `${b} (answer)` : `${b} (answer ${n})`;
      path = `${KIND_FOLDER.answer}/${name}.md`;
    }

    const cited = input.citations.filter((c) => c.id !== id && (byId.has(c.id) || store.getEntry(c.id)));
    const citedRows = cited.map((c) => ({ c, e: byId.get(c.id), row: store.getEntry(c.id) }));
    const firstSentence = sentences(plain(input.answer))[0] ?? plain(input.answer);
    const summary = (firstSentence || `Answer to: ${title}`).slice(0, 3900);
    const sources = citedRows.map(({ c, e, row }) => `- ${linkMarkup(base(e?.path ?? row?.path ?? c.file), e?.fm.title ?? row?.title ?? c.title)}`);
    let body =
      input.body ??
      `# ${title}\n\n${summary}\n\n## Answer\n\n${input.answer.trim()}\n\n## Sources\n\n${sources.length ? sources.join('\n') : '- (none)'}\n`;
    const sourceRef = [...new Set(citedRows.flatMap(({ e, row }) => e?.fm.source_ref ?? row?.source_ref ?? []))].filter((r) => /^raw\//.test(r));
    const entities = [...new Set(citedRows.filter(({ e, row }) => (e?.fm.kind ?? row?.kind) === 'concept').map(({ c, e, row }) => e?.fm.title ?? row?.title ?? c.title))];
    const old = existing;
    const backlinksIn = old?.fm.backlinks ?? store.linksTo(id);
    const section = backlinkSection(backlinksIn, new Map(scan.entries.map((e) => [e.fm.id, { title: e.fm.title, path: e.path }])));
    body = setSection(body, 'backlinks', section);
    const now = Math.floor(Date.now() / 1000);
    const fm: EntryFrontmatter = {
      ...(input.extraFrontmatter ?? {}),
      id,
      kind: 'answer',
      title,
      aliases: old?.fm.aliases ?? [],
      summary,
      source_ref: sourceRef,
      entities,
      backlinks: backlinksIn,
      version: (old?.fm.version ?? 0) + 1,
      last_heal_timestamp: old?.fm.last_heal_timestamp ?? 0,
      content_hash: '',
      compiled_by: input.by,
      updated: now,
    };
    writeEntry(paths.wiki, path, fm, body, validate);

    // Links out of the answer: every [[link]] in its body that names an entry.
    const fileToId = new Map<string, string>();
    for (const e of scan.entries) {
      fileToId.set(linkKey(base(e.path)), e.fm.id);
      fileToId.set(linkKey(e.fm.title), e.fm.id);
    }
    const links = [...new Set([...cited.map((c) => c.id), ...extractWikiLinks(body).map((l) => fileToId.get(linkKey(l.target))).filter((x): x is string => Boolean(x))])].filter((x) => x !== id);

    // Backlinks of the cited entries.
    const backlinked: string[] = [];
    const titles = new Map<string, { title: string; path: string }>(scan.entries.map((e) => [e.fm.id, { title: e.fm.title, path: e.path }]));
    titles.set(id, { title, path });
    const touched: LoadedEntry[] = [];
    for (const target of links) {
      const e = byId.get(target);
      if (!e || e.humanEdited) continue;
      if (e.fm.backlinks.includes(id)) continue;
      const bl = [...new Set([...(e.fm.backlinks ?? []), id])];
      const sorted = bl.sort((a, b) => (titles.get(a)?.title ?? a).localeCompare(titles.get(b)?.title ?? b));
      const newBody = setSection(e.body, 'backlinks', backlinkSection(sorted, titles));
      const efm: EntryFrontmatter = { ...e.fm, backlinks: sorted };
      writeEntry(paths.wiki, e.path, efm, newBody, validate);
      touched.push({ ...e, fm: efm, body: newBody });
      backlinked.push(e.path);
    }

    // Index at once: the answer's row, links, vector and chunks; the new hashes of the touched entries.
    const stripped = setSection(body, 'backlinks', null).trim();
    const chunks = chunkMarkdown(stripped, ctx.config.chunk);
    const [vector] = await ctx.embedder.embed([`${title}\n\n${summary}`], opts.signal);
    const chunkVectors = chunks.length ? await ctx.embedder.embed(chunks.map((c) => `${title}\n${c.text}`), opts.signal) : [];
    store.transaction(() => {
      store.putEntry(
        { id, kind: 'answer', title, path, aliases: fm.aliases, summary, source_ref: sourceRef, content_hash: bodyHash(body), human_edited: false, updated: now },
        links,
        vector,
      );
      store.putChunks(id, null, chunks, chunkVectors);
      for (const t of touched) {
        const row = store.getEntry(t.fm.id);
        if (row) store.putEntry({ ...row, content_hash: bodyHash(t.body) }, store.linksFrom(t.fm.id));
      }
    });

    // Catalog and log.
    const after = scanWiki(paths.wiki);
    writeIndexes(
      paths.wiki,
      after.entries.map((e) => ({
        id: e.fm.id,
        kind: e.fm.kind,
        title: e.fm.title,
        path: e.path,
        summary: e.fm.summary ?? '',
        source_ref: e.fm.source_ref ?? [],
        links: store.getEntry(e.fm.id) ? store.linksFrom(e.fm.id) : [],
      })),
    );
    appendLog(paths.wiki, 'ask --save', `${old ? 'updated' : 'filed'} [[${base(path)}]]${backlinked.length ? `, backlinks in ${backlinked.length} entr${backlinked.length === 1 ? 'y' : 'ies'}` : ''}`);
    return { id, path, title, updated: Boolean(old), backlinked };
  } finally {
    lock.release();
  }
}
