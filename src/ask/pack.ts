import { statesWhatItIs } from './answer.js';
import type { Store } from '../store/store.js';
import { countTokens } from '../text/tokens.js';
import type { EntryHit, PassageHit, Retrieval } from './retrieve.js';
import { sentenceSpans } from '../text/segment.js';
import { searchTerms } from '../text/search.js';
import { fileBaseName } from '../entry/names.js';

/** The smallest budget at which a definition question's top summary goes in before more passages. */
const SUMMARY_FIRST_BUDGET = 2000;

export interface PackedEntry {
  id: string;
  title: string;
  /** File name under wiki/ without .md: the target of a `[[link]]` to it. */
  file: string;
  kind: string;
  summary: string;
  backlinks: string[];
  lastUpdated: string;
  passages: PassageHit[];
  /** A version of a work in another language than the question's: the id of the version in the question's (EntryHit.readAs). */
  readAs?: string;
}

export interface PackedContext {
  /** The `<kb_entry>` blocks, ready to give a model or an agent. */
  xml: string;
  /** Tokens of `xml` (countTokens). */
  tokens: number;
  budget: number;
  entries: PackedEntry[];
  /** Weight of each search term of the question (its idf in the wiki), when retrieval gave them. */
  weights?: Record<string, number>;
  /** The question's Chinese words in English, when retrieval translated them (Retrieval.renderings). */
  renderings?: Record<string, string>;
}

export interface PackOptions {
  budget: number;
  /** Backlinks listed per entry (default: 1 per 1,000 tokens of budget, 1 to 5). */
  maxBacklinks?: number;
  /** Search terms of the question: they pick the sentences of a passage that matter. */
  terms?: string[];
  /** Weight of each term (its idf in the store); terms missing here weigh 1. */
  weights?: Record<string, number>;
  /** Share of the budget the first pass (the best sentence of each passage) may fill (default 0.6). */
  excerptShare?: number;
  /**
   * Sentences on each side of the best one that come along in the first pass when they too hold a
   * question term (default 1: a statement often runs over two sentences, the second naming its
   * subject by a pronoun; measured, +4 on xquad-zh and +20 on cmrc2018 at 1k, -1 on xquad-en).
   */
  excerptContext?: number;
  /**
   * Order in which the first pass visits the top passages: 'rank' (retrieval order) or 'strength'
   * (default: the score of a passage's best sentence times the passage's score; measured, xquad-zh
   * answerRecall@1k 16 misses → 13, other sets unchanged).
   */
  excerptOrder?: 'rank' | 'strength';
  /** Passages the first pass looks at (default 12). */
  excerptPassages?: number;
  /** Entries whose summaries are added when there is room left (default 4). */
  summaryEntries?: number;
  /** A passage first comes with its paragraphs that score at least this share of its best one (default 0: whole passages; measured, a weaker passage's best sentence is worth more than a stronger one's second paragraph). */
  focusShare?: number;
  /** Smallest remainder (tokens) worth filling with part of a passage (default 40). */
  minCut?: number;
}

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function unescapeXml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

function day(unix: number): string {
  return unix > 0 ? new Date(unix * 1000).toISOString().slice(0, 10) : '';
}

export function renderEntry(e: PackedEntry, withSummary = true): string {
  const lines = [`<kb_entry id="${escapeXml(e.id).replace(/"/g, '&quot;')}">`, `<title>${escapeXml(e.title)}</title>`];
  if (withSummary && e.summary) lines.push(`<summary>${escapeXml(e.summary)}</summary>`);
  if (e.backlinks.length) lines.push(`<backlinks>${e.backlinks.map(escapeXml).join('; ')}</backlinks>`);
  if (e.lastUpdated) lines.push(`<last_updated>${e.lastUpdated}</last_updated>`);
  if (e.passages.length)
    lines.push(`<content>\n${e.passages.map((p) => escapeXml(p.text.trim())).join('\n\n')}\n</content>`);
  lines.push('</kb_entry>');
  return lines.join('\n');
}

/** Whether a summary says nothing the packed passages do not already say (offline summaries are extracts). */
function summaryRedundant(e: PackedEntry): boolean {
  const s = e.summary.replace(/\s+/g, ' ').trim();
  if (!s) return true;
  return e.passages.some((p) => p.text.replace(/\s+/g, ' ').includes(s));
}

/** How much a piece of text holds of the question: the summed weights of the question's terms in it. */
export function termScore(text: string, weights: Map<string, number>): number {
  let score = 0;
  for (const t of new Set(searchTerms(text))) score += weights.get(t) ?? 0;
  return score;
}

function weightMap(terms: string[], weights: Record<string, number> | undefined): Map<string, number> {
  return new Map(terms.map((t) => [t, weights?.[t] ?? 1]));
}

/** The paragraphs of a passage that share the most terms with the question (`share` of the best one's score). */
export function focusPassage(
  p: PassageHit,
  terms: string[],
  share: number,
  weights?: Record<string, number>,
): PassageHit {
  const paras = p.text.split(/\n\s*\n/).filter((x) => x.trim());
  if (paras.length < 2) return p;
  const w = weightMap(terms, weights);
  const scores = paras.map((x) => termScore(x, w));
  const best = Math.max(...scores);
  if (best === 0) return p;
  const kept = paras.filter((_, i) => scores[i]! >= best * share);
  if (kept.length === paras.length) return p;
  const text = kept.join('\n\n');
  return { ...p, text, tokens: countTokens(text) };
}

/** A passage cut into sentences, each with its score against the question. */
interface Cut {
  hit: PassageHit;
  spans: [number, number][];
  scores: number[];
  /** The best sentence (-1 when no sentence holds a question term). */
  best: number;
  /** The sentences of the paragraphs that hold the most of the question (see focusPassage). */
  focus: Set<number>;
  /** Sentences chosen so far; undefined: none; 'all': the whole passage. */
  chosen: Set<number> | 'all' | undefined;
}

function cutOf(hit: PassageHit, w: Map<string, number>, focusShare: number): Cut {
  const spans = sentenceSpans(hit.text);
  const scores = spans.map(([a, b]) => termScore(hit.text.slice(a, b), w));
  let best = -1;
  scores.forEach((sc, i) => {
    if (sc > 0 && (best < 0 || sc > scores[best]!)) best = i;
  });
  // Paragraphs: sentences between blank lines; the focus is the paragraphs scoring at least half the best one.
  const para: number[] = [];
  let n = 0;
  spans.forEach(([a], i) => {
    if (i > 0 && /\n\s*\n/.test(hit.text.slice(spans[i - 1]![1], a))) n++;
    para.push(n);
  });
  const paraScore = new Map<number, number>();
  for (const [i, sc] of scores.entries()) paraScore.set(para[i]!, (paraScore.get(para[i]!) ?? 0) + sc);
  const top = Math.max(0, ...paraScore.values());
  const focus = new Set(
    spans.map((_, i) => i).filter((i) => top > 0 && (paraScore.get(para[i]!) ?? 0) >= top * focusShare),
  );
  return { hit, spans, scores, best, focus, chosen: undefined };
}

/** The text of a cut: the chosen sentences as written, with … where something was left out. */
function cutText(c: Cut, chosen: Cut['chosen'] = c.chosen): string {
  if (chosen === 'all') return c.hit.text.trim();
  const idx = [...(chosen ?? [])].sort((a, b) => a - b);
  const parts: string[] = [];
  let run: [number, number] | undefined;
  for (const i of idx) {
    const [a, b] = c.spans[i]!;
    if (run && i === idx[idx.indexOf(i) - 1]! + 1) run[1] = b;
    else {
      if (run) parts.push(c.hit.text.slice(run[0], run[1]));
      run = [a, b];
    }
  }
  if (run) parts.push(c.hit.text.slice(run[0], run[1]));
  let text = parts.join(' … ');
  if (idx.length && idx[0]! > 0) text = `… ${text}`;
  if (idx.length && idx[idx.length - 1]! < c.spans.length - 1) text = `${text} …`;
  return text;
}

/** Sentences shorter than this (normalised) may repeat: a short line is often a label, not a statement. */
const REPEAT_MIN = 8;

/**
 * The chosen parts of an entry's passages, each sentence once: overlapping chunks repeat the
 * sentences at their seams, and a repeat spends the budget on nothing new.
 */
function renderCuts(cuts: Cut[]): PassageHit[] {
  const said = new Set<string>();
  const out: PassageHit[] = [];
  for (const c of cuts) {
    if (!c.chosen) continue;
    const idx = c.chosen === 'all' ? c.spans.map((_, i) => i) : [...c.chosen];
    const keep = new Set<number>();
    for (const i of idx) {
      const [a, b] = c.spans[i]!;
      const key = c.hit.text.slice(a, b).replace(/\s+/g, '');
      if (key.length >= REPEAT_MIN && said.has(key)) continue;
      keep.add(i);
      said.add(key);
    }
    if (!keep.size) continue;
    const text = cutText(c, c.chosen === 'all' && keep.size === idx.length ? 'all' : keep);
    out.push({ ...c.hit, text, tokens: countTokens(text) });
  }
  return out;
}

/**
 * The sentences of a passage that share the most with the question, in their order, within
 * `room` tokens (a passage too big for the budget left still gives what matters in it).
 */
export function cutPassage(
  p: PassageHit,
  terms: string[],
  room: number,
  weights?: Record<string, number>,
): PassageHit | undefined {
  const c = cutOf(p, weightMap(terms, weights), 0);
  const chosen = new Set<number>();
  let used = 0;
  const order = c.scores.map((sc, i) => ({ sc, i })).sort((a, b) => b.sc - a.sc || a.i - b.i);
  for (const { sc, i } of order) {
    if (sc === 0) break;
    const [a, b] = c.spans[i]!;
    const t = countTokens(p.text.slice(a, b)) + 1;
    if (used + t > room) continue;
    chosen.add(i);
    used += t;
  }
  if (!chosen.size) return undefined;
  c.chosen = chosen;
  const text = cutText(c).replace(/^… | …$/g, '');
  return { ...p, text, tokens: countTokens(text) };
}

/**
 * Pack retrieved passages into `<kb_entry>` blocks within a token budget, so that a small budget
 * still holds the passage with the answer:
 * 1. the best sentence of each of the top passages, strongest first, up to a share of the budget
 *    (a weaker passage's sentence is worth more than the rest of a stronger passage);
 * 2. then, in rank order, each passage grows to the whole of it, or to as many of its best
 *    sentences as fit, and passages not reached yet come in whole or cut;
 * 3. then the summaries of the top entries, when there is room left.
 * Blocks keep the order their entries were ranked in.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: the three packing passes (best sentences, whole passages, summaries) spend one shared token budget and one list of blocks
export function packContext(
  store: Store,
  r: Pick<Retrieval, 'entries' | 'passages'> & {
    /** The question: one asking what something is gets the top entry's summary early. */
    query?: string;
    terms?: string[];
    weights?: Record<string, number>;
    renderings?: Record<string, string>;
  },
  opts: PackOptions,
): PackedContext {
  const budget = Math.max(0, Math.floor(opts.budget));
  const maxBacklinks = opts.maxBacklinks ?? Math.max(1, Math.min(5, Math.round(budget / 1000)));
  const terms = opts.terms ?? r.terms ?? [];
  const w = weightMap(terms, opts.weights ?? r.weights);
  const minCut = opts.minCut ?? 40;
  const hitById = new Map<string, EntryHit>(r.entries.map((e) => [e.id, e]));
  const blocks = new Map<string, PackedEntry>();
  const cutsOf = new Map<string, Cut[]>();
  const titleCache = new Map<string, string>();
  const titleOf = (id: string): string | undefined => {
    if (!titleCache.has(id)) titleCache.set(id, store.getEntry(id)?.title ?? '');
    return titleCache.get(id) || undefined;
  };
  const makeBlock = (id: string): PackedEntry | undefined => {
    const hit = hitById.get(id);
    const row = hit ? undefined : store.getEntry(id);
    const title = hit?.title ?? row?.title;
    if (title === undefined) return undefined;
    // The first titles only: a concept may have thousands of backlinks, each a lookup.
    const backlinks: string[] = [];
    for (const from of store.linksTo(id)) {
      if (backlinks.length >= maxBacklinks) break;
      const t = titleOf(from);
      if (t) backlinks.push(t);
    }
    return {
      id,
      title,
      file: fileBaseName(hit?.path ?? row?.path ?? title),
      kind: hit?.kind ?? row?.kind ?? 'source',
      summary: '',
      backlinks,
      lastUpdated: day(hit?.updated ?? row?.updated ?? 0),
      passages: [],
      ...(hit?.readAs ? { readAs: hit.readAs } : {}),
    };
  };
  const render = (b: PackedEntry, cuts: Cut[]): PackedEntry => ({ ...b, passages: renderCuts(cuts) });
  const cost = (b: PackedEntry, cuts: Cut[]): number => {
    const e = render(b, cuts);
    return e.passages.length || e.summary ? countTokens(renderEntry(e, !summaryRedundant(e))) + 1 : 0;
  };
  let used = 0;
  /** Try a change to one passage's choice; keep it when the pack stays within `limit`. */
  const attempt = (c: Cut, chosen: Cut['chosen'], limit: number): boolean => {
    const id = c.hit.entryId;
    let b = blocks.get(id);
    const isNew = !b;
    b ??= makeBlock(id);
    if (!b) return false;
    const cuts = cutsOf.get(id) ?? [];
    if (!cuts.includes(c)) cuts.push(c);
    const before = isNew ? 0 : cost(b, cuts);
    const was = c.chosen;
    c.chosen = chosen;
    const after = cost(b, cuts);
    if (used - before + after > limit) {
      c.chosen = was;
      if (!was) cuts.splice(cuts.indexOf(c), 1);
      return false;
    }
    used += after - before;
    if (isNew) blocks.set(id, b);
    cutsOf.set(id, cuts);
    return true;
  };

  const seen = new Set<string>();
  const cuts: Cut[] = [];
  for (const p of r.passages) {
    const key = p.text.trim();
    if (!key || seen.has(key)) continue;
    seen.add(key);
    cuts.push(cutOf(p, w, opts.focusShare ?? 0));
  }

  /** An entry's summary in its block, when it fits and adds something. */
  function addSummary(hit: EntryHit): void {
    const summary = hit.summary.trim();
    if (!summary) return;
    const b = blocks.get(hit.id) ?? makeBlock(hit.id);
    if (!b) return;
    const mine = cutsOf.get(hit.id) ?? [];
    const before = blocks.has(hit.id) ? cost(b, mine) : 0;
    const after = cost({ ...b, summary }, mine);
    if (after === before || used - before + after > budget) return;
    b.summary = summary;
    used += after - before;
    if (!blocks.has(hit.id)) blocks.set(hit.id, b);
  }

  // 1. The best sentence of each top passage.
  const firstLimit = budget * (opts.excerptShare ?? 0.6);
  // Strongest first: a lower passage's sentence that holds the question (卡洛琳堡…1964年该堡…重建) comes
  // before the sentences of passages ranked above it on common words, which would fill the share.
  const strength = (c: Cut) => (c.best < 0 ? 0 : c.scores[c.best]! * c.hit.score);
  const firstCuts = cuts.slice(0, opts.excerptPassages ?? 12);
  if ((opts.excerptOrder ?? 'strength') === 'strength') firstCuts.sort((a, b) => strength(b) - strength(a));
  for (const c of firstCuts) {
    if (c.best < 0) continue;
    const k = opts.excerptContext ?? 1;
    const around = c.spans
      .map((_, i) => i)
      .filter((i) => i === c.best || (Math.abs(i - c.best) <= k && c.scores[i]! > 0));
    attempt(c, around.length >= c.spans.length ? 'all' : new Set(around), firstLimit);
  }
  // What X is (for): the top entry's summary, when it says what X is, comes before more of the
  // passages — where the budget has room for both (at a small one a passage may hold the answer).
  const top = r.entries[0];
  if (top && r.query && budget >= SUMMARY_FIRST_BUDGET && statesWhatItIs(r.query, top.summary, r.renderings))
    addSummary(top);
  // 2. The paragraphs of each passage that matter (whole passages when that is all of them), or
  // as much of their best as fits.
  for (const c of cuts) {
    if (c.chosen === 'all') continue;
    const focus =
      c.focus.size && c.focus.size < c.spans.length
        ? new Set([...c.focus, ...(c.chosen === undefined ? [] : c.chosen)])
        : 'all';
    if (attempt(c, focus, budget)) continue;
    if (budget - used < minCut || c.best < 0) continue;
    const chosen = new Set(c.chosen === undefined ? [] : c.chosen);
    const order = c.scores
      .map((sc, i) => ({ sc, i }))
      .filter((x) => x.sc > 0 && !chosen.has(x.i))
      .sort((a, b) => b.sc - a.sc || a.i - b.i);
    // Then the sentences next to the chosen ones, which often finish what they say.
    const near = [...chosen]
      .flatMap((i) => [i + 1, i - 1])
      .filter((i) => i >= 0 && i < c.spans.length && !chosen.has(i) && c.scores[i] === 0);
    for (const i of [...order.map((x) => x.i), ...near]) {
      const next = new Set(chosen).add(i);
      if (attempt(c, next, budget)) chosen.add(i);
    }
  }
  // Then whole passages, when there is room.
  for (const c of cuts) if (c.chosen !== undefined && c.chosen !== 'all') attempt(c, 'all', budget);
  // 3. Summaries of the top entries, when there is room.
  for (const hit of r.entries.slice(0, opts.summaryEntries ?? 4)) addSummary(hit);

  const rank = new Map(r.entries.map((e, i) => [e.id, i]));
  const firstPassage = new Map<string, number>();
  for (const [i, p] of r.passages.entries()) if (!firstPassage.has(p.entryId)) firstPassage.set(p.entryId, i);
  const order = [...blocks.keys()].sort(
    (a, b) =>
      (rank.get(a) ?? 1e9) - (rank.get(b) ?? 1e9) || (firstPassage.get(a) ?? 1e9) - (firstPassage.get(b) ?? 1e9),
  );
  const entries = order.map((id) => {
    const e = render(blocks.get(id)!, cutsOf.get(id) ?? []);
    if (summaryRedundant(e) && e.passages.length) e.summary = '';
    return e;
  });
  const xml = entries.map((e) => renderEntry(e)).join('\n');
  const weights = opts.weights ?? r.weights;
  return {
    xml,
    tokens: countTokens(xml),
    budget,
    entries,
    ...(weights ? { weights } : {}),
    ...(r.renderings ? { renderings: r.renderings } : {}),
  };
}
