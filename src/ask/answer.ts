import type { ModelClient, ModelUsage } from '../model/client.js';
import { loadTemplate, renderTemplate, splitTemplate } from '../model/templates.js';
import { linkKey } from '../entry/names.js';
import { linkMarkup } from '../entry/links.js';
import { sentences } from '../text/segment.js';
import { searchTerms } from '../text/search.js';
import { queryTerms } from './retrieve.js';
import type { PackedContext, PackedEntry } from './pack.js';

export interface Citation {
  id: string;
  title: string;
  /** File name (without .md): the `[[link]]` target. */
  file: string;
}

export interface DraftAnswer {
  text: string;
  citations: Citation[];
  mode: 'offline' | 'model';
  model?: string;
  usage?: ModelUsage;
  /** The model's reply came from .kb/cache.db. */
  cached?: boolean;
  /** Why the model's reply is not a well-formed answer (empty, no `<answer>`, cut off), if it is not. */
  malformed?: string;
}

const NOTHING = 'The wiki has nothing on this yet. Add sources to raw/ and run `kb compile`, or rephrase the question.';

function cite(e: PackedEntry): string {
  return linkMarkup(e.file, e.title);
}

/**
 * The offline answer: the sentences of the packed context that share the most with the question
 * (weighted by how rare each term is in the context), each followed by the entry it came from.
 */
export function offlineAnswer(question: string, packed: PackedContext, maxSentences = 3): DraftAnswer {
  const terms = new Set(queryTerms([question]));
  if (terms.size === 0 || packed.entries.length === 0) return { text: NOTHING, citations: [], mode: 'offline' };
  const cands: { s: string; e: PackedEntry; terms: Set<string>; order: number }[] = [];
  packed.entries.forEach((e, rank) => {
    const texts = [e.summary, ...e.passages.map((p) => p.text)];
    for (const t of texts)
      for (const s of sentences(t)) {
        const clean = s.replace(/^#{1,6}\s+/, '').replace(/^[-*+]\s+/, '').trim();
        if (Array.from(clean).length < 8) continue;
        cands.push({ s: clean, e, terms: new Set(searchTerms(clean)), order: rank });
      }
  });
  const df = new Map<string, number>();
  for (const c of cands) for (const t of c.terms) if (terms.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
  const scored = cands
    .map((c) => {
      let score = 0;
      for (const t of terms) if (c.terms.has(t)) score += Math.log(1 + cands.length / (df.get(t) ?? 1));
      // Prefer sentences of the top entries and of moderate length.
      score = score / Math.sqrt(Math.max(8, c.terms.size) / 8) - c.order * 0.05;
      return { ...c, score };
    })
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score);
  const picked: typeof scored = [];
  const seen = new Set<string>();
  for (const c of scored) {
    if (seen.has(c.s)) continue;
    seen.add(c.s);
    picked.push(c);
    if (picked.length >= maxSentences) break;
  }
  if (!picked.length) return { text: NOTHING, citations: [], mode: 'offline' };
  const text = picked.map((c) => `${c.s.replace(/\[\[([^\]|]*\|)?([^\]]*)\]\]/g, '$2')} ${cite(c.e)}`).join('\n\n');
  const citations = uniqueCitations(picked.map((c) => c.e));
  return { text, citations, mode: 'offline' };
}

function uniqueCitations(entries: PackedEntry[]): Citation[] {
  const out = new Map<string, Citation>();
  for (const e of entries) if (!out.has(e.id)) out.set(e.id, { id: e.id, title: e.title, file: e.file });
  return [...out.values()];
}

/**
 * Point the `[[Title]]` citations of a model's answer at the packed entries (by title or file
 * name, case-insensitively); a citation of anything that was not in the context becomes plain text.
 */
export function resolveCitations(text: string, packed: PackedContext): { text: string; citations: Citation[] } {
  const byKey = new Map<string, PackedEntry>();
  for (const e of packed.entries) {
    byKey.set(linkKey(e.title), e);
    byKey.set(linkKey(e.file), e);
  }
  const used: PackedEntry[] = [];
  const out = text.replace(/\[\[([^\]\n|#]*)(#[^\]\n|]*)?(?:\|([^\]\n]*))?\]\]/g, (_w, target: string, _h: string | undefined, alias: string | undefined) => {
    const e = byKey.get(linkKey(target.trim()));
    if (!e) return alias ?? target;
    used.push(e);
    return linkMarkup(e.file, alias ?? e.title);
  });
  return { text: out.trim(), citations: uniqueCitations(used) };
}

/** The question in keyword queries, Chinese and English, so either language finds the other's sources. */
export async function expandQuery(client: ModelClient, root: string, question: string, signal?: AbortSignal): Promise<string[]> {
  const tpl = loadTemplate(root, 'expand-query');
  const { system, input } = splitTemplate(tpl.text);
  const res = await client.complete(
    { task: 'expand-query', templateHash: tpl.hash, system: renderTemplate(system, {}), prompt: renderTemplate(input, { question }), maxTokens: 300 },
    signal,
  );
  return parseQueries(res.text);
}

export function parseQueries(reply: string): string[] {
  const out: string[] = [];
  for (const m of reply.matchAll(/<query[^>]*>([\s\S]*?)<\/query>/g)) {
    const q = m[1]!.replace(/\s+/g, ' ').trim();
    if (q && !out.includes(q)) out.push(q);
  }
  return out.slice(0, 6);
}

/** Claude answers from the packed context only, citing entries as [[Title]]. */
export async function modelAnswer(client: ModelClient, root: string, question: string, packed: PackedContext, signal?: AbortSignal): Promise<DraftAnswer> {
  if (!packed.entries.length) return { text: NOTHING, citations: [], mode: 'model', model: client.model };
  const tpl = loadTemplate(root, 'answer');
  const { system, input } = splitTemplate(tpl.text);
  const res = await client.complete(
    {
      task: 'answer',
      templateHash: tpl.hash,
      system: renderTemplate(system, {}),
      prompt: renderTemplate(input, { question, context: packed.xml }),
      maxTokens: 1500,
      // A malformed reply is not kept in .kb/cache.db: asking again asks the model again.
      keep: (r) => !malformedReply(r),
    },
    signal,
  );
  const reply = /<answer>([\s\S]*?)(<\/answer>|$)/.exec(res.text)?.[1] ?? res.text;
  const malformed = malformedReply(res);
  const { text, citations } = resolveCitations(reply.trim(), packed);
  return { text: text || NOTHING, citations, mode: 'model', model: client.model, usage: res.usage, cached: res.cached, ...(malformed ? { malformed } : {}) };
}

/** Why a reply to the answer prompt is not a well-formed answer, if it is not. */
function malformedReply(res: { text: string; stopReason: string }): string | undefined {
  if (!res.text.trim()) return 'is empty';
  if (res.stopReason === 'max_tokens') return 'was cut off at the token limit';
  const m = /<answer>([\s\S]*?)(<\/answer>|$)/.exec(res.text);
  if (!m) return 'has no <answer> element';
  if (!m[2]) return 'has an <answer> element that is never closed';
  if (!m[1]!.trim()) return 'has an empty <answer>';
  return undefined;
}
