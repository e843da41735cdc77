import { linkKey } from '../entry/names.js';
import { linkMarkup } from '../entry/links.js';
import { cutZh } from '../text/jieba.js';
import * as EN from '../text/lang/en.js';

/** A name that should link somewhere: a title or alias, and the file name it resolves to. */
export interface LinkName {
  name: string;
  file: string;
  id: string;
}

export interface NameTable {
  /** linkKey(name) → target. Ambiguous names (two entries) are left out. */
  byKey: Map<string, LinkName>;
  /**
   * First word (Latin) or first two characters (Han) of each name → the distinct lengths of the names
   * starting so, longest first: a position is tried once per length, not once per name (thousands
   * of titles can start with one word).
   */
  lengths: Map<string, number[]>;
}

const HAN_START = /^[\u3400-\u9fff]/;

function startKey(lowerName: string): string {
  if (HAN_START.test(lowerName)) return lowerName.slice(0, 2);
  return /^(?:(?![\u3400-\u9fff])[\p{L}\p{N}_])+/u.exec(lowerName)?.[0] ?? lowerName.slice(0, 1);
}

export function buildNameTable(names: LinkName[]): NameTable {
  const byKey = new Map<string, LinkName>();
  const ambiguous = new Set<string>();
  // A file's own name is what Obsidian resolves a link by: another entry's title or alias spelt the
  // same ("Harness design…" beside "Harness Design….md") never takes it away.
  const fileKeys = new Set(names.filter((n) => n.name === n.file).map((n) => linkKey(n.name).replace(/\s+/g, ' ')));
  for (const n of names) {
    const k = linkKey(n.name).replace(/\s+/g, ' ');
    if (Array.from(k).length < 2) continue;
    // Two Han characters are usually a common word (检索, 模型), too loose to link by.
    if (/^[\u3400-\u9fff]{2}$/.test(k) && n.name !== n.file) continue;
    // A function word is never a link ("to", "which"), whatever an entry calls itself.
    if (EN.STOP.has(k)) continue;
    const had = byKey.get(k);
    if (fileKeys.has(k) && n.name !== n.file) continue;
    if (had && had.id !== n.id) ambiguous.add(k);
    else byKey.set(k, n);
  }
  for (const k of ambiguous) byKey.delete(k);
  // Start → the distinct lengths of the names starting so, longest first.
  const lengths = new Map<string, number[]>();
  for (const k of byKey.keys()) {
    const s = startKey(k);
    const list = lengths.get(s) ?? [];
    if (!list.includes(k.length)) list.push(k.length);
    lengths.set(s, list);
  }
  for (const list of lengths.values()) list.sort((a, b) => b - a);
  return { byKey, lengths };
}

/** A letter or digit of a Latin word: Han characters are word boundaries for Latin names. */
export const WORDCHAR = /(?![\u3400-\u9fff])[\p{L}\p{N}_]/u;
const LATIN_WORD = /^(?:(?![\u3400-\u9fff])[\p{L}\p{N}_])+/u;

/**
 * Where jieba puts word boundaries in the line around `at`: a Chinese name links only when it
 * starts and ends on one (never 生成[[文档字符]]串, where the words are 文档 and 字符串).
 */
function zhBoundaries(text: string, at: number, cache: Map<number, Set<number>>): Set<number> {
  const start = text.lastIndexOf('\n', at) + 1;
  let set = cache.get(start);
  if (!set) {
    const end = text.indexOf('\n', at);
    const line = text.slice(start, end < 0 ? text.length : end);
    set = new Set([start]);
    let pos = start;
    for (const w of cutZh(line)) {
      pos += w.length;
      set.add(pos);
    }
    cache.set(start, set);
  }
  return set;
}

/** A capitalised one-word name ("Pipeline", "Provides") links only where the text capitalises it too. */
function caseFits(text: string, i: number, target: LinkName | undefined): boolean {
  if (!target || /\s/.test(target.name) || !/^\p{Lu}/u.test(target.name)) return true;
  return /^\p{Lu}/u.test(text[i] ?? '');
}

/** Whether the word at i follows a hyphen that joins it to a word before. */
function afterHyphen(lower: string, i: number): boolean {
  return i >= 2 && lower[i - 1] === '-' && WORDCHAR.test(lower[i - 2]!);
}

/**
 * Mentions of known names in a text, left to right, longest match first, no overlaps. None starts
 * in a protected span (`spans`, in order): a concept page's list of thousands of sources is links
 * only, and reading each of its lines for names cut every one with jieba.
 */
function findMentions(
  text: string,
  table: NameTable,
  spans: readonly [number, number][],
): { start: number; end: number; key: string }[] {
  const lower = text.toLowerCase();
  const out: { start: number; end: number; key: string }[] = [];
  const zhCache = new Map<number, Set<number>>();
  let i = 0;
  let next = 0;
  while (i < lower.length) {
    while (next < spans.length && spans[next]![1] <= i) next++;
    if (next < spans.length && spans[next]![0] <= i) {
      i = spans[next]![1];
      continue;
    }
    const ch = lower[i]!;
    let start: string | undefined;
    const han = HAN_START.test(ch);
    if (han) start = lower.slice(i, i + 2);
    // …nor the tail of a hyphenated word: "embedding" in text-embedding-3-small, "attention" in self-attention.
    else if (WORDCHAR.test(ch) && (i === 0 || !WORDCHAR.test(lower[i - 1]!)) && !afterHyphen(lower, i)) {
      start = LATIN_WORD.exec(lower.slice(i, i + 64))?.[0] ?? ch;
    }
    const lens = start === undefined ? undefined : table.lengths.get(start);
    let hit: string | undefined;
    if (lens) {
      for (const len of lens) {
        // The name of this length at i, if any: it starts with the same word or characters.
        const c = lower.slice(i, i + len);
        if (c.length < len || !table.byKey.has(c) || startKey(c) !== start) continue;
        const after = lower[i + c.length];
        // A Latin name must end at a word boundary ("RAG" not inside "RAGs" or "storage").
        if (after && WORDCHAR.test(c[c.length - 1]!) && WORDCHAR.test(after)) continue;
        if (!caseFits(text, i, table.byKey.get(c))) continue;
        if (han || HAN_START.test(c[c.length - 1]!)) {
          const b = zhBoundaries(text, i, zhCache);
          if ((han && !b.has(i)) || (HAN_START.test(c[c.length - 1]!) && !b.has(i + c.length))) continue;
        }
        hit = c;
        break;
      }
    }
    if (hit) {
      out.push({ start: i, end: i + hit.length, key: hit });
      i += hit.length;
    } else i++;
  }
  return out;
}

/** Fenced and inline code: what it holds is shown as written, never linked. */
const CODE = /```[\s\S]*?```|~~~[\s\S]*?~~~|`[^`\n]*`/.source;
// No class holds the bracket that opens its match: a try stops at the next opener (linear on `[[[[…`).
const PROTECTED = new RegExp(
  `${CODE}|!?\\[\\[[^[\\]\\n]*\\]\\]|!?\\[[^[\\]\\n]*\\]\\((?:[^()\\n]|\\([^()\\n]*\\))*\\)|<[^<>\\n]+>|https?:\\/\\/\\S+|^#{1,6} .*$|^\\|.*\\|$`,
  'gm',
);

function spansOf(md: string, re: RegExp): [number, number][] {
  return [...md.matchAll(re)].map((m) => [m.index ?? 0, (m.index ?? 0) + m[0].length]);
}

/** Split Markdown into pieces where links may be added (plain text) and pieces to keep as they are. */
function protectedSpans(md: string): [number, number][] {
  return spansOf(md, PROTECTED);
}

/**
 * Link the first mention of each known name in a Markdown text: `[[File]]` when the text is the
 * file name, `[[File|text]]` otherwise. Skips code, existing links, URLs, headings, tables,
 * the entry itself and names already linked.
 */
export function autolink(md: string, table: NameTable, selfId: string, already: Set<string> = new Set()): string {
  if (table.byKey.size === 0) return md;
  const spans = protectedSpans(md);
  let out = '';
  let last = 0;
  let spanIdx = 0;
  for (const m of findMentions(md, table, spans)) {
    while (spanIdx < spans.length && spans[spanIdx]![1] <= m.start) spanIdx++;
    const span = spans[spanIdx];
    if (span && span[0] < m.end && m.start < span[1]) continue;
    // Inside brackets (`[Opus 4.6] plans…`) a link would read as `[[[Opus]] 4.6]`, a link to `[Opus`.
    if (md[m.start - 1] === '[' || md[m.end] === ']') continue;
    const target = table.byKey.get(m.key);
    if (!target || target.id === selfId || already.has(target.id)) continue;
    already.add(target.id);
    out += md.slice(last, m.start) + linkMarkup(target.file, md.slice(m.start, m.end));
    last = m.end;
  }
  return out + md.slice(last);
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
  // `[[倒数排名融合]]` in code shows the syntax: no link, as Obsidian and lint read it.
  const code = spansOf(md, new RegExp(CODE, 'g'));
  let k = 0;
  const text = md.replace(
    /(!?)\[\[([^[\]\n|#]*)(#[^[\]\n|]*)?(?:\|([^[\]\n]*))?\]\]/g,
    (whole, bang: string, target: string, heading: string | undefined, alias: string | undefined, at: number) => {
      // Matches come in order: one pass over the code spans.
      while (k < code.length && code[k]![1]! <= at) k++;
      if (k < code.length && code[k]![0]! <= at) return whole;
      const t = target.trim();
      if (bang && attachments.has(linkKey(t))) return whole;
      const hit = t ? lookup(t) : undefined;
      if (!hit) return bang ? '' : (alias ?? (t || heading?.slice(1) || ''));
      links.add(hit.id);
      const shown = alias ?? t;
      const head = heading ?? '';
      if (hit.file === t && !alias) return `${bang}[[${hit.file}${head}]]`;
      return `${bang}[[${hit.file}${head}|${shown}]]`;
    },
  );
  return { text, links: [...links] };
}
