import { entryTags } from '../entry/tags.js';
import { isoDay } from '../entry/dates.js';
import { join } from 'node:path';
import type { KbContext } from '../kb/context.js';
import { acquireLock } from '../kb/lock.js';
import type { EntryFrontmatter, EntryId } from '../types.js';
import { prepareIndex } from '../index/entries.js';
import { scanWiki, writeEntry, type LoadedEntry, type WikiScan } from '../entry/wiki.js';
import { appendLog, writeIndexes } from '../emit/indexes.js';
import { linkMarkup, linkResolver } from '../entry/links.js';
import { setBacklinks, type BacklinkItem } from '../entry/backlinks.js';
import { fileBaseName as base, KIND_FOLDER, linkKey, makeEntryId, safeFileName } from '../entry/names.js';
import { neutralizeMarkers } from '../entry/markers.js';
import { bodyHash } from '../entry/frontmatter.js';
import { entryValidator } from '../entry/validate.js';
import { extractWikiLinks } from '../parse/links.js';
import { sentences } from '../text/segment.js';
import type { Citation } from './answer.js';
import { answerTitle, filedAnswerFor } from './question.js';
import { NotSavedError } from '../diagnostics/errors.js';

export { answerTitle } from './question.js';

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
  /** The version this save replaced, when it updated an answer. */
  replaced?: { version: number; by: string };
}

/**
 * Why an answer must not be filed, or [] when it may: a malformed model reply, no text, nothing
 * but citations, and (for `kb ask --save`) no citation of the wiki at all.
 */
export function answerProblems(
  a: { answer: string; citations: Citation[]; malformed?: string | undefined },
  opts: { requireCitations: boolean },
): string[] {
  const out: string[] = [];
  if (a.malformed) out.push(`the model's reply ${a.malformed}`);
  const text = a.answer.trim();
  if (!text) out.push('the answer is empty');
  else if (!/[\p{L}\p{N}]/u.test(text.replace(/!?\[\[[^\]]*\]\]/g, '')))
    out.push('the answer holds nothing but citations');
  if (opts.requireCitations && !a.citations.length) out.push('the answer cites no entry of the wiki');
  return out;
}

/** Why the answer filed before must stay as it is, if it must. */
function keepReason(old: LoadedEntry, by: string): string | undefined {
  if (old.humanEdited)
    return `wiki/${old.path} was edited by hand since kb filed it, and kb never overwrites a person's edits; rename or delete it to file a new answer`;
  const oldBy = String(old.fm.compiled_by ?? '');
  if (by === 'offline' && oldBy.startsWith('model:'))
    return `wiki/${old.path} holds an answer by the model (${oldBy}), and an offline answer does not replace it; ask with ANTHROPIC_API_KEY set to update it`;
  return undefined;
}

function plain(md: string): string {
  return md
    .replace(/\[\[([^\]|]*\|)?([^\]]*)\]\]/g, '$2')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The entries `ids` names that are known, by title. */
function backlinkItems(ids: string[], byId: Map<string, BacklinkItem>): BacklinkItem[] {
  return ids
    .map((i) => byId.get(i))
    .filter((x): x is BacklinkItem => Boolean(x))
    .sort((a, b) => a.title.localeCompare(b.title));
}

/**
 * `kb ask --save`: file the answer as wiki/answers/<Title>.md (a schema-valid entry of kind answer
 * linking the entries it cites), add it to the cited entries' backlinks (unless a person edited
 * them), index it in the store at once, refresh wiki/index.md + index.json and log it.
 */
export async function saveAnswer(
  ctx: KbContext,
  input: SaveInput,
  opts: { signal?: AbortSignal; lockWaitMs?: number } = {},
): Promise<SaveResult> {
  const problems = answerProblems(
    { answer: input.body ?? input.answer, citations: input.citations },
    { requireCitations: false },
  );
  if (!answerTitle(input.question)) problems.push('the question has no visible characters to make a title of');
  if (problems.length) throw new NotSavedError(`Not filed: ${problems.join('; ')}.`);
  const lock = await acquireLock(join(ctx.paths.state, 'lock'), 'ask --save', { waitMs: opts.lockWaitMs ?? 30_000 });
  try {
    return await fileAnswer(ctx, input, opts.signal);
  } finally {
    lock.release();
  }
}

/** Where the answer goes: the entry of the same question filed before (id, file and title), else a new unique name. */
function placeAnswer(
  ctx: KbContext,
  scan: WikiScan,
  input: SaveInput,
): { existing: LoadedEntry | undefined; title: string; id: EntryId; path: string } {
  const existing = filedAnswerFor(
    scan.entries.map((e) => ({ kind: e.fm.kind, title: e.fm.title, e })),
    input.question,
  )?.e;
  const keep = existing && keepReason(existing, input.by);
  if (keep) throw new NotSavedError(`Not filed: ${keep}.`);
  const title = existing?.fm.title ?? answerTitle(input.question);
  const ids = new Set(scan.entries.map((e) => e.fm.id as string));
  const id = (existing?.fm.id ??
    makeEntryId('answer', title, (x) => ids.has(x) || ctx.store.getEntry(x) !== undefined)) as EntryId;
  if (existing) return { existing, title, id, path: existing.path };
  const takenNames = new Set(scan.files.map((f) => linkKey(base(f))));
  const b = safeFileName(title);
  let name = b;
  for (let n = 1; takenNames.has(linkKey(name)); n++) name = n === 1 ? `${b} (answer)` : `${b} (answer ${n})`;
  return { existing, title, id, path: `${KIND_FOLDER.answer}/${name}.md` };
}

async function fileAnswer(ctx: KbContext, input: SaveInput, signal: AbortSignal | undefined): Promise<SaveResult> {
  const { store, paths } = ctx;
  const validate = entryValidator(paths.root);
  const scan = scanWiki(paths.wiki);
  const byId = new Map<string, LoadedEntry>(scan.entries.map((e) => [e.fm.id, e]));
  const { existing, title, id, path } = placeAnswer(ctx, scan, input);

  const cited = input.citations.filter((c) => c.id !== id && (byId.has(c.id) || store.getEntry(c.id)));
  const citedRows = cited.map((c) => ({ c, e: byId.get(c.id), row: store.getEntry(c.id) }));
  const firstSentence = sentences(plain(input.answer))[0] ?? plain(input.answer);
  const summary = (firstSentence || `Answer to: ${title}`).slice(0, 3900);
  const sources = citedRows.map(
    ({ c, e, row }) => `- ${linkMarkup(base(e?.path ?? row?.path ?? c.file), e?.fm.title ?? row?.title ?? c.title)}`,
  );
  // Text from the asker or the model can never pass for one of kb's marked sections.
  let body = neutralizeMarkers(
    input.body ??
      `# ${title}\n\n${summary}\n\n## Answer\n\n${input.answer.trim()}\n\n## Sources\n\n${sources.length ? sources.join('\n') : '- (none)'}\n`,
  );
  const sourceRef = [...new Set(citedRows.flatMap(({ e, row }) => e?.fm.source_ref ?? row?.source_ref ?? []))].filter(
    (r) => /^raw\//.test(r),
  );
  const entities = [
    ...new Set(
      citedRows
        .filter(({ e, row }) => (e?.fm.kind ?? row?.kind) === 'concept')
        .map(({ c, e, row }) => e?.fm.title ?? row?.title ?? c.title),
    ),
  ];
  const old = existing;
  const backlinksIn = old?.fm.backlinks ?? store.linksTo(id);
  body = setBacklinks(
    body,
    backlinkItems(backlinksIn, new Map(scan.entries.map((e) => [e.fm.id, { title: e.fm.title, path: e.path }]))),
    ctx.config.wiki.backlinksSection,
  );
  const now = Math.floor(Date.now() / 1000);
  const fm = answerFrontmatter(input, old, { id, title, summary, sourceRef, entities, backlinks: backlinksIn, now });
  writeEntry(paths.wiki, path, fm, body, validate);

  // Links out of the answer: every [[link]] in its body that names an entry.
  const r = linkResolver(scan.entries, (e) => e.path, { namesOf: (e) => [e.fm.title] });
  const linked = extractWikiLinks(body).map((l) => (r.entry(l.target) ?? r.named(l.target))?.fm.id);
  const links = [...new Set([...cited.map((c) => c.id), ...linked.filter((x): x is EntryId => Boolean(x))])].filter(
    (x) => x !== id,
  );

  const dropped = old ? store.linksFrom(id).filter((x) => !links.includes(x)) : [];
  const { backlinked, touched } = backlinkCited(ctx, scan, { id, title, path }, links, dropped);

  // Index at once: the answer's row, links, vector and chunks; the new hashes of the touched entries.
  const answer = {
    id,
    kind: 'answer',
    title,
    path,
    aliases: fm.aliases,
    summary,
    source_ref: sourceRef,
    content_hash: bodyHash(body),
    human_edited: false,
    updated: now,
  };
  const indexAnswer = await prepareIndex(ctx, [{ ...answer, links, body: () => body }], signal);
  store.transaction(() => {
    indexAnswer();
    for (const t of touched) {
      const row = store.getEntry(t.fm.id);
      if (row) store.putEntry({ ...row, content_hash: bodyHash(t.body) }, store.linksFrom(t.fm.id));
    }
  });

  // Catalog and log.
  refreshCatalog(ctx);
  const replaced = old
    ? { version: Number(old.fm.version) || 1, by: String(old.fm.compiled_by ?? 'unknown') }
    : undefined;
  const what = replaced
    ? `updated [[${base(path)}]] (version ${fm.version} replaces version ${replaced.version} by ${replaced.by})`
    : `filed [[${base(path)}]]`;
  appendLog(
    paths.wiki,
    'ask --save',
    `${what}${backlinked.length ? `, backlinks in ${backlinked.length} entr${backlinked.length === 1 ? 'y' : 'ies'}` : ''}`,
  );
  return { id, path, title, updated: Boolean(old), backlinked, ...(replaced ? { replaced } : {}) };
}

/** The answer's frontmatter: a new version of the one it replaces, if any. */
function answerFrontmatter(
  input: SaveInput,
  old: LoadedEntry | undefined,
  f: {
    id: EntryId;
    title: string;
    summary: string;
    sourceRef: string[];
    entities: string[];
    backlinks: string[];
    now: number;
  },
): EntryFrontmatter {
  return {
    ...(input.extraFrontmatter ?? {}),
    id: f.id,
    kind: 'answer',
    title: f.title,
    aliases: old?.fm.aliases ?? [],
    summary: f.summary,
    source_ref: f.sourceRef,
    entities: f.entities,
    backlinks: f.backlinks,
    version: (old?.fm.version ?? 0) + 1,
    last_heal_timestamp: old?.fm.last_heal_timestamp ?? '',
    content_hash: '',
    compiled_by: input.by,
    updated: isoDay(new Date(f.now * 1000)),
    tags: entryTags('answer', f.entities, old?.fm.tags),
  };
}

/**
 * Backlinks of the cited entries (and of those the replaced answer cited and this one does not):
 * rewritten unless a person edited them. Returns the paths that now list the answer, and the
 * entries whose file changed.
 */
function backlinkCited(
  ctx: KbContext,
  scan: WikiScan,
  answer: BacklinkItem & { id: EntryId },
  links: string[],
  dropped: string[],
): { backlinked: string[]; touched: LoadedEntry[] } {
  const validate = entryValidator(ctx.paths.root);
  const byId = new Map<string, LoadedEntry>(scan.entries.map((e) => [e.fm.id, e]));
  const { id } = answer;
  const backlinked: string[] = [];
  const titles = new Map<string, BacklinkItem>(scan.entries.map((e) => [e.fm.id, { title: e.fm.title, path: e.path }]));
  titles.set(id, { title: answer.title, path: answer.path });
  const touched: LoadedEntry[] = [];
  for (const target of [...links, ...dropped]) {
    const e = byId.get(target);
    if (!e || e.humanEdited) continue;
    const have = e.fm.backlinks ?? [];
    const link = links.includes(target);
    if (have.includes(id) === link) continue;
    const bl = link ? [...new Set([...have, id])] : have.filter((x) => x !== id);
    const sorted = bl.sort((a, b) => (titles.get(a)?.title ?? a).localeCompare(titles.get(b)?.title ?? b));
    const newBody = setBacklinks(e.body, backlinkItems(sorted, titles), ctx.config.wiki.backlinksSection);
    const efm: EntryFrontmatter = { ...e.fm, backlinks: sorted };
    writeEntry(ctx.paths.wiki, e.path, efm, newBody, validate);
    touched.push({ ...e, fm: efm, body: newBody });
    if (link) backlinked.push(e.path);
  }
  return { backlinked, touched };
}

/** wiki/index.md and index.json from the entries on disk, with the links the store knows. */
function refreshCatalog(ctx: KbContext): void {
  const { store } = ctx;
  writeIndexes(
    ctx.paths.wiki,
    scanWiki(ctx.paths.wiki).entries.map((e) => ({
      id: e.fm.id,
      kind: e.fm.kind,
      title: e.fm.title,
      path: e.path,
      summary: e.fm.summary ?? '',
      source_ref: e.fm.source_ref ?? [],
      links: store.getEntry(e.fm.id) ? store.linksFrom(e.fm.id) : [],
    })),
  );
}
