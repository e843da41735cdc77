import type { KbContext } from '../kb/context.js';
import type { ModelClient } from '../model/client.js';
import { loadTemplate } from '../model/templates.js';
import {
  ANSWER_VERSION,
  expandQuery,
  modelAnswer,
  NOTHING,
  offlineAnswer,
  type Citation,
  type DraftAnswer,
} from './answer.js';
import { AnswerCache, wikiVersion } from './cache.js';
import { packContext, type PackedContext } from './pack.js';
import { questionKey } from './question.js';
import { retrieve, staleVectorsWarning, type Retrieval } from './retrieve.js';

export interface AskOptions {
  budget?: number;
  /** The model client; undefined (no key, or --offline) gives the extractive answer. */
  model?: ModelClient | undefined;
  /** Use the answer cache (default true). */
  cache?: boolean;
  signal?: AbortSignal | undefined;
}

export interface AskResult {
  question: string;
  answer: string;
  citations: Citation[];
  mode: 'offline' | 'model';
  model?: string;
  /** No statement answered with confidence: the answer says so and quotes the likeliest passages. */
  unsure?: boolean;
  /** Keyword queries the model expanded the question into. */
  queries: string[];
  context: { tokens: number; budget: number; entries: number; passages: number };
  timings: { expandMs: number; retrieveMs: number; packMs: number; answerMs: number; totalMs: number };
  /** Served from the answer cache. */
  cached: boolean;
  wikiVersion: string;
  /** What went wrong on the way (the model failed and the extractive answer stands in). */
  warnings?: string[];
  /** Why the model's reply is not a well-formed answer; such an answer is shown but never filed. */
  malformed?: string;
}

/** Question → (expand) → retrieve → pack → answer; cached by question and wiki version. */
export async function ask(
  ctx: KbContext,
  question: string,
  opts: AskOptions = {},
): Promise<AskResult & { packed?: PackedContext; retrieval?: Retrieval }> {
  const t0 = performance.now();
  const budget = opts.budget ?? ctx.config.ask.budget;
  const version = wikiVersion(ctx.store);
  const settings = JSON.stringify({
    budget,
    model: opts.model?.model ?? 'offline',
    answerer: ANSWER_VERSION,
    // The model's answer follows the templates: an edited template is a new question to it.
    templates: opts.model ? ['expand-query', 'answer'].map((t) => loadTemplate(ctx.paths.root, t).hash) : [],
  });
  const useCache = opts.cache !== false;
  const cache = useCache ? AnswerCache.open(ctx.paths, ctx.config.ask.cacheTtlSeconds) : undefined;
  try {
    const key = AnswerCache.key(question, settings, version);
    const hit = cache?.get<AskResult>(key);
    if (hit) return { ...hit, question, cached: true, timings: { ...hit.timings, totalMs: performance.now() - t0 } };

    let queries: string[] = [];
    const t1 = performance.now();
    const warnings: string[] = [];
    const stale = staleVectorsWarning(ctx.store);
    if (stale) warnings.push(stale);
    if (opts.model) {
      try {
        queries = await expandQuery(opts.model, ctx.paths.root, question, opts.signal);
      } catch (err) {
        if (opts.signal?.aborted) throw err;
        warnings.push(`Query expansion failed (${(err as Error).message}); searched with the question alone.`);
      }
    }
    const t2 = performance.now();
    const retrieval = withoutOwnAnswer(await retrieve(ctx, question, { queries, signal: opts.signal }), question);
    const t3 = performance.now();
    const packed = packContext(ctx.store, retrieval, { budget });
    const t4 = performance.now();
    let draft: DraftAnswer;
    // Chunks end at paragraphs: a blank line between them keeps a heading at a chunk's start a heading.
    const textOf = (id: string) =>
      ctx.store
        .chunksOfEntry(id)
        .map((c) => c.text)
        .join('\n\n');
    try {
      draft = opts.model
        ? await modelAnswer(opts.model, ctx.paths.root, question, packed, opts.signal)
        : offlineAnswer(question, packed, 3, textOf);
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      warnings.push(`The model failed (${(err as Error).message}); this is the extractive answer.`);
      draft = offlineAnswer(question, packed, 3, textOf);
    }
    if (draft.malformed) warnings.push(`The model's reply ${draft.malformed}.`);
    // Warnings so far mean a lesser answer (a fallback, a malformed reply): not worth keeping.
    const lesser = warnings.length > 0;
    for (const w of citationWarnings(draft)) warnings.push(w);
    const t5 = performance.now();
    const result: AskResult = {
      question,
      answer: draft.text,
      citations: draft.citations,
      mode: draft.mode,
      ...(draft.model ? { model: draft.model } : {}),
      ...(draft.unsure ? { unsure: true } : {}),
      queries,
      context: {
        tokens: packed.tokens,
        budget,
        entries: packed.entries.length,
        passages: packed.entries.reduce((n, e) => n + e.passages.length, 0),
      },
      timings: { expandMs: t2 - t1, retrieveMs: t3 - t2, packMs: t4 - t3, answerMs: t5 - t4, totalMs: t5 - t0 },
      cached: false,
      wikiVersion: version,
      ...(warnings.length ? { warnings } : {}),
      ...(draft.malformed ? { malformed: draft.malformed } : {}),
    };
    // A fallback answer is not worth keeping: the next try may reach the model.
    if (!lesser) cache?.put(key, question, version, result);
    return { ...result, packed, retrieval };
  } finally {
    cache?.close();
  }
}

/**
 * What is wrong with the citations of a model's answer: names no entry it was given (a page the
 * model recalled, a paper it knows), or no citation at all. Each is a warning; `--strict` fails on it.
 */
function citationWarnings(draft: DraftAnswer): string[] {
  if (draft.mode !== 'model' || draft.malformed) return [];
  const out: string[] = [];
  const unknown = draft.unknownCitations ?? [];
  if (unknown.length)
    out.push(
      `The answer cites ${unknown.map((u) => `[[${u}]]`).join(', ')}, which ${unknown.length === 1 ? 'names' : 'name'} no entry it was given; shown as plain text.`,
    );
  if (!draft.citations.length && draft.text !== NOTHING)
    out.push('The answer cites no entry of the wiki: check it against the sources before relying on it.');
  return out;
}

/**
 * The answer filed for this same question is never a source of its new answer: it would only
 * quote itself, and `--save` would then replace it with an answer that cites nothing but itself.
 */
function withoutOwnAnswer(r: Retrieval, question: string): Retrieval {
  const key = questionKey(question);
  const own = (kind: string, title: string) => kind === 'answer' && questionKey(title) === key;
  const entries = r.entries.filter((e) => !own(e.kind, e.title));
  if (entries.length === r.entries.length && !r.passages.some((p) => p.entryId.startsWith('answer/'))) return r;
  return { ...r, entries, passages: r.passages.filter((p) => !own(p.entryId.split('/')[0] ?? '', p.title)) };
}
