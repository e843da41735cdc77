import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { parseEntryFile } from '../entry/frontmatter.js';
import { detectLang } from '../text/script.js';
import type { EntryRow } from '../store/store.js';
import type { Catalog } from './catalog.js';
import type { Hrefs } from './html.js';
import { markdownRenderer } from './render.js';
import { wikiFile } from './files.js';

/** One source an entry is built from or quotes, with its date where it has one. */
export interface SourceFact {
  /** The source entry, when it is one (a concept's or answer's sources); else a raw/ path. */
  entry?: EntryRow;
  raw?: string;
  date?: string;
}

/** What an entry page shows. */
export interface EntryView {
  row: EntryRow;
  html: string;
  aliases: string[];
  tags: string[];
  version: number | undefined;
  updated: string | undefined;
  date: string | undefined;
  /** Its raw files (a source) or the source entries it links to, by language (a concept, an answer). */
  sources: { lang: 'en' | 'zh' | 'other'; items: SourceFact[] }[];
  backlinks: EntryRow[];
}

/** Source entries shown with their dates at most (the rest are counted in the list's heading). */
const MAX_SOURCES = 200;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const dateOf = (v: unknown): string | undefined =>
  v instanceof Date ? v.toISOString().slice(0, 10) : typeof v === 'string' && v ? v : undefined;

/** Bytes read from the top of a source entry for its `date:` (kb writes it near the top of the frontmatter). */
const HEAD_BYTES = 8192;

/**
 * A source entry's `date`, read from the head of its frontmatter without parsing all of it: a
 * concept may quote hundreds of sources, and the page must not parse hundreds of YAML blocks.
 */
function sourceDate(wikiDir: string, path: string): string | undefined {
  const abs = wikiFile(wikiDir, path);
  if (!abs) return undefined;
  let head: string;
  try {
    const fd = openSync(abs, 'r');
    try {
      const buf = Buffer.alloc(HEAD_BYTES);
      head = buf.subarray(0, readSync(fd, buf, 0, HEAD_BYTES, 0)).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const fm = /^---\n([\s\S]*?)\n---/.exec(head)?.[1] ?? head;
  return /^date: *['"]?(\d{4}-\d{2}-\d{2}[^'"\n]*)['"]?$/m.exec(fm)?.[1]?.slice(0, 10);
}

/** The attachments an embed may name: wiki/attachments/<name>, by lowercased file name. */
export function attachments(wikiDir: string): Map<string, string> {
  try {
    return new Map(
      readdirSync(join(wikiDir, 'attachments')).map((n) => [n.normalize('NFC').toLowerCase(), `attachments/${n}`]),
    );
  } catch {
    return new Map();
  }
}

/** Links of a rendered page: entries through the catalog, embeds to wiki/attachments. */
export function pageRenderer(cat: Catalog, h: Hrefs, files: Map<string, string>) {
  return markdownRenderer({
    entryHref: (name) => {
      const e = cat.resolve(name);
      return e && h.entry(e.id);
    },
    fileHref: (name) => {
      const f = files.get(name.split('/').pop()!.normalize('NFC').toLowerCase());
      return f && h.wikiFile(f);
    },
  });
}

function sourceFacts(wikiDir: string, cat: Catalog, row: EntryRow, fm: Record<string, unknown>): EntryView['sources'] {
  if (row.kind === 'source')
    return [
      {
        lang: 'other',
        items: row.source_ref.map((raw) => ({ raw, ...(dateOf(fm['date']) ? { date: dateOf(fm['date'])! } : {}) })),
      },
    ];
  const linked = (cat.links.get(row.id) ?? [])
    .map((id) => cat.byId.get(id))
    .filter((e): e is EntryRow => e?.kind === 'source');
  const groups = new Map<'en' | 'zh' | 'other', SourceFact[]>();
  for (const e of linked.slice(0, MAX_SOURCES)) {
    const l = detectLang(`${e.title} ${e.summary}`);
    const lang = l === 'mixed' ? 'other' : l;
    const date = sourceDate(wikiDir, e.path);
    (groups.get(lang) ?? groups.set(lang, []).get(lang)!).push({ entry: e, ...(date ? { date } : {}) });
  }
  return (['en', 'zh', 'other'] as const)
    .filter((l) => groups.has(l))
    .map((lang) => ({ lang, items: groups.get(lang)! }));
}

/** The page of one entry, read from its file now (so an edit shows at once), or undefined when its file is gone. */
export function entryView(
  wikiDir: string,
  cat: Catalog,
  row: EntryRow,
  render: (md: string) => string,
): EntryView | undefined {
  const abs = wikiFile(wikiDir, row.path);
  if (!abs) return undefined;
  let parsed: ReturnType<typeof parseEntryFile>;
  try {
    parsed = parseEntryFile(readFileSync(abs, 'utf8'));
  } catch {
    return undefined;
  }
  const fm = parsed.data;
  const backlinks = (cat.backlinks.get(row.id) ?? [])
    .map((id) => cat.byId.get(id))
    .filter((e): e is EntryRow => Boolean(e))
    .sort((a, b) => a.title.localeCompare(b.title));
  return {
    row,
    html: render(parsed.body),
    aliases: strings(fm['aliases']),
    tags: strings(fm['tags']),
    version: typeof fm['version'] === 'number' ? fm['version'] : undefined,
    updated: dateOf(fm['updated']),
    date: dateOf(fm['date']),
    sources: sourceFacts(wikiDir, cat, row, fm),
    backlinks,
  };
}
