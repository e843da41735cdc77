import * as EN from '../text/lang/en.js';
import { escapeRe } from '../text/lang/words.js';

/**
 * What an abbreviation stands for, as a text spells it out: the abbreviation beside its words in
 * parentheses, either way round or together — "SRS（Spaced Repetition System）", "Reciprocal Rank Fusion (RRF)",
 * "检索增强生成（Retrieval-Augmented Generation，RAG）" — the
 * words' initials spelling it (function words may be skipped: "Bill of Materials" is BOM or BM).
 */

/** An abbreviation a question names: two to ten capitals or digits, opening with a capital (SRS, BM25, HNSW). */
const ABBREVIATION = /(?<![A-Za-z0-9])[A-Z][A-Z0-9]{1,9}s?(?![A-Za-z0-9])/g;

/** The abbreviations a question names, without a plural s. */
export function abbreviationsIn(question: string): string[] {
  return [...new Set([...question.matchAll(ABBREVIATION)].map((m) => m[0].replace(/s$/, '')))];
}

/** Words left out of an abbreviation (of, and, the…) when the initials of every word do not spell it. */
const SKIPPED = new Set(['of', 'and', 'the', 'for', 'to', 'in', 'on', 'a', 'an', 'with', 'by']);

/** Whether the words' initials (with or without their function words) spell the abbreviation. */
export function spells(words: string, abbreviation: string): boolean {
  const all = words
    .split(/[\s\-‐–/]+/)
    .map((w) => w.replace(/^[^A-Za-z0-9]+/, ''))
    .filter(Boolean);
  if (all.length < 2) return false;
  const want = abbreviation.toUpperCase();
  const initials = (ws: string[]) => ws.map((w) => w[0]!.toUpperCase()).join('');
  return initials(all) === want || initials(all.filter((w) => !SKIPPED.has(w.toLowerCase()))) === want;
}

/** Whether a text spells out the abbreviation beside it, in parentheses either way round. */
export function expands(text: string, abbreviation: string): boolean {
  const a = escapeRe(abbreviation);
  const after = new RegExp(`(?<![A-Za-z0-9])${a}s?\\s*[(（]([^()（）]{3,80})[)）]`, 'g');
  const before = new RegExp(`([A-Za-z][A-Za-z0-9\\s\\-‐–/]{2,80}?)\\s*[(（]${a}s?[)）]`, 'g');
  // 检索增强生成（Retrieval-Augmented Generation，RAG）: the words and the abbreviation in one parenthesis.
  const inside = new RegExp(`[(（]([^()（）]{3,80}?)\\s*[,，]\\s*${a}s?[)）]`, 'g');
  for (const m of text.matchAll(inside)) if (spells(m[1]!.trim(), abbreviation)) return true;
  for (const m of text.matchAll(after)) if (spells(m[1]!.split(/[,，;；]/)[0]!.trim(), abbreviation)) return true;
  for (const m of text.matchAll(before)) {
    // The words just before it: as many as its letters, and as many again for function words.
    const words = m[1]!.trim().split(/\s+/);
    for (let n = 2; n <= Math.min(words.length, abbreviation.length * 2); n++)
      if (spells(words.slice(-n).join(' '), abbreviation)) return true;
  }
  return false;
}

/**
 * The abbreviations texts write for words of the question ("DL" for "dead lock", "GC" for
 * "garbage collection"): each with the question's words it spells, in their order.
 */
export function abbreviatedWords(question: string, texts: readonly string[]): Map<string, string[]> {
  const words = question.match(/[A-Za-z][A-Za-z0-9]*/g) ?? [];
  const out = new Map<string, string[]>();
  if (words.length < 2) return out;
  const seen = new Set<string>();
  for (const text of texts)
    for (const m of text.matchAll(ABBREVIATION)) {
      const a = m[0].replace(/s$/, '');
      if (seen.has(a)) continue;
      seen.add(a);
      // A run of the question's words, as many as its letters and as many again for function words.
      for (let i = 0; i < words.length && !out.has(a); i++)
        for (let n = 2; n <= Math.min(words.length - i, a.length * 2); n++) {
          const run = words.slice(i, i + n);
          const edge = (w: string) => EN.FUNCTION_WORDS.has(w.toLowerCase());
          // A word with a digit (infra2, v8) is a name of its own, no word an abbreviation shortens.
          if (edge(run[0]!) || edge(run[n - 1]!) || run.some((w) => /\d/.test(w))) continue;
          if (!spells(run.join(' '), a)) continue;
          out.set(a, run);
          break;
        }
    }
  return out;
}
