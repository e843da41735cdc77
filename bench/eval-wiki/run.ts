// npm run eval:wiki [-- --corpus book,notes] [--json] [--show] [--keep]
// Compiles each labelled corpus of bench/corpora/wiki/ offline, in a fresh folder, with the real
// CLI, and prints what a reader of the wiki would notice: noise pages, central concepts with a page,
// translation pairs on one page, source titles and summaries, links into noise.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type CorpusScore, judgeWiki } from './judge.js';
import { readLabels } from './labels.js';
import { readWiki } from './read-wiki.js';

export const CORPORA = resolve(import.meta.dirname, '..', 'corpora', 'wiki');
/** The kb to judge: this checkout's, or another's (`KB_EVAL_BIN`) for a before/after table in one run. */
const BIN = process.env['KB_EVAL_BIN'] || resolve(import.meta.dirname, '..', '..', 'bin', 'kb.js');

export function corpusNames(): string[] {
  return readdirSync(CORPORA, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(CORPORA, d.name, 'labels.json')))
    .map((d) => d.name)
    .sort();
}

/**
 * Compile one corpus offline in a fresh folder with the real CLI; returns the folder, which the
 * caller removes (`rmSync(root, { recursive: true, force: true })`).
 */
export function compileCorpus(name: string, opts: { env?: NodeJS.ProcessEnv } = {}): { root: string; ms: number } {
  const root = mkdtempSync(join(tmpdir(), `kb-eval-${name}-`));
  try {
    cpSync(join(CORPORA, name, 'raw'), join(root, 'raw'), { recursive: true });
    const t = performance.now();
    const r = spawnSync(process.execPath, [BIN, 'compile', '--offline', '--kb', root], {
      env: { ...process.env, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '', NO_COLOR: '1', ...opts.env },
      encoding: 'utf8',
    });
    const ms = performance.now() - t;
    if (r.status !== 0) throw new Error(`kb compile of ${name} failed (${r.status}): ${r.stderr}`);
    return { root, ms };
  } catch (err) {
    rmSync(root, { recursive: true, force: true });
    throw err;
  }
}

/** Compile one corpus in a fresh folder and judge it; `keep` leaves the folder and returns its path. */
export function evalCorpus(
  name: string,
  opts: { keep?: boolean; env?: NodeJS.ProcessEnv } = {},
): {
  score: CorpusScore;
  root: string;
  ms: number;
} {
  const labels = readLabels(join(CORPORA, name, 'labels.json'));
  const { root, ms } = compileCorpus(name, opts.env ? { env: opts.env } : {});
  try {
    // A post of a feed is labelled as `raw/feed.xml#post`: its text is the file's.
    const raw = new Map(
      labels.sources.map((src) => [src.path, readFileSync(join(root, src.path.split('#')[0]!), 'utf8')]),
    );
    return { score: judgeWiki(labels, readWiki(join(root, 'wiki')), raw), root, ms };
  } finally {
    if (!opts.keep) rmSync(root, { recursive: true, force: true });
  }
}

const pct = (a: number, b: number) => (b ? `${Math.round((100 * a) / b)}%` : '–');
const of = (a: number, b: number) => (b ? `${a} of ${b}` : '–');

export function scoreRow(s: CorpusScore): string {
  return [
    s.corpus,
    String(s.conceptPages),
    `${s.noise} (${pct(s.noise, s.conceptPages)}${s.unjudged ? `, ${s.unjudged} unjudged` : ''})`,
    String(s.duplicates),
    `${of(s.centralWithPage, s.central)} (${pct(s.centralWithPage, s.central)})`,
    of(s.translatedWorksOnOnePage, s.translatedWorks),
    of(s.namedPairsMerged, s.namedPairs),
    s.versionPairs || s.wrongVersions ? `${of(s.versionPairsLinked, s.versionPairs)}, ${s.wrongVersions} wrong` : '–',
    of(s.titlesRight, s.sources),
    of(s.summariesRight, s.sources),
    `${s.linksToNoise} of ${s.linksToConcepts} (${pct(s.linksToNoise, s.linksToConcepts)})`,
  ].join(' | ');
}

export const HEADER =
  '| corpus | concept pages | noise | duplicates | central with a page | translated works on one page | named en/zh pairs merged | versions listing each other | titles right | summaries right | links to noise |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |';

function main(): void {
  const argv = process.argv.slice(2);
  const flag = (f: string) => argv.includes(f);
  const value = (f: string) => {
    const i = argv.indexOf(f);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const names = value('--corpus')?.split(',') ?? corpusNames();
  const scores: CorpusScore[] = [];
  for (const name of names) {
    const { score, root, ms } = evalCorpus(name, { keep: flag('--keep') });
    scores.push(score);
    process.stderr.write(`${name}: compiled in ${(ms / 1000).toFixed(1)} s${flag('--keep') ? ` (${root})` : ''}\n`);
    if (flag('--show')) process.stderr.write(`${JSON.stringify(score.missing, null, 2)}\n`);
  }
  if (flag('--json')) {
    console.log(JSON.stringify(scores, null, 2));
    return;
  }
  console.log(HEADER);
  for (const s of scores) console.log(`| ${scoreRow(s)} |`);
  const sum = (f: (s: CorpusScore) => number) => scores.reduce((n, s) => n + f(s), 0);
  const total: CorpusScore = {
    ...scores[0]!,
    corpus: '**all**',
    conceptPages: sum((s) => s.conceptPages),
    noise: sum((s) => s.noise),
    unjudged: sum((s) => s.unjudged),
    duplicates: sum((s) => s.duplicates),
    central: sum((s) => s.central),
    centralWithPage: sum((s) => s.centralWithPage),
    translatedWorks: sum((s) => s.translatedWorks),
    translatedWorksOnOnePage: sum((s) => s.translatedWorksOnOnePage),
    namedPairs: sum((s) => s.namedPairs),
    namedPairsMerged: sum((s) => s.namedPairsMerged),
    versionPairs: sum((s) => s.versionPairs),
    versionPairsLinked: sum((s) => s.versionPairsLinked),
    wrongVersions: sum((s) => s.wrongVersions),
    sources: sum((s) => s.sources),
    titlesRight: sum((s) => s.titlesRight),
    summariesRight: sum((s) => s.summariesRight),
    linksToConcepts: sum((s) => s.linksToConcepts),
    linksToNoise: sum((s) => s.linksToNoise),
  };
  if (scores.length > 1) console.log(`| ${scoreRow(total)} |`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) main();
