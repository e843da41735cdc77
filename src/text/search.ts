import { foldText } from './fold.js';

/** A run of Han characters (BMP, extension A, compatibility, and the supplementary planes), or a run of other letters/digits. */
const RUN = /(\p{Script=Han}+)|((?:(?!\p{Script=Han})[\p{L}\p{M}\p{N}_])+)/gu;

/** Bump when searchTerms gives other terms for the same text: the store rebuilds its full-text indexes. */
export const SEARCH_TERMS_VERSION = 'terms-v2';

/**
 * Terms for the full-text index and for queries, the same for both sides, after folding
 * (Traditional → Simplified, NFKC): words of other scripts lowercased (FTS5's porter tokenizer
 * stems them), and every Han character and every pair of adjacent Han characters. Bigrams find
 * Chinese words whatever a segmenter would have said (数据库 → 数据 据库); single characters
 * find the words a translation or a paraphrase spells differently (丢了多少分 / 只丢了 308分).
 * Measured on the benchmark sets, this beats dictionary words alone and dictionary words add
 * nothing to it. A Latin word or a number written against Han text (1991年, NASUWT是) is split
 * from it.
 */
export function searchTerms(text: string): string[] {
  const out: string[] = [];
  for (const m of foldText(text).matchAll(RUN)) {
    if (m[1]) {
      const chars = Array.from(m[1]);
      for (const c of chars) out.push(c);
      for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
    } else out.push(m[2]!.toLowerCase());
  }
  return out;
}

/** The text stored in the FTS5 index. */
export function searchText(text: string): string {
  return searchTerms(text).join(' ');
}

/** What the full-text index holds for a chunk: its heading path and its text. */
export function chunkSearchText(c: { headings: string[]; text: string }): string {
  return searchText(`${c.headings.join(' › ')}\n${c.text}`);
}
