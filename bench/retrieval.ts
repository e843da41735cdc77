/**
 * Retrieval benchmark: `npm run bench:retrieval -- --dataset <dir>` where <dir> holds raw/ and
 * questions.jsonl (../shared/bench/README.md). Compiles raw/ offline into a temporary knowledge
 * base, runs every question through the same retrieval and packing as `kb ask` (no model), and a
 * plain BM25 baseline over the raw paragraphs packed with the same token counter.
 * The last line of output is one JSON object with the figures.
 *
 * Options: --dataset <dir> (required), --limit <n> questions, --budget <tokens> (default: config),
 * --keep (keep the temporary knowledge base and print where), --kb <dir> (use this knowledge base
 * folder, compiled there once and reused by later runs), --tuning '<json>' (ranking knobs),
 * --pack '<json>' (packing knobs).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { compile } from '../src/compile/compile.js';
import { closeKb, openKb } from '../src/kb/context.js';
import { retrieve, type Tuning } from '../src/ask/retrieve.js';
import { packContext, unescapeXml, type PackOptions } from '../src/ask/pack.js';
import { countTokens } from '../src/text/tokens.js';
import { searchTerms } from '../src/text/search.js';

interface Question {
  q: string;
  answers: string[];
  doc: string;
  docs?: string[];
  type?: string;
}

const { values } = parseArgs({
  options: {
    dataset: { type: 'string' },
    limit: { type: 'string' },
    budget: { type: 'string' },
    keep: { type: 'boolean' },
    tuning: { type: 'string' },
    pack: { type: 'string' },
    kb: { type: 'string' },
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

const norm = (s: string) => s.normalize('NFKC').replace(/\s+/g, ' ').toLowerCase();
const hasAnswer = (context: string, answers: string[]) => {
  const c = norm(context);
  return answers.some((a) => a.trim() !== '' && c.includes(norm(a).trim()));
};
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : 0;
};
const r3 = (x: number) => Math.round(x * 1000) / 1000;

// --- Questions.
let questions: Question[] = readFileSync(join(dataset, 'questions.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Question);
if (values.limit) questions = questions.slice(0, Number(values.limit));
const goldOf = (q: Question) => new Set(q.docs?.length ? q.docs : [q.doc]);

// --- Compile raw/ offline into a temporary knowledge base (raw/ is a symlink, never a copy).
const root = values.kb ? resolve(values.kb) : mkdtempSync(join(tmpdir(), `kb-bench-${name}-`));
if (!existsSync(join(root, 'raw'))) {
  mkdirSync(root, { recursive: true });
  symlinkSync(join(dataset, 'raw'), join(root, 'raw'), 'dir');
}
const ctx = openKb(root, { env: {} });
const budgetDefault = values.budget ? Number(values.budget) : ctx.config.ask.budget;
const tc = performance.now();
const report = await compile(ctx, {});
const compileMs = performance.now() - tc;
const counts = ctx.store.counts();
log(`${name}: compiled ${report.new} new documents (${report.unchanged} unchanged) into ${counts.entries} entries (${report.concepts.created} concepts), ${counts.chunks} chunks, ${counts.links} links in ${(compileMs / 1000).toFixed(1)} s`);
const entryOfRaw = new Map(ctx.store.allDocuments().map((d) => [d.entry_id ?? '', d.raw_path]));

// --- kb retrieval + packing.
let hit1 = 0;
let hit5 = 0;
let mrr = 0;
let rec1k = 0;
let rec4k = 0;
const ctxTokens: number[] = [];
const retrievalMs: number[] = [];
const byType = new Map<string, { n: number; rec1k: number; rec4k: number }>();
for (const q of questions) {
  const t = performance.now();
  const r = await retrieve(ctx, q.q, { limit: 20, passageLimit: 40, tuning });
  retrievalMs.push(performance.now() - t);
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
  const ty = byType.get(q.type ?? '') ?? { n: 0, rec1k: 0, rec4k: 0 };
  ty.n++;
  if (a1) ty.rec1k++;
  if (a4) ty.rec4k++;
  byType.set(q.type ?? '', ty);
}
closeKb(ctx);

// --- Baseline: plain BM25 over the raw paragraphs (words for English, Han bigrams for Chinese).
interface Para {
  doc: string;
  text: string;
  tokens: number;
  len: number;
}
const paras: Para[] = [];
const postings = new Map<string, [number, number][]>();
const listRaw = (dir: string, rel = ''): string[] =>
  readdirSync(join(dir, rel)).flatMap((n) => {
    const r = rel ? `${rel}/${n}` : n;
    return statSync(join(dir, r)).isDirectory() ? listRaw(dir, r) : [r];
  });
for (const file of listRaw(join(dataset, 'raw'))) {
  const text = readFileSync(join(dataset, 'raw', file), 'utf8');
  for (const p of text.split(/\n\s*\n/)) {
    const t = p.trim();
    if (!t || /^#{1,6}\s/.test(t)) continue;
    const terms = searchTerms(t);
    const tf = new Map<string, number>();
    for (const w of terms) tf.set(w, (tf.get(w) ?? 0) + 1);
    const idx = paras.length;
    paras.push({ doc: file, text: t, tokens: countTokens(t), len: terms.length });
    for (const [w, n] of tf) (postings.get(w) ?? postings.set(w, []).get(w)!).push([idx, n]);
  }
}
const avgLen = paras.reduce((s, p) => s + p.len, 0) / Math.max(1, paras.length);
const bm25 = (query: string): number[] => {
  const scores = new Map<number, number>();
  for (const w of new Set(searchTerms(query))) {
    const post = postings.get(w);
    if (!post) continue;
    const idf = Math.log(1 + (paras.length - post.length + 0.5) / (post.length + 0.5));
    for (const [i, tf] of post) {
      const len = paras[i]!.len;
      scores.set(i, (scores.get(i) ?? 0) + (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * len) / avgLen)));
    }
  }
  return [...scores].sort((a, b) => b[1] - a[1]).map(([i]) => i);
};
const packParas = (ranked: number[], budget: number): string => {
  let used = 0;
  const out: string[] = [];
  for (const i of ranked) {
    const p = paras[i]!;
    if (used + p.tokens > budget) continue;
    used += p.tokens;
    out.push(p.text);
    if (budget - used < 10) break;
  }
  return out.join('\n\n');
};
let bHit5 = 0;
let bRec1k = 0;
let bRec4k = 0;
for (const q of questions) {
  const ranked = bm25(q.q);
  const gold = goldOf(q);
  const topDocs = [...new Set(ranked.map((i) => paras[i]!.doc))].slice(0, 5);
  if (topDocs.some((d) => gold.has(d))) bHit5++;
  if (hasAnswer(packParas(ranked, 1000), q.answers)) bRec1k++;
  if (hasAnswer(packParas(ranked, 4000), q.answers)) bRec4k++;
}

if (values.keep) log(`knowledge base kept at ${root}`);
else if (!values.kb) rmSync(root, { recursive: true, force: true });
const n = questions.length || 1;
if (byType.size > 1) for (const [ty, v] of byType) log(`  ${ty || '(none)'}: ${v.n} questions, answerRecall1k ${r3(v.rec1k / v.n)}, answerRecall4k ${r3(v.rec4k / v.n)}`);
log(`  compile ${(compileMs / 1000).toFixed(1)} s; retrieval median ${quantile(retrievalMs, 0.5).toFixed(1)} ms`);
log(
  JSON.stringify({
    dataset: name,
    questions: questions.length,
    docHit1: r3(hit1 / n),
    docHit5: r3(hit5 / n),
    mrr: r3(mrr / n),
    answerRecall1k: r3(rec1k / n),
    answerRecall4k: r3(rec4k / n),
    medianContextTokens: Math.round(quantile(ctxTokens, 0.5)),
    p95RetrievalMs: Math.round(quantile(retrievalMs, 0.95) * 10) / 10,
    baselineDocHit5: r3(bHit5 / n),
    baselineAnswerRecall1k: r3(bRec1k / n),
    baselineAnswerRecall4k: r3(bRec4k / n),
  }),
);
