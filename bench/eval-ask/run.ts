// npm run eval:ask [-- --corpus book,notes] [--sets xquad-en,cmrc2018-dev | --no-sets] [--limit 40]
//                     [--datasets DIR] [--show] [--json FILE]
// Compiles each corpus of the wiki eval offline (bench/corpora/wiki/), answers the labelled questions
// of questions.ts in-process as `kb ask --offline` does, and prints right / partly / wrong per corpus,
// kind, language and for questions that cross languages, with where a miss came from: the key
// phrases in the packed context or not, the gold document retrieved or cited. Then `--limit`
// questions (default 40; 0: all) spread over each shared QA set (../shared/bench/datasets, or
// --datasets) with their answerInAnswer.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ask } from '../../src/ask/ask.js';
import { unescapeXml } from '../../src/ask/pack.js';
import { compile } from '../../src/compile/compile.js';
import { closeKb, type KbContext, openKb } from '../../src/kb/context.js';
import { compileCorpus } from '../eval-wiki/run.js';
import { goldDocs, hasAnswer, linkRaw, readQaQuestions, spread, uncited } from '../qa-set.js';
import { type Judged, leadsInAskersLanguage, phrasesHeld, type Tally, tally, verdict } from './judge.js';
import { type AskQuestion, QUESTIONS } from './questions.js';

export interface AnswerResult {
  question: AskQuestion;
  answer: string;
  judged: Judged;
}

export interface SetResult {
  set: string;
  questions: number;
  answerInAnswer: number;
  /** The gold answer is in the packed context: a miss with it is the answerer's, not retrieval's. */
  answerInContext: number;
  docHit5: number;
}

/** A gold path of questions.ts (`raw/en/a.md`) as the store names it (`en/a.md`). */
const underRaw = (doc: string) => doc.replace(/^raw\//, '');

/** Source entry id → the raw path of its document. */
function rawOfEntry(ctx: KbContext): Map<string, string> {
  return new Map(ctx.store.allDocuments().map((d) => [d.entry_id ?? '', d.raw_path]));
}

async function answerOne(ctx: KbContext, raw: Map<string, string>, question: AskQuestion): Promise<AnswerResult> {
  const r = await ask(ctx, question.q, { cache: false });
  const gold = new Set(question.docs.map(underRaw));
  const isGold = (id: string) => gold.has(raw.get(id) ?? '');
  const sources = (r.retrieval?.entries ?? []).filter((e) => raw.has(e.id));
  const context = r.packed ? unescapeXml(r.packed.xml) : '';
  return {
    question,
    answer: r.answer,
    judged: {
      verdict: verdict(r.answer, question.gold),
      inContext: phrasesHeld(context, question.gold) === question.gold.length,
      docHit1: sources.slice(0, 1).some((e) => isGold(e.id)),
      docHit5: sources.slice(0, 5).some((e) => isGold(e.id)),
      cited: r.citations.some((c) => isGold(c.id)),
      ...(r.unsure ? { unsure: true } : {}),
      ...withAskersLanguage(leadsInAskersLanguage(question.lang, question.docs, r.answer)),
    },
  };
}

const withAskersLanguage = (leads: boolean | undefined) => (leads === undefined ? {} : { askersLanguage: leads });

/** Compile one corpus offline and answer its questions (all of them, or those given). */
export async function answerCorpus(
  name: string,
  questions = QUESTIONS.filter((q) => q.corpus === name),
  /** The corpus compiled already (the caller's folder, left in place); by default compiled here and removed after. */
  compiled?: string,
): Promise<{ results: AnswerResult[]; compileMs: number; answerMs: number }> {
  const { root, ms } = compiled ? { root: compiled, ms: 0 } : compileCorpus(name);
  const ctx = openKb(root, { env: {} });
  try {
    const raw = rawOfEntry(ctx);
    const t = performance.now();
    const results: AnswerResult[] = [];
    for (const q of questions) results.push(await answerOne(ctx, raw, q));
    return { results, compileMs: ms, answerMs: performance.now() - t };
  } finally {
    closeKb(ctx);
    if (!compiled) rmSync(root, { recursive: true, force: true });
  }
}

/** `limit` questions spread over a shared QA set (0: all), answered as `kb ask --offline` answers. */
export async function answerSet(dataset: string, limit: number): Promise<SetResult> {
  const root = mkdtempSync(join(tmpdir(), 'kb-eval-ask-set-'));
  try {
    linkRaw(dataset, root);
    const ctx = openKb(root, { env: {} });
    try {
      await compile(ctx, {});
      const raw = rawOfEntry(ctx);
      const out: SetResult = {
        set: dataset.split('/').pop() ?? dataset,
        questions: 0,
        answerInAnswer: 0,
        answerInContext: 0,
        docHit5: 0,
      };
      for (const q of spread(readQaQuestions(dataset), limit)) {
        const r = await ask(ctx, q.q, { cache: false });
        const gold = goldDocs(q);
        out.questions++;
        if (hasAnswer(uncited(r.answer), q.answers)) out.answerInAnswer++;
        if (r.packed && hasAnswer(unescapeXml(r.packed.xml), q.answers)) out.answerInContext++;
        const sources = (r.retrieval?.entries ?? []).filter((e) => raw.has(e.id));
        if (sources.slice(0, 5).some((e) => gold.has(raw.get(e.id) ?? ''))) out.docHit5++;
      }
      return out;
    } finally {
      closeKb(ctx);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const pct = (a: number, n: number) => (n ? `${Math.round((100 * a) / n)}%` : '–');

export const HEADER =
  '| | questions | right | partly | wrong | answerInAnswer | phrases in context | docHit1 | docHit5 | gold cited | unsure (right) |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |';

export function tallyRow(label: string, t: Tally): string {
  const cells = [t.right, t.partly, t.wrong, t.answerInAnswer, t.inContext, t.docHit1, t.docHit5, t.cited];
  return `| ${label} | ${t.n} | ${cells.map((c) => `${c} (${pct(c, t.n)})`).join(' | ')} | ${t.unsure} (${t.unsureRight}) |`;
}

function groupBy(results: AnswerResult[], key: (r: AnswerResult) => string): [string, Judged[]][] {
  const m = new Map<string, Judged[]>();
  for (const r of results) m.set(key(r), [...(m.get(key(r)) ?? []), r.judged]);
  return [...m];
}

export function printTables(results: AnswerResult[], log: (s: string) => void): void {
  const sections: [string, (r: AnswerResult) => string][] = [
    ['corpus', (r) => r.question.corpus],
    ['kind', (r) => r.question.kind],
    ['language asked', (r) => r.question.lang],
    ['across languages', (r) => (r.question.crossing ? 'crossing' : 'same language')],
  ];
  for (const [title, key] of sections) {
    log(`\n### by ${title}\n\n${HEADER}`);
    for (const [label, judged] of groupBy(results, key)) log(tallyRow(label, tally(judged)));
    if (title === 'corpus') log(tallyRow('**all**', tally(results.map((r) => r.judged))));
  }
  const versioned = results.filter((r) => r.judged.askersLanguage !== undefined);
  const leading = versioned.filter((r) => r.judged.askersLanguage).map((r) => r.question.id);
  log(
    `\nAnswers leading in the asker's language, for works held in it and in another: ${leading.length} of ${versioned.length}` +
      (versioned.length > leading.length
        ? ` (not: ${versioned
            .filter((r) => !r.judged.askersLanguage)
            .map((r) => r.question.id)
            .join(', ')})`
        : ''),
  );
}

function printMisses(results: AnswerResult[], log: (s: string) => void): void {
  log('\n### answers not right\n');
  for (const r of results.filter((x) => x.judged.verdict !== 'right')) {
    const j = r.judged;
    const where = [
      j.inContext ? 'phrases in context' : 'phrases not in context',
      j.docHit5 ? 'doc in top 5' : 'doc not in top 5',
    ];
    log(
      `- **${r.question.id}** (${j.verdict}; ${where.join(', ')}) ${r.question.q}\n  gold: ${r.question.gold.join(' + ')}\n  answer: ${r.answer.replace(/\s+/g, ' ').slice(0, 600)}`,
    );
  }
}

const DATASETS = resolve(import.meta.dirname, '..', '..', '..', 'shared', 'bench', 'datasets');

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      corpus: { type: 'string' },
      sets: { type: 'string' },
      'no-sets': { type: 'boolean' },
      limit: { type: 'string', default: '40' },
      datasets: { type: 'string', default: DATASETS },
      show: { type: 'boolean' },
      json: { type: 'string' },
    },
  });
  const log = (s: string) => process.stdout.write(`${s}\n`);
  const names = values.corpus?.split(',') ?? [...new Set(QUESTIONS.map((q) => q.corpus))];
  const results: AnswerResult[] = [];
  for (const name of names) {
    const r = await answerCorpus(name);
    results.push(...r.results);
    process.stderr.write(
      `${name}: compiled in ${(r.compileMs / 1000).toFixed(1)} s, ${r.results.length} questions answered in ${(r.answerMs / 1000).toFixed(1)} s\n`,
    );
  }
  printTables(results, log);
  if (values.show) printMisses(results, log);
  const sets: SetResult[] = [];
  const dir = resolve(values.datasets);
  if (!values['no-sets'] && existsSync(dir)) {
    const setNames = values.sets?.split(',') ?? readdirSync(dir).sort();
    for (const s of setNames) {
      const t = performance.now();
      sets.push(await answerSet(join(dir, s), Number(values.limit)));
      process.stderr.write(`${s}: ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
    }
    log(
      `\n### shared QA sets, ${values.limit} questions spread over each\n\n| set | questions | answerInAnswer | answer in context | docHit5 |\n| --- | --- | --- | --- | --- |`,
    );
    for (const s of sets)
      log(
        `| ${s.set} | ${s.questions} | ${[s.answerInAnswer, s.answerInContext, s.docHit5].map((c) => `${c} (${pct(c, s.questions)})`).join(' | ')} |`,
      );
  } else if (!values['no-sets']) process.stderr.write(`No shared QA sets at ${dir} (--datasets DIR); skipped.\n`);
  if (values.json)
    writeFileSync(
      values.json,
      `${JSON.stringify({ questions: results.map((r) => ({ id: r.question.id, q: r.question.q, gold: r.question.gold, answer: r.answer, ...r.judged })), sets }, null, 2)}\n`,
    );
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) await main();
