import type { Store } from '../store/store.js';
import { countTokens } from '../text/tokens.js';
import type { EntryHit, PassageHit, Retrieval } from './retrieve.js';
import { sentences } from '../text/segment.js';
import { searchTerms } from '../text/search.js';
import { fileBaseName } from '../entry/names.js';

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
}

export interface PackedContext {
  /** The `<kb_entry>` blocks, ready to give a model or an agent. */
  xml: string;
  /** Tokens of `xml` (countTokens). */
  tokens: number;
  budget: number;
  entries: PackedEntry[];
}

export interface PackOptions {
  budget: number;
  /** Share of the budget the summaries of the top entries may take before passages (default 0.1). */
  summaryShare?: number;
  /** Entries whose summaries go in first (default 4). */
  summaryEntries?: number;
  /** Backlinks listed per entry (default 5). */
  maxBacklinks?: number;
  /** Search terms of the question: a passage too big for what is left is cut to its sentences that share the most with them. */
  terms?: string[];
  /** Smallest remainder (tokens) worth filling with a cut passage (default 40). */
  minCut?: number;
  /**
   * Keep only the paragraphs of a passage that share at least this share of the best paragraph's
   * question terms (default 0.5; 0 keeps whole passages). Chunks hold several paragraphs; the one that matters
   * should not crowd out the next passage.
   */
  focus?: number;
}

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function unescapeXml(s: string): string {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

function day(unix: number): string {
  return unix > 0 ? new Date(unix * 1000).toISOString().slice(0, 10) : '';
}

export function renderEntry(e: PackedEntry, withSummary = true): string {
  const lines = [`<kb_entry id="${escapeXml(e.id).replace(/"/g, '&quot;')}">`, `<title>${escapeXml(e.title)}</title>`];
  if (withSummary && e.summary) lines.push(`<summary>${escapeXml(e.summary)}</summary>`);
  if (e.backlinks.length) lines.push(`<backlinks>${e.backlinks.map(escapeXml).join('; ')}</backlinks>`);
  if (e.lastUpdated) lines.push(`<last_updated>${e.lastUpdated}</last_updated>`);
  if (e.passages.length) lines.push(`<content>\n${e.passages.map((p) => escapeXml(p.text.trim())).join('\n\n')}\n</content>`);
  lines.push('</kb_entry>');
  return lines.join('\n');
}

/** Whether a summary says nothing the packed passages do not already say (offline summaries are extracts). */
function summaryRedundant(e: PackedEntry): boolean {
  const s = e.summary.replace(/\s+/g, ' ').trim();
  if (!s) return true;
  return e.passages.some((p) => p.text.replace(/\s+/g, ' ').includes(s));
}

/** The paragraphs of a passage that share the most terms with the question (see PackOptions.focus). */
export function focusPassage(p: PassageHit, terms: string[], share: number): PassageHit {
  const paras = p.text.split(/\n\s*\n/).filter((x) => x.trim());
  if (paras.length < 2) return p;
  const want = new Set(terms);
  const scores = paras.map((x) => new Set(searchTerms(x).filter((t) => want.has(t))).size);
  const best = Math.max(...scores);
  if (best === 0) return p;
  const kept = paras.filter((_, i) => scores[i]! >= best * share);
  if (kept.length === paras.length) return p;
  const text = kept.join('\n\n');
  return { ...p, text, tokens: countTokens(text) };
}

/**
 * The sentences of a passage that share the most terms with the question, in their order, within
 * `room` tokens (a passage too big for the budget left still gives what matters in it).
 */
export function cutPassage(p: PassageHit, terms: string[], room: number): PassageHit | undefined {
  const want = new Set(terms);
  const parts = sentences(p.text);
  const scored = parts.map((s, i) => ({ s, i, score: new Set(searchTerms(s).filter((t) => want.has(t))).size, tokens: countTokens(s) + 1 }));
  const chosen: typeof scored = [];
  let used = 0;
  for (const c of [...scored].sort((a, b) => b.score - a.score || a.i - b.i)) {
    if (c.score === 0) break;
    if (used + c.tokens > room) continue;
    chosen.push(c);
    used += c.tokens;
  }
  if (!chosen.length) return undefined;
  chosen.sort((a, b) => a.i - b.i);
  const text = chosen.map((c) => c.s).join(' … ');
  return { ...p, text, tokens: countTokens(text) };
}

/**
 * Pack retrieved entries and passages into `<kb_entry>` blocks within a token budget: first the
 * summaries of the top entries (a cheap map of what the wiki knows), then the passages in rank
 * order, each into its entry's block. A passage that does not fit is skipped for a smaller one.
 */
export function packContext(store: Store, r: Pick<Retrieval, 'entries' | 'passages'> & { terms?: string[] }, opts: PackOptions): PackedContext {
  const budget = Math.max(0, Math.floor(opts.budget));
  const summaryShare = opts.summaryShare ?? 0.1;
  const summaryEntries = opts.summaryEntries ?? 4;
  const maxBacklinks = opts.maxBacklinks ?? 5;
  if (!opts.terms && r.terms) opts = { ...opts, terms: r.terms };
  const hitById = new Map<string, EntryHit>(r.entries.map((e) => [e.id, e]));
  const blocks = new Map<string, PackedEntry>();
  const order: string[] = [];
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
    const backlinks = store
      .linksTo(id)
      .map(titleOf)
      .filter((t): t is string => Boolean(t))
      .slice(0, maxBacklinks);
    return {
      id,
      title,
      file: fileBaseName(hit?.path ?? row?.path ?? title),
      kind: hit?.kind ?? row?.kind ?? 'source',
      summary: (hit?.summary ?? row?.summary ?? '').trim(),
      backlinks,
      lastUpdated: day(hit?.updated ?? row?.updated ?? 0),
      passages: [],
    };
  };
  const cost = (e: PackedEntry) => countTokens(renderEntry(e, !summaryRedundant(e))) + 1;
  let used = 0;

  // 1. Summaries of the top entries.
  const summaryCap = budget * summaryShare;
  for (const hit of r.entries.slice(0, summaryEntries)) {
    const b = makeBlock(hit.id);
    if (!b || !b.summary) continue;
    const c = cost(b);
    if (used + c > summaryCap) continue;
    blocks.set(hit.id, b);
    order.push(hit.id);
    used += c;
  }

  // 2. Passages in rank order.
  const seen = new Set<string>();
  const focus = opts.focus ?? 0.5;
  for (const full of r.passages) {
    const p = focus > 0 && opts.terms ? focusPassage(full, opts.terms, focus) : full;
    const key = p.text.trim();
    if (seen.has(key)) continue;
    let b = blocks.get(p.entryId);
    const isNew = !b;
    if (!b) b = makeBlock(p.entryId);
    if (!b) continue;
    const before = isNew ? 0 : cost(b);
    b.passages.push(p);
    const after = cost(b);
    if (used - before + after > budget) {
      b.passages.pop();
      const room = budget - used - (after - before - p.tokens);
      const cut = opts.terms && room >= (opts.minCut ?? 40) ? cutPassage(p, opts.terms, room) : undefined;
      if (!cut) continue;
      b.passages.push(cut);
      const afterCut = cost(b);
      if (used - before + afterCut > budget) {
        b.passages.pop();
        continue;
      }
      used += afterCut - before;
      seen.add(key);
      if (isNew) {
        blocks.set(p.entryId, b);
        order.push(p.entryId);
      }
      continue;
    }
    used += after - before;
    seen.add(key);
    if (isNew) {
      blocks.set(p.entryId, b);
      order.push(p.entryId);
    }
  }

  // Blocks keep the order the entries were ranked in.
  const rank = new Map(r.entries.map((e, i) => [e.id, i]));
  order.sort((a, b) => (rank.get(a) ?? 1e9) - (rank.get(b) ?? 1e9));
  const entries = order.map((id) => blocks.get(id)!);
  for (const e of entries) if (summaryRedundant(e) && e.passages.length) e.summary = '';
  const xml = entries.map((e) => renderEntry(e)).join('\n');
  return { xml, tokens: countTokens(xml), budget, entries };
}
