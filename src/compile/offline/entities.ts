import { HAN } from '../../text/script.js';
import { segmentWords, sentences } from '../../text/segment.js';
import { cutComments } from '../../text/comments.js';
import { EN_STOP, ZH_STOP, CAP_STOP } from '../../text/stopwords.js';
import { entityKey } from '../../entry/names.js';

/** An entity found in one document. */
export interface FoundEntity {
  /** Matching key: NFKC, lowercase, singular, spaces collapsed. */
  key: string;
  /** The form written in the document most often. */
  surface: string;
  /** Other names the document gives it: `Full Name (ABBR)`, `中文（English）`. */
  aliases: string[];
  count: number;
  /** Up to three sentences that mention it, best first. */
  snippets: string[];
}

interface Candidate {
  surfaces: Map<string, number>;
  count: number;
  aliases: Set<string>;
  strong: boolean;
}

/*
 * Every pattern here runs on whole documents, where one line may be megabytes long: each must be
 * linear. A match may only start where a word starts (a lookbehind), so a long word is scanned
 * once, not once per letter; and the words inside a match are bounded (no name has a 40-letter
 * word), so a try that fails costs a few dozen steps.
 */
const ACRONYM = /\b[A-Z][A-Za-z]{0,40}[A-Z][A-Z0-9]{0,20}s?\b|\b[A-Z]{2,40}[0-9]{0,10}\b/g;
/** A capitalised word: Han may stand right before it ("使用Transformer"), a Latin letter may not. */
const CAP_WORD = String.raw`(?<![\w\u00C0-\u024F])[A-Z][\p{L}\p{N}]{0,40}(?:-[A-Za-z][\p{L}\p{N}]{0,40}){0,4}(?![\p{L}\p{N}])`;
const CAP_PHRASE = new RegExp(String.raw`${CAP_WORD}(?:[ \t]+(?:(?:of|and|for|the|in|de|von|van)[ \t]+)?${CAP_WORD}){0,4}`, 'gu');
const PAREN_EN = /(?<![A-Za-z])([A-Za-z][\p{L}\p{N}-]{0,40}(?:[ \t]+[A-Za-z][\p{L}\p{N}-]{0,40}){0,6})[ \t]*[（(][ \t]*([A-Z][A-Za-z0-9-]{1,10})[ \t]*[)）]/gu;
const PAREN_ZH = /([\u3400-\u9fff]{2,16})[ \t]*[（(][ \t]*([A-Za-z][A-Za-z0-9 .\-,，;；、]{1,60}?)[ \t]*[)）]/gu;
const PAREN_EN_ZH = /(?<![A-Za-z])([A-Za-z][A-Za-z0-9.\-]{0,40}(?:[ \t][A-Za-z][A-Za-z0-9.\-]{0,40}){0,4})[ \t]*[（(][ \t]*([\u3400-\u9fff]{2,10})[ \t]*[)）]/gu;
const EMPHASIS = /\*\*([^*\n]{2,60})\*\*|__([^_\n]{2,60})__|《([^》\n]{2,30})》|「([^」\n]{2,30})」|\[\[([^[\]|#\n]{2,60})(?:[|#][^[\]\n]{0,200})?\]\]/g;
/** Distinct names from parentheses and emphasis that are counted or checked by a search of the whole text: more than any real page has. */
const MAX_COUNTED = 300;

const lowerPhraseCache = new Map<string, boolean>();
/** Function characters that never start or end a Chinese term. */
const ZH_EDGE = /^[而不是的了在和与也就都及或把被让给对从向以之其这那个些种]|[而不是的了在和与也就都及或把被让给对从向以之其这那个些种]$/;

function isStopCap(word: string): boolean {
  return CAP_STOP.has(word.toLowerCase());
}

function clean(s: string): string {
  return s.replace(/\s+/g, ' ').replace(/^[\s\p{P}]+|(?<![\s\p{P}])[\s\p{P}]+$/gu, '').trim();
}

function validName(name: string): boolean {
  if (name.length < 2 || name.length > 60) return false;
  // Something to read: two letters in a row (Latin or Han), not an id like `21/3d7a`.
  if (!/[A-Za-z]{2}|[\u3400-\u9fff]{2}/.test(name)) return false;
  if (/^[\d\s/.:-]+[a-z\d]*$/i.test(name) && /\d/.test(name)) return false;
  if (/^\d+$/.test(name)) return false;
  if (/^[\p{P}\p{S}\s]+$/u.test(name)) return false;
  if (/https?:|www\.|\.(?:com|org|io|md|png)$/i.test(name)) return false;
  const k = name.toLowerCase();
  if (EN_STOP.has(k) || ZH_STOP.has(name)) return false;
  return true;
}

/**
 * Heuristic entity extraction for English and Chinese, no model: acronyms, capitalised names
 * and phrases, terms introduced with a translation or abbreviation in parentheses, emphasised
 * terms (bold, 《》, wikilinks), repeated lowercase noun phrases, and repeated Chinese compounds
 * found with the ICU word segmenter.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one pass per kind of name (acronyms, capitalised phrases, parentheses, emphasis, noun phrases, Chinese compounds) filling one candidate table
export function extractEntities(markdown: string, title: string): FoundEntity[] {
  const text = stripMarkdown(markdown);
  const titleKey = entityKey(title);
  const cands = new Map<string, Candidate>();
  const add = (name: string, strong: boolean, n = 1): Candidate | undefined => {
    const surface = clean(name);
    if (!validName(surface)) return undefined;
    const key = entityKey(surface);
    if (!key || key === titleKey) return undefined;
    let c = cands.get(key);
    if (!c) {
      c = { surfaces: new Map(), count: 0, aliases: new Set(), strong: false };
      cands.set(key, c);
    }
    c.surfaces.set(surface, (c.surfaces.get(surface) ?? 0) + n);
    c.count += n;
    c.strong ||= strong;
    return c;
  };
  const pairAlias = (main: string, alias: string) => {
    const c = add(main, true, 0);
    const a = clean(alias);
    if (c && validName(a) && entityKey(a) !== entityKey(main)) c.aliases.add(a);
  };

  // Names given with an abbreviation or translation: strongest signal, and the alias pairs.
  for (const m of text.matchAll(PAREN_EN)) {
    const abbr = m[2] ?? '';
    const words = (m[1] ?? '').split(/[ \t]+/);
    // The shortest tail of the phrase whose initials spell the abbreviation.
    for (let k = 2; k <= words.length; k++) {
      const full = words.slice(-k).join(' ');
      if (initialsMatch(full, abbr)) {
        pairAlias(full, abbr);
        break;
      }
    }
  }
  let zhParens = 0;
  for (const m of text.matchAll(PAREN_ZH)) {
    // Each one searches the whole text: a bounded number keeps a page of thousands linear.
    if (++zhParens > MAX_COUNTED) break;
    const zh = trimZhPrefix(m[1] ?? '', text);
    // "倒数排名融合（Reciprocal Rank Fusion，RRF）": every name in the parentheses is an alias.
    for (const alias of (m[2] ?? '').split(/[,，;；、]/)) if (alias.trim()) pairAlias(zh, alias.trim());
  }
  for (const m of text.matchAll(PAREN_EN_ZH)) pairAlias(trimLeadingStop(m[1] ?? ''), m[2] ?? '');

  for (const m of markdown.matchAll(EMPHASIS)) {
    const t = m.slice(1).find(Boolean) ?? '';
    if (t.split(/\s+/).length <= 5 && !/[.。,，:：]$/.test(t)) add(t, true, 0);
  }

  for (const sentence of sentences(text)) {
    // Acronyms and CamelCase names (RAG, BM25, SQLite, FTS5); two letters are too ambiguous (DB, GB).
    for (const m of sentence.matchAll(ACRONYM)) {
      const w = m[0].replace(/s$/, (s) => (/[A-Z]{2,}s$/.test(m[0]) ? '' : s));
      if (w.length >= 3 && !isStopCap(w) && !/^[IVXLC]+$/.test(w)) add(w, false);
    }
    // Capitalised phrases; a single capitalised word only when not sentence-initial.
    for (const m of sentence.matchAll(CAP_PHRASE)) {
      let phrase = m[0];
      const words = phrase.split(/\s+/);
      let shifted = false;
      while (words.length && isStopCap(words[0]!)) {
        words.shift();
        shifted = true;
      }
      while (words.length && /^(of|and|for|the|in|de|von|van)$/.test(words[words.length - 1]!)) words.pop();
      if (!words.length) continue;
      phrase = words.join(' ');
      const initial = !shifted && ((m.index ?? 0) === 0 || sentence.slice(0, m.index).trim() === '');
      if (words.length === 1) {
        if (initial || /^[A-Z]{2,}/.test(phrase)) continue; // acronyms handled above
        if (phrase.length < 3) continue;
      }
      add(phrase, false);
    }
  }

  // Repeated lowercase English noun phrases ("vector database", "word segmentation").
  for (const [phrase, n] of lowerPhrases(text)) if (n >= 2) add(phrase, false, n);

  // Chinese compounds from the word segmenter.
  if (HAN.test(text)) for (const [term, n] of chineseTerms(text)) add(term, false, n);

  // Count real mentions for emphasised / paired names that were added with 0: each count reads the
  // whole text, so only so many are counted; the rest keep the one mention that made them.
  const lower = text.toLowerCase();
  let counted = 0;
  for (const c of cands.values()) {
    if (c.count === 0 && ++counted > MAX_COUNTED) c.count = 1;
    else if (c.count === 0) {
      let n = 0;
      for (const s of c.surfaces.keys()) n += countOccurrences(lower, s.toLowerCase());
      for (const a of c.aliases) n += countOccurrences(lower, a.toLowerCase());
      c.count = Math.max(1, n);
    }
  }

  // An abbreviation or translation seen on its own joins the name it was given for.
  for (const [key, c] of cands) {
    for (const a of c.aliases) {
      const ak = entityKey(a);
      const other = cands.get(ak);
      if (!other || other === c) continue;
      for (const [s, n] of other.surfaces) {
        c.aliases.add(s);
        c.count += n;
      }
      cands.delete(ak);
    }
    void key;
  }

  // Drop terms that only ever occur inside a longer candidate. That compares every pair: on a long
  // text, only the candidates that could still make the final list take part.
  if (cands.size > MAX_COMPARED) {
    const keep = new Set([...cands].sort((a, b) => rank(b[1]) - rank(a[1]) || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_COMPARED).map(([k]) => k));
    for (const k of [...cands.keys()]) if (!keep.has(k)) cands.delete(k);
  }
  const keys = [...cands.keys()];
  for (const k of keys) {
    const c = cands.get(k)!;
    if (c.strong || c.aliases.size) continue;
    for (const other of keys) {
      if (other === k || other.length <= k.length) continue;
      const o = cands.get(other);
      if (!o || !other.includes(k)) continue;
      if (o.count >= c.count * 0.7) {
        cands.delete(k);
        break;
      }
    }
  }

  const kept: [string, Candidate][] = [];
  for (const [key, c] of cands) {
    // Weak single mentions are noise; keep them only when strong or repeated.
    if (!c.strong && c.count < 2 && !isAcronymLike(key, c)) continue;
    kept.push([key, c]);
  }
  kept.sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0]));
  // What a document says about a name is in its sentences, not in its headings.
  const sents = sentences(stripMarkdown(markdown.replace(/^\s{0,3}#{1,6}\s.*$/gm, ''))).map((s) => ({ s, lower: s.toLowerCase() }));
  // Snippets read every sentence: only for the names returned.
  return kept.slice(0, MAX_ENTITIES).map(([key, c]) => {
    const surface = [...c.surfaces.entries()].sort((a, b) => b[1] - a[1] || b[0].length - a[0].length)[0]![0];
    const names = [surface, ...c.surfaces.keys(), ...c.aliases].map((s) => s.toLowerCase());
    return {
      key,
      surface,
      aliases: [...new Set([...c.aliases, ...[...c.surfaces.keys()].filter((s) => s !== surface && entityKey(s) !== key)])],
      count: c.count,
      snippets: pickSnippets(sents, names),
    };
  });
}

const MAX_ENTITIES = 60;
/** Candidates compared pairwise for containment (a million comparisons at most). */
const MAX_COMPARED = 1000;

/** What makes a candidate likely to be kept: strong first, then by mentions. */
function rank(c: Candidate): number {
  return (c.strong || c.aliases.size ? 1e9 : 0) + c.count;
}

function isAcronymLike(key: string, c: Candidate): boolean {
  const s = [...c.surfaces.keys()][0] ?? '';
  return /^[A-Z][A-Za-z0-9]*[A-Z0-9]/.test(s) && key.length >= 2;
}

function trimLeadingStop(phrase: string): string {
  const words = phrase.trim().split(/\s+/);
  while (words.length > 1 && (EN_STOP.has(words[0]!.toLowerCase()) || isStopCap(words[0]!))) words.shift();
  return words.join(' ');
}

/** Chinese before a parenthesis often carries a verb or particle in front: keep the tail. */
function trimZhPrefix(s: string, text: string): string {
  const segs = segmentWords(s).filter((w) => w.isWord).map((w) => w.text);
  // The longest tail of up to three words that the text uses again elsewhere:
  // "我们使用检索增强生成（RAG）" → "检索增强生成".
  for (let k = Math.min(3, segs.length); k >= 1; k--) {
    const tail = segs.slice(-k).join('');
    if (ZH_STOP.has(segs[segs.length - k]!)) continue;
    if (tail.length >= 3 && countOccurrences(text, tail, 2) >= 2) return tail;
  }
  const tail = segs.slice(-Math.min(3, segs.length));
  while (tail.length > 1 && ZH_STOP.has(tail[0]!)) tail.shift();
  return tail.join('') || s;
}

function initialsMatch(full: string, abbr: string): boolean {
  const letters = abbr.replace(/[^A-Za-z]/g, '').toLowerCase();
  const initials = full
    .split(/[\s-]+/)
    .filter((w) => !/^(of|and|for|the|in)$/i.test(w))
    .map((w) => w[0]?.toLowerCase() ?? '')
    .join('');
  if (!letters) return false;
  // All letters of the abbreviation appear, in order, among the words' initials.
  let i = 0;
  for (const ch of initials) if (ch === letters[i]) i++;
  return i >= Math.min(letters.length, 2) && letters[0] === initials[0];
}

function countOccurrences(hay: string, needle: string, stopAt = Infinity): number {
  if (!needle) return 0;
  let n = 0;
  for (let i = hay.indexOf(needle); i >= 0 && n < stopAt; i = hay.indexOf(needle, i + needle.length)) n++;
  return n;
}

interface Sentence {
  s: string;
  lower: string;
}

function pickSnippets(sents: Sentence[], names: string[]): string[] {
  const keys = [...new Set(names.filter(Boolean))];
  const defining = keys.map((n) => new RegExp(`^${escapeRe(n)}\\b.*\\b(is|are|was|means|refers)\\b`, 'i'));
  const hits: { s: string; score: number; i: number }[] = [];
  sents.forEach(({ s, lower }, i) => {
    if (s.length < 12 || !keys.some((n) => lower.includes(n))) return;
    if (/^\s*;|\s;\s.*\s;\s/.test(s)) return; // a table row, not a sentence
    let score = 0;
    if (defining.some((re) => re.test(lower))) score += 3;
    if (/是|指|即|称为/.test(s)) score += 1;
    if (s.length > 400) score -= 2;
    hits.push({ s: s.length > 400 ? `${s.slice(0, 397)}…` : s, score, i });
  });
  return hits
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, 3)
    .map((h) => h.s);
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Markdown to plain sentences: no code, links reduced to their text, no markup. Linear on any
 * input: a bracket class never holds the bracket that opens the match (so a try stops at the next
 * opener), and comments are cut by `indexOf`, not by a lazy pattern that rescans for every `<!--`.
 */
export function stripMarkdown(md: string): string {
  return cutComments(md.replace(/^---\n[\s\S]*?\n---\n/, ''))
    .replace(/```[\s\S]*?```/g, '\n')
    .replace(/~~~[\s\S]*?~~~/g, '\n')
    .replace(/!\[[^[\]]*\]\((?:[^()\n]|\([^()\n]*\))*\)/g, ' ')
    .replace(/!\[\[[^[\]]*\]\]/g, ' ')
    .replace(/\[\[([^[\]|#]+)(?:#[^[\]|]*)?(?:\|([^[\]]+))?\]\]/g, (_m, a: string, b?: string) => b ?? a)
    .replace(/\[([^[\]]*)\]\((?:[^()\n]|\([^()\n]*\))*\)/g, '$1')
    // A tag opens with a letter, `/` or `!`: "<1MB … >" or "a < b … c > d" is text, not a tag to drop.
    .replace(/<[A-Za-z/!][^<>]*>/g, ' ')
    .replace(/^\s{0,3}(#{1,6}|[-*+]|\d+[.)]|>)\s+/gm, '')
    .replace(/^\|.*\|$/gm, (row) => row.replace(/\|/g, ' ; ').replace(/-{3,}/g, ''))
    .replace(/[*_`~]+/g, '');
}

/** Lowercase 2–3 word phrases without stop words, counted. */
function lowerPhrases(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const sentence of text.split(/[.!?;:,()[\]{}"“”\n。！？；：，、（）]+/)) {
    // Words as written: a phrase with a capital letter is a name, found elsewhere.
    const words = sentence.match(/(?<![\p{L}\p{N}])[a-z][a-z0-9-]*[a-z0-9](?![\p{L}\p{N}])|[A-Z][\p{L}\p{N}-]*/gu);
    if (!words || words.length < 2) continue;
    for (let n = 2; n <= 3; n++) {
      for (let i = 0; i + n <= words.length; i++) {
        const gram = words.slice(i, i + n);
        if (gram.some((w) => w.length < 3 || EN_STOP.has(w) || /^[A-Z]/.test(w))) continue;
        const phrase = gram.join(' ');
        let ok = lowerPhraseCache.get(phrase);
        if (ok === undefined) {
          ok = !/^\d/.test(phrase) && !/ly$/.test(gram[0]!) && !/(ing|ed)$/.test(gram[gram.length - 1]!);
          if (lowerPhraseCache.size < 200_000 && phrase.length <= 100) lowerPhraseCache.set(phrase, ok);
        }
        if (ok) counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
      }
    }
  }
  return counts;
}

/** Chinese terms: segmenter words of 3+ characters and compounds of adjacent words, repeated. */
function chineseTerms(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  const bump = (t: string) => counts.set(t, (counts.get(t) ?? 0) + 1);
  for (const para of text.split(/\n+/)) {
    if (!HAN.test(para)) continue;
    const segs = segmentWords(para);
    let run: string[] = [];
    const flush = () => {
      for (let i = 0; i < run.length; i++) {
        const w = run[i]!;
        if (ZH_STOP.has(w)) continue;
        if (w.length >= 2) bump(w);
        for (let n = 2; n <= 3 && i + n <= run.length; n++) {
          const parts = run.slice(i, i + n);
          if (parts.some((p) => ZH_STOP.has(p))) break;
          const term = parts.join('');
          if (term.length >= 3 && term.length <= 8) bump(term);
        }
      }
      run = [];
    };
    for (const s of segs) {
      if (s.isWord && HAN.test(s.text) && /^[\u3400-\u9fff]+$/.test(s.text)) run.push(s.text);
      else flush();
    }
    flush();
  }
  // Two-character words are mostly generic (中文, 查询, 链接): a name needs more than that,
  // unless the text emphasises it or gives a translation (handled by the caller).
  for (const [t, n] of counts) if (t.length === 2 || n < 2 || ZH_EDGE.test(t)) counts.delete(t);
  return counts;
}
