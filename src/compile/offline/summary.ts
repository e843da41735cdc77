import { HAN } from '../../text/script.js';
import { sentences, words } from '../../text/segment.js';
import { EN_STOP, ZH_STOP } from '../../text/stopwords.js';
import { stripMarkdown } from './entities.js';

export interface Extract {
  summary: string;
  keyPoints: string[];
}

function contentTerms(sentence: string): string[] {
  const lower = sentence.toLowerCase();
  // The ICU segmenter is only needed for Han text; Latin words split on their own.
  const ws = HAN.test(lower) ? words(lower) : (lower.match(/[\p{L}\p{N}_'-]+/gu) ?? []);
  return ws.filter((w) => (HAN.test(w) ? !ZH_STOP.has(w) : w.length > 2 && !EN_STOP.has(w)));
}

function usable(s: string): boolean {
  const han = HAN.test(s);
  const len = han ? Array.from(s).length : s.split(/\s+/).length;
  if (han ? len < 8 : len < 5) return false;
  if (/^[-=*_#|>\s]+$/.test(s)) return false;
  if (/^(https?:|www\.)/.test(s)) return false;
  return !/^\s*[;|]/.test(s);
}

/**
 * Extractive summary: sentences scored by how many of the document's frequent content terms they
 * carry (a cheap centrality), with a bonus for coming early; the best ones in document order.
 */
export function extractSummary(markdown: string, opts: { maxChars?: number; keyPoints?: number } = {}): Extract {
  // Headings name sections; they are not sentences of the summary.
  const text = stripMarkdown(markdown.replace(/^\s{0,3}#{1,6}\s.*$/gm, ''));
  const sents = sentences(text).filter(usable);
  if (sents.length === 0) {
    const fallback = text.replace(/\s+/g, ' ').trim().slice(0, 300);
    return { summary: fallback, keyPoints: [] };
  }
  const tf = new Map<string, number>();
  const terms = sents.map((s) => contentTerms(s));
  for (const ts of terms) for (const t of new Set(ts)) tf.set(t, (tf.get(t) ?? 0) + 1);
  const scored = sents.map((s, i) => {
    const ts = new Set(terms[i]);
    let score = 0;
    for (const t of ts) score += Math.log(1 + (tf.get(t) ?? 0));
    score /= Math.sqrt(ts.size + 4);
    score *= 1 + 0.6 / (1 + i * 0.5); // early sentences state the topic
    if (s.length > 500) score *= 0.5;
    return { s, i, score };
  });
  const ranked = [...scored].sort((a, b) => b.score - a.score);
  const zh = HAN.test(text.slice(0, 2000));
  const maxChars = opts.maxChars ?? (zh ? 200 : 450);
  const picked: typeof scored = [];
  let chars = 0;
  // The first good sentence always opens the summary: it usually says what the document is.
  const lead = scored[0]!;
  picked.push(lead);
  chars += lead.s.length;
  for (const r of ranked) {
    if (picked.length >= 3) break;
    if (picked.includes(r)) continue;
    if (chars + r.s.length > maxChars) continue;
    picked.push(r);
    chars += r.s.length;
  }
  picked.sort((a, b) => a.i - b.i);
  const summary = clip(picked.map((p) => p.s).join(zh ? '' : ' '), maxChars * 1.5);
  const keyPoints = ranked
    .filter((r) => !picked.includes(r))
    .slice(0, opts.keyPoints ?? 5)
    .sort((a, b) => a.i - b.i)
    .map((r) => clip(r.s, 300));
  return { summary, keyPoints };
}

export function clip(s: string, max: number): string {
  const chars = Array.from(s);
  return chars.length > max ? `${chars.slice(0, Math.floor(max) - 1).join('').trimEnd()}…` : s;
}
