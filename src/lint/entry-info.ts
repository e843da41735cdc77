import type { LoadedEntry } from '../entry/wiki.js';
import { bodyHash, stringifyEntry } from '../entry/frontmatter.js';
import { findSection, getSection } from '../entry/markers.js';
import { linkKey } from '../entry/names.js';
import { extractWikiLinks, type WikiLinkRef } from '../parse/links.js';
import { linkResolver, type LinkResolver } from '../entry/links.js';
import type { Point } from '../diagnostics/message.js';
import type { EntryFrontmatter } from '../types.js';
import type { LintInput } from './types.js';

/** 0-based line in the file text where the body starts (after the frontmatter). */
export function bodyLineOffset(e: LoadedEntry): number {
  // Asked once per finding: an entry with many findings must not split its text each time.
  return cached(offsetCache, e, () => {
    const i = e.text.lastIndexOf(e.body.slice(0, 200));
    if (i < 0) return 0;
    return e.text.slice(0, i).split('\n').length - 1;
  });
}
const offsetCache = new WeakMap<LoadedEntry, number>();

/** Place of a frontmatter key (`summary:`) in the file, or line 1. */
export function keyPlace(e: LoadedEntry, key: string): Point {
  const lines = e.text.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i] ?? '';
    if (l === '---') break;
    if (l.startsWith(`${key}:`)) return { line: i + 1, column: 1 };
  }
  return { line: 1, column: 1 };
}

/** Place of a string inside the frontmatter (e.g. a source_ref item), else of its key. */
export function valuePlace(e: LoadedEntry, key: string, value: string): Point {
  const lines = e.text.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i] ?? '';
    if (l === '---') break;
    const c = l.indexOf(value);
    if (c >= 0) return { line: i + 1, column: c + 1 };
  }
  return keyPlace(e, key);
}

/** Where a body position is in the file. */
export function filePoint(e: LoadedEntry, line: number, column: number): Point {
  return { line: line + bodyLineOffset(e), column };
}

export function wikiFile(e: LoadedEntry): string {
  return `wiki/${e.path}`;
}

/** The body without the regenerated backlinks section (links there do not count as links). */
export function ownBody(body: string): string {
  const span = findSection(body, 'backlinks');
  if (!span) return body;
  // Keep line numbers: blank out the section instead of cutting it.
  return body.slice(0, span.start) + body.slice(span.start, span.end).replace(/[^\n]/g, ' ') + body.slice(span.end);
}

/** Wiki links of an entry outside its backlinks section. */
export function ownLinks(e: LoadedEntry): WikiLinkRef[] {
  return cached(linkCache, e, () => extractWikiLinks(ownBody(e.body)));
}

const linkCache = new WeakMap<LoadedEntry, WikiLinkRef[]>();
function cached<K extends object, V>(map: WeakMap<K, V>, k: K, make: () => V): V {
  let v = map.get(k);
  if (v === undefined) {
    v = make();
    map.set(k, v);
  }
  return v;
}

/** Link resolution over the vault (Obsidian: base name or path, case-insensitive), by entry file. */
export type Resolver = LinkResolver<LoadedEntry>;

const resolverCache = new WeakMap<LintInput, Resolver>();

export function resolver(input: LintInput): Resolver {
  return cached(resolverCache, input, () => makeResolver(input.entries, input.files));
}

/** Links resolve by file name or path; `named` finds an entry by its title or an alias. */
export function makeResolver(entries: LoadedEntry[], files: string[]): Resolver {
  return linkResolver(entries, (e) => e.path, {
    files,
    namesOf: (e) => [e.fm.title, ...(e.fm.aliases ?? [])].filter((n): n is string => typeof n === 'string'),
  });
}

/** Ids of the entries each entry links to (outside backlinks sections), and the reverse. */
export function linkGraph(input: LintInput): { out: Map<string, Set<string>>; in: Map<string, Set<string>> } {
  return cached(graphCache, input, () => {
    const r = resolver(input);
    const out = new Map<string, Set<string>>();
    const inn = new Map<string, Set<string>>();
    for (const e of input.entries) {
      const set = new Set<string>();
      // The scan cache knows the targets of an unchanged entry: its body is not parsed for them.
      for (const target of e.ownLinks ?? ownLinks(e).map((l) => l.target)) {
        const t = r.entry(target);
        if (t && t.fm.id !== e.fm.id) set.add(t.fm.id);
      }
      out.set(e.fm.id, set);
      for (const t of set) (inn.get(t) ?? inn.set(t, new Set()).get(t)!).add(e.fm.id);
    }
    return { out, in: inn };
  });
}
const graphCache = new WeakMap<LintInput, { out: Map<string, Set<string>>; in: Map<string, Set<string>> }>();

/**
 * Link targets listed in an entry's backlinks section, as link keys; null without the section.
 * An entry the scan cache knows to have none (its own links are all its links) is not read.
 */
export function entryBacklinkTargets(e: LoadedEntry): string[] | null {
  if (e.ownLinks && e.ownLinks === e.links) return null;
  return backlinkSectionTargets(e.body);
}

/** Link targets listed in the backlinks section, as link keys. */
export function backlinkSectionTargets(body: string): string[] | null {
  const s = getSection(body, 'backlinks');
  if (s === null) return null;
  return extractWikiLinks(s).map((l) => linkKey(l.target));
}

/**
 * An entry file for examples and tests: frontmatter defaults filled in, `content_hash` computed
 * from the body (so it counts as written by kb unless `edited` is set).
 */
export function exampleEntry(
  fm: Partial<EntryFrontmatter> & { title: string },
  body: string,
  opts: { edited?: boolean } = {},
): string {
  const kind = fm.kind ?? 'concept';
  const slug = fm.title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');
  const full: EntryFrontmatter = {
    id: (fm.id ?? `${kind}/${slug}`) as EntryFrontmatter['id'],
    kind,
    aliases: [],
    summary: `${fm.title} in one paragraph.`,
    source_ref: [],
    entities: [],
    backlinks: [],
    version: 1,
    last_heal_timestamp: '',
    content_hash: '',
    ...fm,
  };
  full.content_hash = opts.edited ? '0'.repeat(64) : bodyHash(body);
  return stringifyEntry(full, body);
}
