/** A name in a form where trivial differences vanish: case, punctuation, plural -s, width. */
export function normalizeName(name: string): string {
  let n = normalized.get(name);
  if (n === undefined) {
    if (normalized.size > 100_000) normalized.clear();
    n = normalize(name);
    normalized.set(name, n);
  }
  return n;
}

/** Lint compares the same names many times (every pair of entries, every sentence). */
const normalized = new Map<string, string>();

function normalize(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w))
    .join(' ');
}

function trigrams(s: string): Set<string> {
  const t = ` ${s} `;
  const out = new Set<string>();
  const chars = Array.from(t);
  for (let i = 0; i + 3 <= chars.length; i++) out.add(chars.slice(i, i + 3).join(''));
  return out;
}

/** Similarity of two names in [0, 1]: 1 when equal after normalizing, else trigram Dice. */
export function nameSimilarity(a: string, b: string): number {
  const x = normalizeName(a);
  const y = normalizeName(b);
  if (!x || !y) return 0;
  if (x === y) return 1;
  const tx = trigrams(x);
  const ty = trigrams(y);
  let both = 0;
  for (const t of tx) if (ty.has(t)) both++;
  return (2 * both) / (tx.size + ty.size);
}

/** Best similarity between any name of one entry and any name of the other. */
export function bestNameSimilarity(a: string[], b: string[]): number {
  let best = 0;
  for (const x of a) for (const y of b) best = Math.max(best, nameSimilarity(x, y));
  return best;
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
