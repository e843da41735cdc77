import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { scanWiki, type LoadedEntry } from '../../entry/wiki.js';
import { stringifyEntry, stringifyEntryKeepingBody } from '../../entry/frontmatter.js';
import { findSection, neutralizeMarkers } from '../../entry/markers.js';
import { withoutBacklinks } from '../../entry/backlinks.js';
import { fileBaseName as base } from '../../entry/names.js';
import type { KbContext } from '../../kb/context.js';
import type { KbPaths } from '../../kb/paths.js';
import { makeResolver } from '../../lint/entry-info.js';
import type { Finding } from '../../lint/types.js';
import type { ModelClient, ModelRequest } from '../../model/client.js';
import { loadTemplate, renderTemplate, splitTemplate, type Template } from '../../model/templates.js';
import { parseKbEntry } from '../../model/xml.js';
import type { EntryFrontmatter } from '../../types.js';
import { writeFileAtomic } from '../../util/atomic.js';
import { rawFileFinder } from '../../ingest/walk.js';
import { sha256 } from '../../util/hash.js';
import type { HealGroup } from '../plan.js';
import type { FixLog } from './structural.js';

const SOURCE_CHARS = 8000;
const SOURCES_CHARS = 40_000;
const MAX_TOKENS = 8000;

export interface ContentResult {
  ok: boolean;
  judge?: { verdict: 'accept' | 'reject'; reason: string };
  web: string[];
  /** Entries written (wiki/… paths). */
  touched: Set<string>;
}

/** Tags kb uses for structure are neutralised inside data, so a source cannot break out of its element. */
export function isolate(text: string): string {
  return text.replace(
    /<(\/?)(source|sources|entry|related|problem|before|after|kb_entry|verdict|reason)\b/gi,
    '&lt;$1$2',
  );
}

/** Raw files at the paths the walker finds them (NFD names, never a link out of raw/): the worktree's, then the checkout's. */
interface RawFinder {
  wt: (key: string) => string | undefined;
  main: (key: string) => string | undefined;
}

/** The raw text of the sources an entry is built from or cites, with the link to cite each by. */
function sourcesOf(entries: LoadedEntry[], all: LoadedEntry[], files: string[], find: RawFinder): string {
  const r = makeResolver(all, files);
  const refs = new Map<string, string>();
  const cite = (rawRef: string) => {
    const src = all.find((e) => e.fm.kind === 'source' && (e.fm.source_ref ?? []).includes(rawRef));
    return src ? `[[${base(src.path)}]]` : rawRef;
  };
  for (const e of entries) {
    for (const ref of e.fm.source_ref ?? []) refs.set(ref, cite(ref));
    for (const m of e.body.matchAll(/\[\[([^\]|#]+)/g)) {
      const t = r.entry(m[1]!);
      if (t?.fm.kind === 'source') for (const ref of t.fm.source_ref ?? []) refs.set(ref, `[[${base(t.path)}]]`);
    }
  }
  const parts: string[] = [];
  let used = 0;
  for (const [ref, link] of refs) {
    const abs = find.wt(ref) ?? find.main(ref);
    if (!abs) continue;
    let text = readFileSync(abs, 'utf8');
    if (text.length > SOURCE_CHARS) text = `${text.slice(0, SOURCE_CHARS)}\n[…cut]`;
    if (used + text.length > SOURCES_CHARS) break;
    used += text.length;
    parts.push(`<source path="${ref}" cite="${link}">\n${isolate(text)}\n</source>`);
  }
  return parts.join('\n\n') || '(no source files found)';
}

function entryText(e: LoadedEntry): string {
  return isolate(
    `title: ${e.fm.title}\naliases: ${(e.fm.aliases ?? []).join(', ')}\nsummary: ${e.fm.summary}\n\n${withoutBacklinks(e.body)}`,
  );
}

function request(tpl: Template, task: string, vars: Record<string, string>, web: boolean): ModelRequest {
  const { system, input } = splitTemplate(tpl.text);
  const req: ModelRequest = {
    task,
    templateHash: tpl.hash,
    system,
    prompt: renderTemplate(input, vars),
    maxTokens: MAX_TOKENS,
  };
  if (web) req.tools = [{ type: 'web_search_20250305', name: 'web_search', max_uses: 5 }];
  return req;
}

function urls(s: string): string[] {
  return [...new Set([...s.matchAll(/https?:\/\/[^\s<>()[\]"'`]+/g)].map((m) => m[0].replace(/[.,;:!?]+$/, '')))];
}

/** sha256 of each of the entry's raw files as they are now in the worktree. */
function currentHashes(e: LoadedEntry, find: RawFinder): Record<string, string> {
  const out: Record<string, string> = { ...(e.fm.source_hashes ?? {}) };
  for (const ref of Object.keys(out)) {
    const abs = find.wt(ref);
    if (abs) out[ref] = sha256(readFileSync(abs));
  }
  return out;
}

interface Rewrite {
  entry: LoadedEntry;
  fm: EntryFrontmatter;
  body: string;
}

/** The model's entry made into the new file content: title and id kept, no backlinks section. */
function applyReply(e: LoadedEntry, reply: string, extraAliases: string[] = []): Rewrite | string {
  const parsed = parseKbEntry(reply);
  if (!parsed.ok) return parsed.error;
  const x = parsed.value;
  let body = neutralizeMarkers(withoutBacklinks(x.body).trim());
  if (!/^#\s/.test(body)) body = `# ${e.fm.title}\n\n${body}`;
  body = body.replace(/^#\s.*$/m, `# ${e.fm.title}`);
  const span = findSection(e.body, 'backlinks');
  const section = span ? e.body.slice(span.start, span.end) : undefined;
  const title = String(e.fm.title).toLowerCase();
  const aliases = [...new Set([...(e.fm.aliases ?? []), ...x.aliases, ...extraAliases])].filter(
    (a) => a.toLowerCase() !== title,
  );
  const fm: EntryFrontmatter = { ...e.fm, summary: x.summary || e.fm.summary, aliases };
  return { entry: e, fm, body: section ? `${body}\n\n${section}\n` : `${body}\n` };
}

async function judge(
  model: ModelClient,
  root: string,
  problem: string,
  before: string,
  after: string,
  sources: string,
  signal: AbortSignal | undefined,
): Promise<{ verdict: 'accept' | 'reject'; reason: string }> {
  const tpl = loadTemplate(root, 'judge');
  const res = await model.complete(
    request(tpl, 'heal-judge', { problem: isolate(problem), before, after, sources }, false),
    signal,
  );
  const verdict = /<verdict>\s*(accept|reject)\s*<\/verdict>/i.exec(res.text)?.[1]?.toLowerCase();
  const reason = (/<reason>([\s\S]*?)<\/reason>/i.exec(res.text)?.[1] ?? res.text)
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 500);
  return {
    verdict: verdict === 'accept' ? 'accept' : 'reject',
    reason: verdict ? reason : `no verdict in the judge's reply (${reason.slice(0, 120)})`,
  };
}

/**
 * A content fix: the writer (one template) proposes the rewrite, the judge (another template,
 * told to be skeptical) compares it with the sources. Only an accepted rewrite is written.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: writer, judge and write are the three stages of one fix sharing the prompt, the sources and the verdict; each stage is a few lines
export async function applyContentFix(
  group: HealGroup,
  targets: Finding[],
  kb: { main: KbContext; wt: KbPaths },
  model: ModelClient,
  opts: { web: boolean; signal?: AbortSignal | undefined },
  log: FixLog,
  adopt: Set<string>,
): Promise<ContentResult> {
  const { wt } = kb;
  const scan = scanWiki(wt.wiki);
  const ignore = { ignore: kb.main.config.ingest.ignore };
  const find: RawFinder = { wt: rawFileFinder(wt.raw, ignore), main: rawFileFinder(kb.main.paths.raw, ignore) };
  const byFile = new Map(scan.entries.map((e) => [`wiki/${e.path}`, e]));
  const problem = targets.map((f) => `${f.file}${f.place ? `:${f.place.line}` : ''}: ${f.reason}`).join('\n');
  const touched = new Set<string>();
  const rewrites: Rewrite[] = [];
  let removed: LoadedEntry | undefined;

  if (group.topic.startsWith('duplicate-')) {
    const f = targets[0]!;
    const keep = byFile.get(String(f.data?.path ?? ''));
    const other = byFile.get(String(f.data?.other ?? ''));
    if (!keep || !other)
      return {
        ok: false,
        web: [],
        touched,
        judge: { verdict: 'reject', reason: 'one of the two entries is not in the committed tree' },
      };
    const sources = sourcesOf([keep, other], scan.entries, scan.files, find);
    const tpl = loadTemplate(kb.main.paths.root, 'heal-merge');
    const res = await model.complete(
      request(
        tpl,
        'heal-merge',
        {
          problem: isolate(problem),
          keep_id: keep.fm.id,
          keep: entryText(keep),
          other_id: other.fm.id,
          other: entryText(other),
          sources,
        },
        opts.web,
      ),
      opts.signal,
    );
    const rw = applyReply(keep, res.text, [String(other.fm.title), ...(other.fm.aliases ?? [])]);
    if (typeof rw === 'string')
      return {
        ok: false,
        web: [],
        touched,
        judge: { verdict: 'reject', reason: `the merged entry did not parse: ${rw}` },
      };
    rw.fm.source_ref = [...new Set([...(keep.fm.source_ref ?? []), ...(other.fm.source_ref ?? [])])];
    rw.fm.entities = [...new Set([...(keep.fm.entities ?? []), ...(other.fm.entities ?? [])])];
    rewrites.push(rw);
    removed = other;
  } else {
    const update = group.topic.startsWith('update-');
    const files = new Set<string>();
    for (const f of targets) {
      files.add(f.file);
      if (group.topic.startsWith('contradiction-') && typeof f.data?.path === 'string') files.add(f.data.path);
    }
    const entries = [...files].map((p) => byFile.get(p)).filter((e): e is LoadedEntry => Boolean(e));
    const sources = sourcesOf(entries, scan.entries, scan.files, find);
    const tpl = loadTemplate(kb.main.paths.root, 'heal-rewrite');
    for (const e of entries) {
      const related =
        entries
          .filter((x) => x !== e)
          .map((x) => `<entry id="${x.fm.id}">\n${entryText(x)}\n</entry>`)
          .join('\n') || '(none)';
      const task = update
        ? `${problem}\nA person edited this entry after kb wrote it, and its source has changed since. Update the entry to what the source says now; keep the person's own additions unless the source now contradicts them.`
        : problem;
      const res = await model.complete(
        request(
          tpl,
          'heal-rewrite',
          { problem: isolate(task), id: e.fm.id, entry: entryText(e), related, sources },
          opts.web,
        ),
        opts.signal,
      );
      const rw = applyReply(e, res.text);
      if (typeof rw === 'string')
        return {
          ok: false,
          web: [],
          touched,
          judge: { verdict: 'reject', reason: `the rewrite of wiki/${e.path} did not parse: ${rw}` },
        };
      if (update) rw.fm.source_hashes = currentHashes(e, find);
      rewrites.push(rw);
    }
  }

  const all = [...rewrites.map((r) => r.entry), ...(removed ? [removed] : [])];
  const sources = sourcesOf(all, scan.entries, scan.files, find);
  const before = all.map((e) => `<entry id="${e.fm.id}" path="wiki/${e.path}">\n${entryText(e)}\n</entry>`).join('\n');
  const after =
    rewrites
      .map(
        (r) =>
          `<entry id="${r.fm.id}" path="wiki/${r.entry.path}">\n${isolate(`title: ${r.fm.title}\naliases: ${r.fm.aliases.join(', ')}\nsummary: ${r.fm.summary}\n\n${withoutBacklinks(r.body)}`)}\n</entry>`,
      )
      .join('\n') + (removed ? `\n(wiki/${removed.path} is removed; links to it point at the merged entry)` : '');
  const verdict = await judge(model, kb.main.paths.root, problem, before, after, sources, opts.signal);
  const oldUrls = new Set(all.flatMap((e) => urls(e.body)));
  const web = opts.web ? [...new Set(rewrites.flatMap((r) => urls(r.body)).filter((u) => !oldUrls.has(u)))] : [];
  if (verdict.verdict !== 'accept') {
    for (const r of rewrites)
      log.cannot.push({ file: `wiki/${r.entry.path}`, why: `the judge rejected the rewrite: ${verdict.reason}` });
    return { ok: false, judge: verdict, web, touched };
  }

  for (const r of rewrites) {
    writeFileAtomic(join(wt.wiki, r.entry.path), stringifyEntry(r.fm, r.body));
    touched.add(`wiki/${r.entry.path}`);
    adopt.add(`wiki/${r.entry.path}`);
    log.changes.push(`wiki/${r.entry.path}: rewritten by the model, accepted by the judge`);
  }
  if (removed) {
    const keep = rewrites[0]!.entry;
    rmSync(join(wt.wiki, removed.path));
    log.changes.push(`wiki/${removed.path}: merged into wiki/${keep.path} and removed`);
    const r = makeResolver(scan.entries, scan.files);
    for (const e of scan.entries) {
      if (e === removed) continue;
      const current = e === keep ? rewrites[0]! : { fm: e.fm, body: e.body };
      let n = 0;
      const body = current.body.replace(
        /(!?)\[\[([^\]\n|#]*)(#[^\]\n|]*)?(?:\|([^\]\n]*))?\]\]/g,
        (whole, bang: string, t: string, heading: string | undefined, alias: string | undefined) => {
          if (r.entry(t.trim()) !== removed) return whole;
          n++;
          if (e === keep) return alias ?? t;
          return `${bang}[[${base(keep.path)}${heading ?? ''}|${alias ?? t}]]`;
        },
      );
      if (!n) continue;
      writeFileAtomic(
        join(wt.wiki, e.path),
        e === keep ? stringifyEntry(current.fm, body) : stringifyEntryKeepingBody(current.fm, body),
      );
      touched.add(`wiki/${e.path}`);
      log.changes.push(`wiki/${e.path}: ${n} link${n === 1 ? '' : 's'} to the merged entry repointed`);
    }
  }
  return { ok: true, judge: verdict, web, touched };
}
