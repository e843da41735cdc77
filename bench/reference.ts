/**
 * The reference baseline of ../shared/bench/reference/bm25_reference.py, ported line for line so
 * every `npm run bench:retrieval` prints kb beside it: BM25 (k1 1.2, b 0.75) over blank-line
 * paragraphs (lines starting with '# ' dropped); terms are lowercased [a-z0-9]+ words, every Han
 * character and every pair of adjacent Han characters; packing in rank order with the reference's
 * token estimate, skipping a paragraph that does not fit; the answer is the best 3 sentences of the
 * top 5 paragraphs by the summed idf of the question terms they hold.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const HAN_G = /[\u3400-\u9fff]/g;

export interface RefParagraph {
  /** Path under raw/ ('/'-separated). */
  doc: string;
  text: string;
}

/** Every file under `dir`, as '/'-separated paths relative to it, sorted (like the reference). */
export function listFiles(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, rel))) {
    const r = rel ? `${rel}/${name}` : name;
    if (statSync(join(dir, r)).isDirectory()) out.push(...listFiles(dir, r));
    else out.push(r);
  }
  return rel ? out : out.sort();
}

export function refTerms(s: string): string[] {
  s = s.toLowerCase();
  const out: string[] = [...(s.match(/[a-z0-9]+/g) ?? [])];
  const hs = s.match(HAN_G) ?? [];
  for (const c of hs) out.push(c);
  for (let i = 0; i + 1 < hs.length; i++) out.push(hs[i]! + hs[i + 1]!);
  return out;
}

/** The reference's token estimate (kb's countTokens, without its rounding and Latin-1 letters). */
export function refTokens(s: string): number {
  let t = 0;
  for (const w of s.match(/[A-Za-z0-9_]+/g) ?? []) t += Math.max(1, Math.ceil(w.length / 4));
  for (const p of s.match(/[^\sA-Za-z0-9_\u3400-\u9fff]+/g) ?? []) t += Math.ceil(p.length / 2);
  return t + 1.1 * (s.match(HAN_G) ?? []).length;
}

export class Reference {
  readonly paras: RefParagraph[] = [];
  private readonly lens: number[] = [];
  private readonly tokens: number[] = [];
  private readonly df = new Map<string, number>();
  private readonly post = new Map<string, [number, number][]>();
  private readonly avg: number;

  constructor(rawDir: string) {
    for (const f of listFiles(rawDir)) {
      // Python's text mode reads \r\n and \r as \n.
      const text = readFileSync(join(rawDir, f)).toString('utf8').replace(/\r\n?/g, '\n');
      for (let p of text.split(/\n\s*\n/)) {
        p = p.trim();
        if (p && !p.startsWith('# ')) this.paras.push({ doc: f, text: p });
      }
    }
    this.paras.forEach((p, i) => {
      const bag = new Map<string, number>();
      const ts = refTerms(p.text);
      for (const t of ts) bag.set(t, (bag.get(t) ?? 0) + 1);
      this.lens.push(ts.length);
      this.tokens.push(refTokens(p.text));
      for (const [t, n] of bag) {
        this.df.set(t, (this.df.get(t) ?? 0) + 1);
        (this.post.get(t) ?? this.post.set(t, []).get(t)!).push([i, n]);
      }
    });
    this.avg = this.lens.reduce((a, b) => a + b, 0) / Math.max(1, this.paras.length);
  }

  idf(t: string): number {
    const n = this.paras.length;
    const df = this.df.get(t) ?? 0;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Paragraph indexes, best first (at most 200). */
  search(q: string, k1 = 1.2, b = 0.75): number[] {
    const sc = new Map<number, number>();
    for (const t of new Set(refTerms(q))) {
      const idf = this.idf(t);
      for (const [i, n] of this.post.get(t) ?? []) {
        sc.set(i, (sc.get(i) ?? 0) + (idf * n * (k1 + 1)) / (n + k1 * (1 - b + (b * this.lens[i]!) / this.avg)));
      }
    }
    return [...sc]
      .sort((x, y) => y[1] - x[1])
      .slice(0, 200)
      .map(([i]) => i);
  }

  pack(ranked: number[], budget: number): string {
    const out: string[] = [];
    let used = 0;
    for (const i of ranked) {
      const n = this.tokens[i]!;
      if (used + n <= budget) {
        out.push(this.paras[i]!.text);
        used += n;
      }
    }
    return out.join('\n');
  }

  answer(q: string, ranked: number[]): string {
    const qt = new Set(refTerms(q));
    const cand: { score: number; s: string }[] = [];
    ranked.slice(0, 5).forEach((i, r) => {
      for (const s of this.paras[i]!.text.split(/(?<=[.!?。！？])\s*/)) {
        if (!s.trim()) continue;
        let score = 0;
        for (const t of new Set(refTerms(s))) if (qt.has(t)) score += this.idf(t);
        cand.push({ score: score - 0.01 * r, s });
      }
    });
    cand.sort((x, y) => y.score - x.score);
    return cand
      .slice(0, 3)
      .map((c) => c.s)
      .join(' ');
  }
}
