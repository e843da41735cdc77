import { randomUUID } from 'node:crypto';
import { writableStore, type KbContext } from '../kb/context.js';
import { retrieve } from '../ask/retrieve.js';
import { ask, type AskResult } from '../ask/ask.js';
import { answerProblems, saveAnswer } from '../ask/save.js';
import { modelFor } from '../mcp/tools.js';
import { boundedText, citesSchema, contentSchema, MCP_LIMITS, titleSchema } from '../mcp/limits.js';
import type { Finding } from '../lint/types.js';
import { KbError, NotSavedError } from '../diagnostics/errors.js';
import type { Catalog } from './catalog.js';
import type { Hrefs } from './html.js';
import { attachments, pageRenderer } from './entry-view.js';
import { lintInProcess } from './lint-process.js';

const querySchema = boundedText('query', MCP_LIMITS.query);
const questionSchema = boundedText('question', MCP_LIMITS.question);

/** A value the browser sent, checked by a zod schema; its first complaint becomes the error. */
function checked<T>(
  schema: {
    safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
  },
  v: unknown,
): T {
  const r = schema.safeParse(v);
  if (!r.success) throw new KbError(r.error.issues[0]?.message ?? 'invalid input');
  return r.data;
}

/** Answers given lately, kept so that Save files exactly the answer shown (never text the browser sends). */
const RECENT = 50;

/** What the pages ask the server for: search, ask, save, lint. Plain functions of the knowledge base. */
export function createApi(ctx: KbContext, opts: { offline: boolean; catalog: () => Catalog; h: Hrefs }) {
  const model = modelFor(ctx, opts.offline);
  const answers = new Map<string, AskResult>();
  let lint: { version: string; report: Promise<Finding[]> } | undefined;

  async function search(q: unknown, signal?: AbortSignal) {
    const query = checked(querySchema, q);
    const r = await retrieve(ctx, query, { limit: 10, passageLimit: 5, signal });
    return {
      query,
      entries: r.entries.map((e) => ({ title: e.title, kind: e.kind, summary: e.summary, href: opts.h.entry(e.id) })),
      passages: r.passages.map((p) => ({
        title: p.title,
        heading: p.heading,
        text: p.text,
        href: opts.h.entry(p.entryId),
      })),
      ms: Math.round(r.timings.totalMs),
    };
  }

  async function askQuestion(q: unknown, signal?: AbortSignal) {
    const question = checked(questionSchema, q);
    const res = await ask(ctx, question, { budget: ctx.config.ask.budget, model: model(), signal });
    const { packed: _p, retrieval: _r, ...answer } = res;
    const id = randomUUID();
    answers.set(id, answer);
    for (const k of answers.keys()) if (answers.size > RECENT) answers.delete(k);
    const cat = opts.catalog();
    const render = pageRenderer(cat, opts.h, attachments(ctx.paths.wiki));
    return {
      id,
      html: render(answer.answer),
      citations: answer.citations.map((c) => ({ title: c.title, href: opts.h.entry(c.id) })),
      mode: answer.mode,
      model: answer.model ?? null,
      cached: answer.cached,
      warnings: answer.warnings ?? [],
      problems: answerProblems(answer, { requireCitations: true }),
    };
  }

  /** `kb ask --save` for an answer shown: its checks, then the MCP save tool's bounds, then saveAnswer under the lock. */
  async function save(id: unknown, signal?: AbortSignal) {
    const a = typeof id === 'string' ? answers.get(id) : undefined;
    if (!a) throw new KbError('That answer is no longer known to the server; ask again, then save.');
    const problems = answerProblems(a, { requireCitations: true });
    if (problems.length) throw new NotSavedError(`Not filed: ${problems.join('; ')}.`);
    checked(titleSchema, a.question);
    checked(contentSchema, a.answer);
    checked(
      citesSchema,
      a.citations.map((c) => c.id),
    );
    writableStore(ctx);
    const by = a.mode === 'model' ? `model:${a.model ?? 'unknown'}` : 'offline';
    const r = await saveAnswer(
      ctx,
      { question: a.question, answer: a.answer, citations: a.citations, by },
      { ...(signal ? { signal } : {}), lockWaitMs: 30_000 },
    );
    return { path: `wiki/${r.path}`, href: opts.h.entry(r.id), updated: r.updated, backlinked: r.backlinked.length };
  }

  /** Lint findings about one entry, from one offline lint run per version of the wiki. */
  async function lintOf(entryId: unknown) {
    const cat = opts.catalog();
    const row = typeof entryId === 'string' ? cat.byId.get(entryId) : undefined;
    if (!row) throw new KbError('No such entry.');
    if (lint?.version !== cat.version) {
      const report = lintInProcess(ctx.paths.root);
      // A failed run is not kept: the next page asks again.
      report.catch(() => (lint = undefined));
      lint = { version: cat.version, report };
    }
    const file = `wiki/${row.path}`;
    const findings = (await lint.report).filter((f) => f.file === file || f.data?.path === file);
    return {
      findings: findings.map((f) => ({
        ruleId: f.ruleId ?? '',
        severity: f.severity,
        reason: f.reason,
        place: f.place ?? null,
      })),
    };
  }

  return { search, ask: askQuestion, save, lint: lintOf };
}

export type Api = ReturnType<typeof createApi>;
