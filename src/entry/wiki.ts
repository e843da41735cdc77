import { migrateDates } from './dates.js';
import { type Dirent, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { EntryFrontmatter, EntryKind, WikiPath } from '../types.js';
import { bodyHash, entryBody, parseEntryFile, stringifyEntry } from './frontmatter.js';
import { sha256 } from '../util/hash.js';
import { KIND_FOLDER } from './names.js';
import { schemaErrors } from './validate.js';
import type { ValidateFunction } from 'ajv';
import { writeFileAtomic } from '../util/atomic.js';
import { KbError } from '../diagnostics/errors.js';
import { extractWikiLinks } from '../parse/links.js';
import { findSection } from './markers.js';
import type { EncodedScanRow, ScanRow } from './scan-row.js';

export { encodeScanRow, type EncodedScanRow, type ScanRow } from './scan-row.js';

/** An entry file as found on disk. */
export interface LoadedEntry {
  path: WikiPath;
  fm: EntryFrontmatter;
  body: string;
  /** The body no longer matches the hash kb recorded: a person edited it. */
  humanEdited: boolean;
  text: string;
  /** The targets of the body's wiki links when the scan cache knew them (the body was not read). */
  links?: string[];
  /**
   * The targets of the links outside kb's Backlinks section, when the scan cache knew them; the
   * same array as `links` when the body has no such section.
   */
  ownLinks?: string[];
}

export interface WikiScan {
  entries: LoadedEntry[];
  /** Markdown files under the entry folders kb cannot read as entries (kept, never touched). */
  foreign: { path: WikiPath; reason: string }[];
  /** Every file in the vault (relative paths), for link resolution. */
  files: string[];
}

const KINDS: EntryKind[] = ['source', 'concept', 'answer'];

function listFiles(dir: string, rel: string, out: string[]): void {
  let items: Dirent[];
  try {
    items = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const it of items) {
    if (it.name.startsWith('.')) continue;
    const r = rel ? `${rel}/${it.name}` : it.name;
    if (it.isDirectory()) listFiles(join(dir, it.name), r, out);
    else if (it.isFile()) out.push(r);
  }
}

export interface ScanCache {
  /** The row recorded for a file, handed over once: a second ask for the same file gets nothing. */
  get(path: string): ScanRow | undefined;
  put(path: string, row: ScanRow | EncodedScanRow): void;
  /**
   * Rows put while their file's mtime (under wikiDir) was still within its tick (recorded as untrusted) are
   * trusted once the tick has passed and the file's size and mtime are still as recorded.
   */
  settle?(wikiDir: string, now?: number): void;
}

function loadEntry(text: string): { fm: EntryFrontmatter; body: string } | { reason: string } {
  try {
    const { data, body } = parseEntryFile(text);
    if (typeof data['id'] !== 'string' || typeof data['kind'] !== 'string')
      return { reason: 'no kb frontmatter (id, kind)' };
    return { fm: migrateDates(data) as EntryFrontmatter, body };
  } catch (err) {
    return { reason: `unreadable frontmatter: ${(err as Error).message.split('\n')[0]}` };
  }
}

/** The targets of a body's wiki links, in order ('' for a link to a heading of the same entry). */
export function bodyLinkTargets(body: string): string[] {
  return extractWikiLinks(body).map((l) => l.target);
}

/**
 * The targets of a body's links outside kb's Backlinks section (links there are kb's list of who
 * links here, not the entry's own): `links` itself when the body has no such section.
 */
export function ownLinkTargets(body: string, links: string[]): string[] {
  const span = findSection(body, 'backlinks');
  return span ? bodyLinkTargets(body.slice(0, span.start) + body.slice(span.end)) : links;
}

/** The raw files an entry cites (`raw/…`), as strings whatever its frontmatter holds. */
export function sourceRefs(e: Pick<LoadedEntry, 'fm'>): string[] {
  return Array.isArray(e.fm.source_ref) ? e.fm.source_ref.map(String) : [];
}

/** Link targets recorded for a cached entry. */
function withLinks(e: LoadedEntry, row: ScanRow): LoadedEntry {
  if (row.links) e.links = row.links;
  if (row.ownLinks) e.ownLinks = row.ownLinks;
  return e;
}

/**
 * Read every entry under wiki/sources, wiki/concepts and wiki/answers.
 * With a cache, files whose size and mtime did not change are not read: their frontmatter comes
 * from the cache and their body is read only if something asks for it.
 */
export function scanWiki(wikiDir: string, cache?: ScanCache): WikiScan {
  const files: string[] = [];
  listFiles(wikiDir, '', files);
  const entries: LoadedEntry[] = [];
  const foreign: WikiScan['foreign'] = [];
  const folders = new Set(KINDS.map((k) => KIND_FOLDER[k]));
  for (const f of files) {
    const top = f.split('/')[0] ?? '';
    if (!folders.has(top) || !f.endsWith('.md')) continue;
    const abs = join(wikiDir, f);
    let st: { mtimeMs: number; size: number } | undefined;
    // The cache hands each row over once (and lets its text go): it is asked once a file.
    let hit: ScanRow | undefined;
    if (cache) {
      try {
        st = statSync(abs);
      } catch {
        continue;
      }
      hit = cache.get(f);
      if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) {
        entries.push(
          withLinks(lazyEntry(abs, f as WikiPath, migrateDates(hit.fm), hit.bodyHash !== hit.fm.content_hash), hit),
        );
        continue;
      }
    }
    const text = readFileSync(abs, 'utf8');
    if (hit?.textHash && st && hit.size === st.size && sha256(text) === hit.textHash) {
      // Written too recently for its mtime to be trusted (or only touched): the same bytes as recorded.
      cache!.put(f, { ...hit, mtimeMs: st.mtimeMs });
      entries.push(
        withLinks(
          {
            path: f as WikiPath,
            fm: hit.fm,
            body: entryBody(text),
            humanEdited: hit.bodyHash !== hit.fm.content_hash,
            text,
          },
          hit,
        ),
      );
      continue;
    }
    const loaded = loadEntry(text);
    if ('reason' in loaded) {
      foreign.push({ path: f as WikiPath, reason: loaded.reason });
      continue;
    }
    const h = bodyHash(loaded.body);
    if (cache && st) {
      const links = bodyLinkTargets(loaded.body);
      const ownLinks = ownLinkTargets(loaded.body, links);
      cache.put(f, {
        mtimeMs: st.mtimeMs,
        size: st.size,
        fm: loaded.fm,
        bodyHash: h,
        textHash: sha256(text),
        links,
        ownLinks,
      });
    }
    entries.push({
      path: f as WikiPath,
      fm: loaded.fm,
      body: loaded.body,
      humanEdited: h !== loaded.fm.content_hash,
      text,
    });
  }
  return { entries, foreign, files };
}

const LET_GO = Symbol('let the text go');

/**
 * An entry the scan read from its cache lets go of its text once read (asked again, it reads its
 * file again): a compile that rewrites every entry compares each with what it writes, and the old
 * texts, kept, would take ~90 MB at 10,000 entries. An entry parsed from its file keeps its text.
 */
export function letTextGo(e: LoadedEntry): void {
  (e as { [LET_GO]?: () => void })[LET_GO]?.();
}

/** An entry whose body and text are read from disk the first time they are asked for. */
function lazyEntry(abs: string, path: WikiPath, fm: EntryFrontmatter, humanEdited: boolean): LoadedEntry {
  let loaded: { body: string; text: string } | undefined;
  const load = () => {
    if (!loaded) {
      const text = readFileSync(abs, 'utf8');
      // The frontmatter is known (the cache): split off the body without parsing the YAML again.
      loaded = { text, body: entryBody(text) };
    }
    return loaded;
  };
  const e = { path, fm, humanEdited } as LoadedEntry;
  Object.defineProperty(e, 'body', { get: () => load().body, enumerable: true });
  Object.defineProperty(e, 'text', { get: () => load().text, enumerable: true });
  Object.defineProperty(e, LET_GO, {
    value: () => {
      loaded = undefined;
    },
  });
  return e;
}

/**
 * Write an entry: frontmatter validated against the schema first (an invalid entry is never
 * written), then the file written whole (temp file + rename). Returns the file text.
 */
export function writeEntry(
  wikiDir: string,
  path: string,
  fm: EntryFrontmatter,
  body: string,
  validate: ValidateFunction,
): string {
  fm.content_hash = bodyHash(body);
  const errors = schemaErrors(validate, fm);
  if (errors.length)
    throw new KbError(`wiki/${path}: entry does not match schemas/wiki-entry.schema.json: ${errors.join('; ')}`);
  const text = stringifyEntry(fm, body);
  writeFileAtomic(join(wikiDir, path), text);
  return text;
}

export function removeEntryFile(wikiDir: string, path: string): void {
  const abs = join(wikiDir, path);
  if (existsSync(abs)) rmSync(abs);
}

/**
 * The aliases an entry keeps from one compile to the next: a person's (they edited it) or a model's
 * (it wrote them); those of the offline compiler are made again from the sources every run, so an
 * older kb's mistake does not stay.
 */
export function keptAliases(e: LoadedEntry): string[] {
  return e.humanEdited || !compiledOffline(e) ? (e.fm.aliases ?? []) : [];
}

/** Whether the offline compiler wrote the entry. */
export function compiledOffline(e: Pick<LoadedEntry, 'fm'>): boolean {
  return String(e.fm.compiled_by ?? '').startsWith('offline');
}
