import { HAN } from './script.js';

const RUN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[\p{L}\p{N}_]+/gu;

/**
 * Terms for the full-text index and for queries, the same for both sides:
 * Latin words lowercased (FTS5's porter tokenizer stems them), and runs of Han characters as
 * overlapping character bigrams (a lone character stays itself). Bigrams find Chinese words
 * whatever the word segmenter would have said (数据库 → 数据 据库), which is what makes
 * BM25 work on Chinese text without a dictionary.
 */
export function searchTerms(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(RUN)) {
    const run = m[0];
    if (HAN.test(run[0] ?? '')) {
      const chars = Array.from(run);
      if (chars.length === 1) out.push(run);
      for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
    } else {
      out.push(run.toLowerCase());
    }
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
