import { epochSeconds } from '../../entry/dates.js';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { writeIndexes } from '../../emit/indexes.js';
import { mapOutsideBacklinks, setBacklinks } from '../../entry/backlinks.js';
import { scanWiki, type LoadedEntry } from '../../entry/wiki.js';
import { parseEntryFile, stringifyEntryKeepingBody, bodyHash } from '../../entry/frontmatter.js';
import { entryValidator, schemaErrors } from '../../entry/validate.js';
import { fileBaseName, KIND_FOLDER, linkKey, makeEntryId } from '../../entry/names.js';
import type { KbPaths } from '../../kb/paths.js';
import { backlinkSectionTargets, makeResolver, ownLinks } from '../../lint/entry-info.js';
import type { Finding } from '../../lint/types.js';
import type { EntryFrontmatter, EntryKind } from '../../types.js';
import { writeFileAtomic } from '../../util/atomic.js';
import { rawFileFinder } from '../../ingest/walk.js';

/** What a fix did, for the commit message and the changelog. */
export interface FixLog {
  changes: string[];
  cannot: { file: string; why: string }[];
}

/** Heal changes only what it fixes: the rest of the body, maybe a person's, stays byte for byte. */
function writeEntryFile(wikiDir: string, path: string, fm: EntryFrontmatter, body: string): void {
  writeFileAtomic(join(wikiDir, path), stringifyEntryKeepingBody(fm, body));
}

// ---- frontmatter

/** The first sentences of the body's first paragraph, links made plain: an extractive summary. */
export function summaryFromBody(body: string, title: string): string {
  const paras = body.replace(/\r\n?/g, '\n').split(/\n\s*\n/);
  for (const p of paras) {
    const t = p.trim();
    if (!t || /^(#|[-*+] |\d+\. |>|\||```|~~~|<!--|!\[)/.test(t)) continue;
    const plain = t
      .replace(/!?\[\[([^\]|#]*)(?:#[^\]|]*)?\|([^\]]*)\]\]/g, '$2')
      .replace(/!?\[\[([^\]|#]*)(?:#[^\]|]*)?\]\]/g, '$1')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/[*_`]/g, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (!plain || plain.toLowerCase() === title.toLowerCase()) continue;
    const sentences = plain.match(/[^.!?。！？]+[.!?。！？]?/gu) ?? [plain];
    let out = '';
    for (const s of sentences) {
      if (out && Array.from(out + s).length > 300) break;
      out += s;
    }
    return out.trim();
  }
  return '';
}

const KINDS: EntryKind[] = ['source', 'concept', 'answer'];

/** Fill what is missing or malformed in frontmatter with defaults; what cannot be guessed stays. */
export function repairFrontmatter(
  data: Record<string, unknown>,
  body: string,
  path: string,
  taken: (id: string) => boolean,
): EntryFrontmatter {
  const fm = { ...data } as Record<string, unknown>;
  const folder = path.split('/')[0];
  if (!KINDS.includes(fm['kind'] as EntryKind)) fm['kind'] = KINDS.find((k) => KIND_FOLDER[k] === folder) ?? 'concept';
  if (typeof fm['title'] !== 'string' || !fm['title'].trim())
    fm['title'] = /^#\s+(.+)$/m.exec(body)?.[1]?.trim() ?? fileBaseName(path);
  const kind = fm['kind'] as EntryKind;
  if (typeof fm['id'] !== 'string' || !/^(source|concept|answer)\/[^\s/\\]+$/.test(fm['id']))
    fm['id'] = makeEntryId(kind, String(fm['title']), taken);
  for (const k of ['aliases', 'source_ref', 'entities', 'backlinks']) {
    const v = fm[k];
    const list = Array.isArray(v) ? v : typeof v === 'string' && v ? [v] : [];
    fm[k] = [...new Set(list.filter((x): x is string => typeof x === 'string' && x.length > 0))];
  }
  fm['source_ref'] = (fm['source_ref'] as string[])
    .map((r) => (r.startsWith('raw/') ? r : `raw/${r}`))
    .filter((r) => !/(^|\/)\.\.(\/|$)/.test(r));
  const summary = typeof fm['summary'] === 'string' ? fm['summary'].trim() : '';
  if (!summary || summary.toLowerCase() === String(fm['title']).trim().toLowerCase()) {
    const s = summaryFromBody(body.replace(/^#\s+.*$/m, ''), String(fm['title']));
    if (s) fm['summary'] = s;
  }
  if (!Number.isInteger(fm['version']) || (fm['version'] as number) < 1) fm['version'] = 1;
  if (
    typeof fm['last_heal_timestamp'] !== 'string' ||
    (fm['last_heal_timestamp'] && !epochSeconds(fm['last_heal_timestamp']))
  )
    fm['last_heal_timestamp'] = '';
  if (typeof fm['content_hash'] !== 'string' || !/^[0-9a-f]{64}$/.test(fm['content_hash']))
    fm['content_hash'] = bodyHash(body);
  delete fm['embedding_v'];
  return fm as EntryFrontmatter;
}

export function fixFrontmatter(paths: KbPaths, findings: Finding[], log: FixLog): void {
  const files = new Set(findings.map((f) => String(f.data?.path ?? f.file)).filter((p) => p.startsWith('wiki/')));
  const scan = scanWiki(paths.wiki);
  const ids = new Set(scan.entries.map((e) => e.fm.id as string));
  const validate = entryValidator(paths.root);
  for (const file of files) {
    const rel = file.slice('wiki/'.length);
    const abs = join(paths.wiki, rel);
    if (!existsSync(abs)) continue;
    let parsed: ReturnType<typeof parseEntryFile>;
    try {
      parsed = parseEntryFile(readFileSync(abs, 'utf8'));
    } catch {
      log.cannot.push({ file, why: 'the YAML cannot be read' });
      continue;
    }
    const fm = repairFrontmatter(parsed.data, parsed.body, rel, (id) => ids.has(id) && id !== parsed.data['id']);
    const left = schemaErrors(validate, fm);
    if (left.length) {
      // The whole entry is put back when it would still not validate: say why here, once.
      log.cannot.push({ file, why: `heal has no default for ${left.join('; ')}` });
      continue;
    }
    // What changed is reported field by field once the branch is final (heal reads it off the diff).
    writeEntryFile(paths.wiki, rel, fm, parsed.body);
  }
}

// ---- links

/** Point each broken link at the entry its text names, else make it plain text. */
export function fixBrokenLinks(paths: KbPaths, log: FixLog, only?: Set<string>, targets?: Set<string>): void {
  const scan = scanWiki(paths.wiki);
  const r = makeResolver(scan.entries, scan.files);
  for (const e of scan.entries) {
    if (only && !only.has(`wiki/${e.path}`)) continue;
    let fixed = 0;
    // The backlinks section is not the entry's own text: refreshBacklinks makes it again.
    const body = mapOutsideBacklinks(e.body, (text) =>
      text.replace(
        /(!?)\[\[([^\]\n|#]*)(#[^\]\n|]*)?(?:\|([^\]\n]*))?\]\]/g,
        (whole, bang: string, target: string, heading: string | undefined, alias: string | undefined) => {
          const t = target.trim();
          if (!t || r.exists(t) || (targets && !targets.has(linkKey(t)))) return whole;
          fixed++;
          const hit = r.named(t);
          const named = hit && fileBaseName(hit.path);
          if (named) return `${bang}[[${named}${heading ?? ''}${named === t && !alias ? '' : `|${alias ?? t}`}]]`;
          return bang ? '' : (alias ?? t);
        },
      ),
    );
    if (!fixed) continue;
    writeEntryFile(paths.wiki, e.path, e.fm, body);
    log.changes.push(`wiki/${e.path}: ${fixed} broken link${fixed === 1 ? '' : 's'} fixed`);
  }
}

/** Backlinks (frontmatter + section) from the links as they are now, for every entry. */
export function refreshBacklinks(paths: KbPaths, log: FixLog, section = false): void {
  const scan = scanWiki(paths.wiki);
  const r = makeResolver(scan.entries, scan.files);
  const inbound = new Map<string, Set<LoadedEntry>>();
  for (const e of scan.entries) {
    for (const l of ownLinks(e)) {
      const t = r.entry(l.target);
      if (!t || t === e) continue;
      (inbound.get(t.fm.id) ?? inbound.set(t.fm.id, new Set()).get(t.fm.id)!).add(e);
    }
  }
  for (const e of scan.entries) {
    const kindRank = (k: string) => (k === 'source' ? 0 : k === 'concept' ? 1 : 2);
    const ins = [...(inbound.get(e.fm.id) ?? [])].sort(
      (a, b) => String(a.fm.title).localeCompare(String(b.fm.title)) || kindRank(a.fm.kind) - kindRank(b.fm.kind),
    );
    const ids = ins.map((i) => i.fm.id as string);
    // Only a different set is a change: the order alone is not worth a commit.
    const sectionNow = backlinkSectionTargets(e.body);
    const sectionIds = new Set((sectionNow ?? []).map((k) => r.entry(k)?.fm.id ?? `?${k}`));
    const sameFm = sameSet(ids, Array.isArray(e.fm.backlinks) ? e.fm.backlinks.map(String) : []);
    const sameSection = section
      ? (sectionNow !== null || ids.length === 0) && sameSet(ids, [...sectionIds])
      : sectionNow === null;
    if (sameFm && sameSection) continue;
    const body = setBacklinks(
      e.body,
      ins.map((i) => ({ path: i.path, title: String(i.fm.title) })),
      section,
    );
    writeEntryFile(paths.wiki, e.path, { ...e.fm, backlinks: ids }, body);
    log.changes.push(`wiki/${e.path}: backlinks regenerated (${ids.length})`);
  }
}

/** wiki/index.md and index.json from the entries as they are now. */
export function refreshIndex(paths: KbPaths): void {
  const scan = scanWiki(paths.wiki);
  const r = makeResolver(scan.entries, scan.files);
  writeIndexes(
    paths.wiki,
    scan.entries.map((e) => ({
      id: e.fm.id,
      kind: e.fm.kind,
      title: String(e.fm.title),
      path: e.path,
      summary: String(e.fm.summary ?? ''),
      source_ref: Array.isArray(e.fm.source_ref) ? e.fm.source_ref : [],
      links: [
        ...new Set(
          ownLinks(e)
            .map((l) => r.entry(l.target)?.fm.id)
            .filter((x): x is NonNullable<typeof x> => Boolean(x) && x !== e.fm.id),
        ),
      ],
    })),
  );
}

function sameSet(a: string[], b: string[]): boolean {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
}

// ---- sources

/**
 * Make the worktree's raw files match the person's checkout for the paths the findings name. Files
 * are found where the walker finds them (a name in NFD under its NFC key); a link out of raw/ is
 * never followed, so nothing outside raw/ is copied in.
 */
export function syncRaw(fromRaw: string, toRaw: string, rawPaths: Iterable<string>, log: FixLog): void {
  const from = rawFileFinder(fromRaw);
  const to = rawFileFinder(toRaw);
  for (const p of new Set(rawPaths)) {
    const src = from(p);
    const dst = to(p) ?? (src ? join(toRaw, relative(fromRaw, src)) : undefined);
    if (src && dst) {
      if (existsSync(dst) && readFileSync(src).equals(readFileSync(dst))) continue;
      mkdirSync(dirname(dst), { recursive: true });
      // Replaced, not written through: a link in heal's worktree must not carry the copy elsewhere.
      rmSync(dst, { force: true });
      copyFileSync(src, dst);
      log.changes.push(`raw/${p}: taken from your checkout`);
    } else if (dst) {
      rmSync(dst);
      log.changes.push(`raw/${p}: removed, as in your checkout`);
    }
  }
}

/**
 * Remove entries whose sources are all gone (unless a person edited them); drop dead references.
 * Returns the link keys (file name, title) of the removed entries.
 */
export function removeDeletedSources(paths: KbPaths, findings: Finding[], log: FixLog): Set<string> {
  const removed = new Set<string>();
  const scan = scanWiki(paths.wiki);
  const byFile = new Map(scan.entries.map((e) => [`wiki/${e.path}`, e]));
  const gone = new Map<string, Set<string>>();
  for (const f of findings) {
    if (f.ruleId !== 'deleted-source') continue;
    const file = String(f.data?.path ?? f.file);
    (gone.get(file) ?? gone.set(file, new Set()).get(file)!).add(`raw/${String(f.data?.rawPath ?? '')}`);
  }
  const find = rawFileFinder(paths.raw);
  // A post of a multi-post file is `raw/file#anchor`: its file is what must exist.
  const present = (ref: string) => find(ref) !== undefined || find(ref.replace(/#[^/]*$/, '')) !== undefined;
  for (const [file, refs] of gone) {
    const e = byFile.get(file);
    if (!e) continue;
    if (present([...refs][0]!)) continue;
    const left = (e.fm.source_ref ?? []).filter((r) => !refs.has(r) && present(r));
    if (left.length === 0 && e.fm.kind === 'source') {
      if (e.humanEdited) {
        log.cannot.push({
          file,
          why: 'its source is gone, but a person edited it: delete it yourself if it is no longer wanted',
        });
        continue;
      }
      rmSync(join(paths.wiki, e.path));
      removed.add(linkKey(fileBaseName(e.path)));
      removed.add(linkKey(e.path.replace(/\.md$/, '')));
      log.changes.push(`${file}: removed (its source ${[...refs].join(', ')} is gone)`);
      continue;
    }
    const fm = { ...e.fm, source_ref: left };
    if (fm.source_hashes)
      fm.source_hashes = Object.fromEntries(Object.entries(fm.source_hashes).filter(([k]) => !refs.has(k)));
    writeEntryFile(paths.wiki, e.path, fm, e.body);
    log.changes.push(`${file}: dropped reference to ${[...refs].join(', ')}`);
  }
  return removed;
}
