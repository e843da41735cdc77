/**
 * Reciprocal Rank Fusion (RRF).
 *
 * Merges several ranked result lists — typically one from BM25 keyword search
 * and one from a vector database — into a single ranking. Introduced by
 * Cormack, Clarke and Büttcher at SIGIR 2009.
 *
 *     RRF(d) = Σ over lists L  of  weight_L / (k + rank_L(d))
 *
 * rank_L(d) is the 1-based position of d in list L. A document missing from a
 * list contributes nothing for that list. Only ranks are used, never raw
 * scores, so BM25 scores (unbounded, and negative in SQLite FTS5) and cosine
 * similarities (between -1 and 1) can be fused without any normalisation.
 *
 * The constant k = 60 comes from the original paper and is the usual default.
 * Larger k flattens the difference between top ranks; smaller k trusts each
 * list's first results more.
 */

/** One ranked list of document ids, best first. */
export interface RankedList {
  /** A label used in the explanation output, e.g. "bm25" or "vector". */
  name: string;
  /** Document or chunk ids, best match first. Duplicates after the first are ignored. */
  ids: readonly string[];
  /** Optional multiplier for this list's contributions (default 1). */
  weight?: number;
}

export interface FusedResult {
  id: string;
  /** The summed RRF score; higher is better. */
  score: number;
  /** The 1-based rank of this id in each input list that contained it. */
  ranks: Record<string, number>;
}

export interface RrfOptions {
  /** The RRF smoothing constant. Defaults to 60. */
  k?: number;
  /** Keep only the best `limit` results. Defaults to all. */
  limit?: number;
}

export const DEFAULT_RRF_K = 60;

/**
 * Fuse ranked lists with Reciprocal Rank Fusion.
 *
 * Ties are broken by the best (lowest) rank the document reached in any list,
 * then by id, so that the output is fully deterministic — important when the
 * fused order ends up in a prompt that should hit the prompt cache.
 */
export function reciprocalRankFusion(lists: readonly RankedList[], options: RrfOptions = {}): FusedResult[] {
  const k = options.k ?? DEFAULT_RRF_K;
  if (!Number.isFinite(k) || k < 0) {
    throw new RangeError(`RRF constant k must be a non-negative number, got ${k}`);
  }

  const fused = new Map<string, FusedResult>();
  const bestRank = new Map<string, number>();

  for (const list of lists) {
    const weight = list.weight ?? 1;
    const seen = new Set<string>();
    let rank = 0;
    for (const id of list.ids) {
      // Ignore repeated ids within one list: only the first occurrence counts.
      if (seen.has(id)) continue;
      seen.add(id);
      rank += 1;

      let entry = fused.get(id);
      if (!entry) {
        entry = { id, score: 0, ranks: {} };
        fused.set(id, entry);
      }
      entry.score += weight / (k + rank);
      entry.ranks[list.name] = rank;
      bestRank.set(id, Math.min(bestRank.get(id) ?? Infinity, rank));
    }
  }

  const results = [...fused.values()].sort(
    (a, b) =>
      b.score - a.score ||
      (bestRank.get(a.id)! - bestRank.get(b.id)!) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return options.limit === undefined ? results : results.slice(0, options.limit);
}

// Example: the worked example from the hybrid search clipping.
//
//   reciprocalRankFusion([
//     { name: "bm25",   ids: ["zettelkasten.md#2", "reading-log.txt#1", "a", "b", "luhmann-quote.md#1"] },
//     { name: "vector", ids: ["obsidian.md#4", "c", "zettelkasten.md#2", "luhmann-quote.md#1"] },
//   ]);
//
// gives zettelkasten.md#2 (1/61 + 1/63 ≈ 0.0323) first and
// luhmann-quote.md#1 (1/65 + 1/64 ≈ 0.0310) second, ahead of the chunks that
// topped only one list (1/61 ≈ 0.0164 and 1/62 ≈ 0.0161).
