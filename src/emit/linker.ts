import { linkKey } from '../entry/names.js';

/** A name that should link somewhere: a title or alias, and the file name it resolves to. */
export interface LinkName {
  name: string;
  file: string;
  id: string;
}

export interface NameTable {
  /** linkKey(name) → target. Ambiguous names (two entries) are left out. */
  byKey: Map<string, LinkName>;
  regex: RegExp | null;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function buildNameTable(names: LinkName[]): NameTable {
  const byKey = new Map<string, LinkName>();
  const ambiguous = new Set<string>();
  for (const n of names) {
    const k = linkKey(n.name);
    if (Array.from(k).length < 2) continue;
    // Two Han characters are usually a common word (检索, 模型), too loose to link by.
    if (/^[\u3400-\u9fff]{2}$/.test(k) && n.name !== n.file) continue;
    const had = byKey.get(k);
    if (had && had.id !== n.id) ambiguous.add(k);
    else byKey.set(k, n);
  }
  for (const k of ambiguous) byKey.delete(k);
  const alts = [...byKey.values()]
    .map((n) => n.name)
    .filter((n) => n.length >= 2)
    .sort((a, b) => b.length - a.length)
    .map((n) => {
      const e = escapeRe(n).replace(/\s+/g, '\\s+');
      // Latin names match whole words only; Han names match anywhere.
      return /^[\p{L}\p{N}]/u.test(n) && /[A-Za-z0-9]$/.test(n) && !/^[\u3400-\u9fff]/.test(n) ? `(?<![\\p{L}\\p{N}_])${e}(?![\\p{L}\\p{N}_])` : e;
    });
  return { byKey, regex: alts.length ? new RegExp(alts.join('|'), 'giu') : null };
}

/** Split Markdown into pieces where links may be added (plain text) and pieces to keep as they are. */
function protectedSpans(md: string): [number, number][] {
  const spans: [number, number][] = [];
  const re = /```[\s\S]*?```|~~~[\s\S]*?~~~|`[^`\n]*`|!?\[\[[^\]\n]*\]\]|!?\[[^\]\n]*\]\([^)\n]*\)|<[^>\n]+>|https?:\/\/\S+|^#{1,6} .*$|^\|.*\|$/gm;
  for (const m of md.matchAll(re)) spans.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
  return spans;
}

/**
 * Link the first mention of each known name in a Markdown text: `[[File]]` when the text is the
 * file name, `[[File|text]]` otherwise. Skips code, existing links, URLs, headings, tables,
 * the entry itself and names already linked.
 */
export function autolink(md: string, table: NameTable, selfId: string, already: Set<string> = new Set()): string {
  if (!table.regex) return md;
  const spans = protectedSpans(md);
  let out = '';
  let last = 0;
  let spanIdx = 0;
  table.regex.lastIndex = 0;
  for (const m of md.matchAll(table.regex)) {
    const start = m.index ?? 0;
    const end = start + m[0].length;
    while (spanIdx < spans.length && spans[spanIdx]![1] <= start) spanIdx++;
    const span = spans[spanIdx];
    if (span && span[0] < end && start < span[1]) continue;
    const target = table.byKey.get(linkKey(m[0].replace(/\s+/g, ' ')));
    if (!target || target.id === selfId || already.has(target.id)) continue;
    already.add(target.id);
    out += md.slice(last, start) + linkMarkup(target.file, m[0]);
    last = end;
  }
  return out + md.slice(last);
}

export function linkMarkup(file: string, shown: string): string {
  return linkKey(file) === linkKey(shown) && file === shown ? `[[${file}]]` : `[[${file}|${shown.replace(/[[\]|]/g, ' ')}]]`;
}

/**
 * Check every `[[link]]` of a text against the wiki: a link naming an entry by title or alias is
 * pointed at its file; a link to nothing becomes plain text (so no link ever dangles).
 * Returns the new text and the ids it links to.
 */
export function resolveLinks(
  md: string,
  lookup: (target: string) => LinkName | undefined,
  attachments: ReadonlySet<string> = new Set(),
): { text: string; links: string[] } {
  const links = new Set<string>();
  const text = md.replace(/(!?)\[\[([^\]\n|#]*)(#[^\]\n|]*)?(?:\|([^\]\n]*))?\]\]/g, (whole, bang: string, target: string, heading: string | undefined, alias: string | undefined) => {
    const t = target.trim();
    if (bang && attachments.has(linkKey(t))) return whole;
    const hit = t ? lookup(t) : undefined;
    if (!hit) return bang ? '' : (alias ?? (t || heading?.slice(1) || ''));
    links.add(hit.id);
    const shown = alias ?? t;
    const head = heading ?? '';
    if (hit.file === t && !alias) return `${bang}[[${hit.file}${head}]]`;
    return `${bang}[[${hit.file}${head}|${shown}]]`;
  });
  return { text, links: [...links] };
}
