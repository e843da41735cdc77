/**
 * Retrieval benchmark: `npm run bench:retrieval -- --dataset <dir>` where <dir> holds raw/ (any
 * folder depth; a question's `doc` is the path under raw/) and questions.jsonl
 * (../shared/bench/README.md). Compiles raw/ offline into a temporary knowledge base, runs every
 * question through the same retrieval, packing and offline answer as `kb ask --offline`, and the
 * reference baseline (bench/reference.ts, the port of bm25_reference.py) on the same questions.
 * An answer counts when one of the gold strings appears as it is in the context or answer
 * (the reference's test; citations removed from kb's answer). Prints kb beside the reference; the
 * last line of output is one JSON object with the figures.
 *
 * Options: --dataset <dir> (required), --limit <n> questions, --budget <tokens> (default: config),
 * --keep (keep the temporary knowledge base and print where), --kb <dir> (use this knowledge base
 * folder, compiled there once and reused by later runs), --tuning '<json>' (ranking knobs),
 * --pack '<json>' (packing knobs), --misses <file> (write the questions kb misses, one JSON object a
 * line: the question, its gold answers, what missed — 1k context, 4k context, offline answer — the
 * offline answer and the top passages, to read why).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { compile } from '../src/compile/compile.js';
import { closeKb, openKb } from '../src/kb/context.js';
import { retrieve, type Tuning } from '../src/ask/retrieve.js';
import { packContext, unescapeXml, type PackOptions } from '../src/ask/pack.js';
import { offlineAnswer } from '../src/ask/answer.js';
import { Reference } from './reference.js';
import { goldDocs as goldOf, hasAnswer, linkRaw, readQaQuestions, uncited } from './qa-set.js';

const { values } = parseArgs({
  options: {
    dataset: { type: 'string' },
    limit: { type: 'string' },
    budget: { type: 'string' },
    keep: { type: 'boolean' },
    tuning: { type: 'string' },
    pack: { type: 'string' },
    kb: { type: 'string' },
    misses: { type: 'string' },
  },
  allowPositionals: true,
});
if (!values.dataset) {
  process.stderr.write('usage: npm run bench:retrieval -- --dataset <dir with raw/ and questions.jsonl>\n');
  process.exit(2);
}
const dataset = resolve(values.dataset);
const name = dataset.split('/').filter(Boolean).pop() ?? dataset;
const tuning = values.tuning ? (JSON.parse(values.tuning) as Partial<Tuning>) : {};
const packOpts = values.pack ? (JSON.parse(values.pack) as Omit<PackOptions, 'budget'>) : {};
const log = (s: string) => process.stdout.write(`${s}\n`);

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : 0;
};
const r3 = (x: number) => Math.round(x * 1000) / 1000;

// --- Questions.
const questions = readQaQuestions(dataset, values.limit ? Number(values.limit) : undefined);

// --- Compile raw/ offline into a temporary knowledge base (raw/ is a symlink, never a copy).
const root = values.kb ? resolve(values.kb) : mkdtempSync(join(tmpdir(), `kb-bench-${name}-`));
linkRaw(dataset, root);
const ctx = openKb(root, { env: {} });
const budgetDefault = values.budget ? Number(values.budget) : ctx.config.ask.budget;
const tc = performance.now();
const report = await compile(ctx, {});
const compileMs = performance.now() - tc;
const counts = ctx.store.counts();
log(
  `${name}: compiled ${report.new} new documents (${report.unchanged} unchanged) into ${counts.entries} entries (${report.concepts.created} concepts), ${counts.chunks} chunks, ${counts.links} links in ${(compileMs / 1000).toFixed(1)} s`,
);
const entryOfRaw = new Map(ctx.store.allDocuments().map((d) => [d.entry_id ?? '', d.raw_path]));

// --- kb retrieval + packing.
let hit1 = 0;
let hit5 = 0;
let mrr = 0;
let rec1k = 0;
let rec4k = 0;
let ans = 0;
// Answers that say no statement answers for certain (and quote the likeliest passages), and those of
// them that hold the gold: the rest of answerInAnswer is what the confident answers hold.
let unsure = 0;
let ansUnsure = 0;
const ctxTokens: number[] = [];
const retrievalMs: number[] = [];
/** CPU time of the same calls: on a shared machine, wall time also measures the neighbours. */
const retrievalCpuMs: number[] = [];
const byType = new Map<string, { n: number; rec1k: number; rec4k: number }>();
const misses: string[] = [];
for (const q of questions) {
  const t = performance.now();
  const cpu = process.cpuUsage();
  const r = await retrieve(ctx, q.q, { limit: 20, passageLimit: 40, tuning });
  retrievalMs.push(performance.now() - t);
  const used = process.cpuUsage(cpu);
  retrievalCpuMs.push((used.user + used.system) / 1000);
  const gold = goldOf(q);
  const docsOf = (ids: string[]) => ids.map((id) => entryOfRaw.get(id)).filter((x): x is string => Boolean(x));
  const ranked = docsOf(r.entries.map((e) => e.id));
  if (ranked.slice(0, 1).some((d) => gold.has(d))) hit1++;
  if (r.entries.slice(0, 5).some((e) => gold.has(entryOfRaw.get(e.id) ?? ''))) hit5++;
  const firstGold = r.entries.findIndex((e) => gold.has(entryOfRaw.get(e.id) ?? ''));
  if (firstGold >= 0) mrr += 1 / (firstGold + 1);
  const p1 = packContext(ctx.store, r, { ...packOpts, budget: 1000 });
  const p4 = packContext(ctx.store, r, { ...packOpts, budget: 4000 });
  const pd = budgetDefault === 4000 ? p4 : packContext(ctx.store, r, { ...packOpts, budget: budgetDefault });
  ctxTokens.push(pd.tokens);
  const a1 = hasAnswer(unescapeXml(p1.xml), q.answers);
  const a4 = hasAnswer(unescapeXml(p4.xml), q.answers);
  if (a1) rec1k++;
  if (a4) rec4k++;
  const draft = offlineAnswer(q.q, pd);
  const answer = uncited(draft.text);
  const answered = hasAnswer(answer, q.answers);
  if (answered) ans++;
  if (draft.unsure) {
    unsure++;
    if (answered) ansUnsure++;
  }
  if (values.misses && !(a1 && a4 && answered))
    misses.push(
      JSON.stringify({
        q: q.q,
        answers: q.answers,
        doc: q.doc,
        missed: [!a1 && '1k', !a4 && '4k', !answered && 'answer'].filter(Boolean),
        goldRank: firstGold,
        answer,
        passages: r.passages.slice(0, 5).map((p) => ({ doc: p.rawPath, score: p.score, text: p.text })),
        context1k: unescapeXml(p1.xml),
      }),
    );
  const ty = byType.get(q.type ?? '') ?? { n: 0, rec1k: 0, rec4k: 0 };
  ty.n++;
  if (a1) ty.rec1k++;
  if (a4) ty.rec4k++;
  byType.set(q.type ?? '', ty);
}
closeKb(ctx);
if (values.misses) writeFileSync(values.misses, misses.map((m) => `${m}\n`).join(''));

// --- The reference baseline (bench/reference.ts, the port of bm25_reference.py), on the same questions.
const ref = new Reference(join(dataset, 'raw'));
let bHit5 = 0;
let bRec1k = 0;
let bRec4k = 0;
let bAns = 0;
for (const q of questions) {
  const ranked = ref.search(q.q);
  const gold = goldOf(q);
  if (ranked.slice(0, 5).some((i) => gold.has(ref.paras[i]!.doc))) bHit5++;
  if (hasAnswer(ref.pack(ranked, 1000), q.answers)) bRec1k++;
  if (hasAnswer(ref.pack(ranked, 4000), q.answers)) bRec4k++;
  if (hasAnswer(ref.answer(q.q, ranked), q.answers)) bAns++;
}

if (values.keep) log(`knowledge base kept at ${root}`);
else if (!values.kb) rmSync(root, { recursive: true, force: true });
const n = questions.length || 1;
if (byType.size > 1)
  for (const [ty, v] of byType)
    log(
      `  ${ty || '(none)'}: ${v.n} questions, answerRecall1k ${r3(v.rec1k / v.n)}, answerRecall4k ${r3(v.rec4k / v.n)}`,
    );
log(
  `  compile ${(compileMs / 1000).toFixed(1)} s; retrieval median ${quantile(retrievalMs, 0.5).toFixed(1)} ms, p95 ${quantile(retrievalMs, 0.95).toFixed(1)} ms (CPU: median ${quantile(retrievalCpuMs, 0.5).toFixed(1)} ms, p95 ${quantile(retrievalCpuMs, 0.95).toFixed(1)} ms)`,
);
const figures = {
  docHit5: [hit5, bHit5],
  answerRecall1k: [rec1k, bRec1k],
  answerRecall4k: [rec4k, bRec4k],
  answerInAnswer: [ans, bAns],
} as const;
log(`  ${'figure'.padEnd(16)} ${'kb'.padStart(6)} ${'reference'.padStart(10)}`);
for (const [k, [a, b]] of Object.entries(figures))
  log(
    `  ${k.padEnd(16)} ${r3(a / n)
      .toFixed(3)
      .padStart(6)} ${r3(b / n)
      .toFixed(3)
      .padStart(10)}`,
  );
log(
  JSON.stringify({
    dataset: name,
    questions: questions.length,
    docHit1: r3(hit1 / n),
    docHit5: r3(hit5 / n),
    mrr: r3(mrr / n),
    answerRecall1k: r3(rec1k / n),
    answerRecall4k: r3(rec4k / n),
    answerInAnswer: r3(ans / n),
    unsureAnswers: r3(unsure / n),
    answerInUnsureAnswer: r3(ansUnsure / n),
    medianContextTokens: Math.round(quantile(ctxTokens, 0.5)),
    p95RetrievalMs: Math.round(quantile(retrievalMs, 0.95) * 10) / 10,
    p95RetrievalCpuMs: Math.round(quantile(retrievalCpuMs, 0.95) * 10) / 10,
    baselineDocHit5: r3(bHit5 / n),
    baselineAnswerRecall1k: r3(bRec1k / n),
    baselineAnswerRecall4k: r3(bRec4k / n),
    baselineAnswerInAnswer: r3(bAns / n),
  }),
);
