/**
 * Scale benchmark: `npm run bench:scale [-- --docs 1000,10000 --runs 3 --kb-per-doc 5 --profile <dir>]`.
 * For each corpus size, `--runs` fresh knowledge bases on the synthetic mixed English/Chinese corpus
 * (bench/corpus.ts, deterministic), each timed as whole `node bin/kb.js …` processes: full compile,
 * no-op, one change, one delete, an upgrade (every document compiled by an older offline compiler,
 * as after installing a new kb), status, lint, search, ask --offline; then retrieve() in-process
 * over 50 varied queries (p95), `kb watch` latency from a write in raw/ to its entry on disk, and a
 * resume: the same raw/ compiled afresh, stopped with SIGINT once 90% of its documents are stored,
 * then `kb compile` again (the figure; the issue's target is about a tenth of the full compile).
 * Beside them, in the same run, two baselines: bare node start-up and an I/O floor (read every raw
 * file, write as many files of the same size), so figures compare as ratios on a busy machine.
 * One JSON line per size on stdout (medians of the runs); progress and the load average on stderr.
 * `--profile <dir>` runs every kb process with --cpu-prof into <dir> (summarise: bench/profile.ts).
 * A read-only command (status, lint, search, ask) still running after `--timeout-min` (default 30)
 * is killed and its figure is null in the JSON line (stderr says so).
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { makeDoc, rng, writeCorpus, ZH_TERMS } from './corpus.js';
import { closeKb, openKb } from '../src/kb/context.js';
import { retrieve } from '../src/ask/retrieve.js';
import Database from 'better-sqlite3';

const { values } = parseArgs({
  options: {
    docs: { type: 'string' },
    runs: { type: 'string' },
    'kb-per-doc': { type: 'string' },
    profile: { type: 'string' },
    'timeout-min': { type: 'string' },
    keep: { type: 'boolean' },
  },
});
const sizes = (values.docs ?? '1000,10000').split(',').map((s) => Number(s.trim()));
const runs = Number(values.runs ?? 3);
const kbPerDoc = Number(values['kb-per-doc'] ?? 5);
const profileDir = values.profile ? resolve(values.profile) : undefined;
const timeoutMs = Number(values['timeout-min'] ?? 30) * 60_000;
if (
  sizes.some((n) => !Number.isInteger(n) || n < 2) ||
  !Number.isInteger(runs) ||
  runs < 1 ||
  !(kbPerDoc > 0) ||
  !(timeoutMs > 0)
) {
  process.stderr.write(
    'usage: npm run bench:scale -- [--docs 1000,10000] [--runs 3] [--kb-per-doc 5] [--timeout-min 30] [--profile <dir>] [--keep]\n',
  );
  process.exit(2);
}
if (profileDir) mkdirSync(profileDir, { recursive: true });

const bin = resolve(import.meta.dirname, '..', 'bin', 'kb.js');
const env = { ...process.env, ANTHROPIC_API_KEY: '', KB_REPORT_RSS: '1', NO_COLOR: '1' };
const say = (s: string) => process.stderr.write(`${s}\n`);
const load = () =>
  `load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** Whole milliseconds; a step killed at the timeout (Infinity) becomes null in JSON. */
const whole = (x: number) => (Number.isFinite(x) ? Math.round(x) : null);
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const mb = (bytes: number) => bytes / 1024 / 1024;

function nodeArgs(tag: string): string[] {
  return profileDir ? ['--cpu-prof', '--cpu-prof-dir', join(profileDir, tag)] : [];
}

/**
 * One whole `kb` process: wall time and its peak RSS (bin/kb.js reports it with KB_REPORT_RSS).
 * With a timeout, a process still running then is killed (kb treats SIGTERM as Ctrl-C, which a
 * long synchronous step does not see) and its time is Infinity (null in JSON).
 */
function kb(tag: string, args: string[], ok: number[] = [0], timeout?: number): { ms: number; rssMb: number } {
  const t = performance.now();
  const r = spawnSync(process.execPath, [...nodeArgs(tag), bin, ...args], {
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    ...(timeout ? { timeout, killSignal: 'SIGKILL' as const } : {}),
  });
  const ms = performance.now() - t;
  if (timeout && r.signal === 'SIGKILL' && ms >= timeout) {
    say(`  kb ${args[0]} still running after ${(timeout / 60_000).toFixed(0)} min: killed, figure null`);
    return { ms: Infinity, rssMb: NaN };
  }
  if (r.error) throw r.error;
  if (!ok.includes(r.status ?? -1))
    throw new Error(`kb ${args.join(' ')} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  const m = /kb-max-rss-kb=(\d+)/.exec(r.stderr);
  return { ms, rssMb: m ? Number(m[1]) / 1024 : NaN };
}

function nodeStart(): number {
  const t = performance.now();
  spawnSync(process.execPath, ['-e', '0']);
  return performance.now() - t;
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const it of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, it.name);
    if (it.isDirectory()) out.push(...listFiles(p));
    else out.push(p);
  }
  return out;
}

/** The I/O floor: read every raw file, then write as many files of the same sizes (then remove them). */
function ioFloor(raw: string): number {
  const out = mkdtempSync(join(tmpdir(), 'kb-bench-io-'));
  try {
    const t = performance.now();
    const files = listFiles(raw);
    const sizes: number[] = [];
    for (const f of files) sizes.push(readFileSync(f).length);
    for (const [i, n] of sizes.entries()) writeFileSync(join(out, `f${i}.md`), Buffer.alloc(n, 97));
    return performance.now() - t;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** ~50 queries, half English, half Chinese, some mixed; the same every run. */
function queries(): string[] {
  const en = [
    'Retrieval-Augmented Generation',
    'vector database',
    'BM25',
    'Reciprocal Rank Fusion',
    'knowledge graph',
    'Zettelkasten',
    'prompt caching',
    'context window',
    'word segmentation',
    'inverted index',
    'hybrid search',
    'cosine similarity',
    'chunking strategy',
    'citation tracking',
    'semantic search',
    'query expansion',
    'Niklas Luhmann',
    'HNSW',
  ];
  const zh = ZH_TERMS;
  const r = rng(15);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  const qs: string[] = [];
  for (let i = 0; i < 50; i++) {
    switch (i % 5) {
      case 0:
        qs.push(`what is ${pick(en)}?`);
        break;
      case 1:
        qs.push(`how does ${pick(en)} improve ${pick(en)} for the answer ranking`);
        break;
      case 2:
        qs.push(`${pick(zh)}是什么？`);
        break;
      case 3:
        qs.push(`${pick(zh)}和${pick(zh)}有什么区别`);
        break;
      default:
        qs.push(`${pick(en)} ${pick(zh)}`);
    }
  }
  return qs;
}

async function searchP95(root: string): Promise<number> {
  const ctx = openKb(root, { env: {} });
  // As `kb serve` and `kb mcp` read the store: the process answers many questions.
  ctx.store.mapForSearch();
  try {
    const qs = queries();
    await retrieve(ctx, qs[0]!, { limit: 10, passageLimit: 5 }); // warm: statements, embedder
    const ms: number[] = [];
    for (const q of qs) {
      const t = performance.now();
      await retrieve(ctx, q, { limit: 10, passageLimit: 5 });
      ms.push(performance.now() - t);
    }
    return quantile(ms, 0.95);
  } finally {
    closeKb(ctx);
  }
}

/** `kb watch` running: time from writing a new file in raw/ to its source entry on disk. */
async function watchLatency(root: string, run: number, tag: string): Promise<number> {
  const child = spawn(
    process.execPath,
    [...nodeArgs(tag), bin, 'watch', '--kb', root, '--no-initial', '--json', '--offline'],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  try {
    await new Promise<void>((res, rej) => {
      let buf = '';
      const onData = (d: Buffer) => {
        buf += d.toString();
        if (buf.includes('"type":"ready"')) {
          child.stdout.off('data', onData);
          child.stdout.resume();
          res();
        }
      };
      child.stdout.on('data', onData);
      child.once('exit', (code) => rej(new Error(`kb watch exited (${code}) before ready: ${stderr.slice(-2000)}`)));
    });
    const title = `Watch probe ${run}`;
    const body = makeDoc(900_000 + run, kbPerDoc * 1024).text.replace(/^---\ntitle: "[^"]*"/, `---\ntitle: "${title}"`);
    const entry = join(root, 'wiki', 'sources', `${title}.md`);
    const t = performance.now();
    writeFileSync(join(root, 'raw', `watch-probe-${run}.md`), body);
    const deadline = t + 10 * 60_000;
    while (!existsSync(entry)) {
      if (performance.now() > deadline)
        throw new Error(`no ${entry} after 10 minutes of kb watch: ${stderr.slice(-2000)}`);
      if (child.exitCode !== null) throw new Error(`kb watch exited (${child.exitCode}): ${stderr.slice(-2000)}`);
      await new Promise((res) => setTimeout(res, 5));
    }
    return performance.now() - t;
  } finally {
    child.kill('SIGINT');
    await exited;
  }
}

/**
 * A first compile of `root`'s raw/ (its wiki and state removed) stopped as Ctrl-C stops it once
 * `share` of its documents are stored (counted from `-v` lines), then `kb compile` again: that one
 * timed, as the whole process it is.
 */
async function resumeLatency(root: string, tag: string, share = 0.9): Promise<{ ms: number; rssMb: number }> {
  rmSync(join(root, 'wiki'), { recursive: true, force: true });
  rmSync(join(root, '.kb'), { recursive: true, force: true });
  const total = listFiles(join(root, 'raw')).length;
  const child = spawn(process.execPath, [...nodeArgs(`${tag}-stopped`), bin, 'compile', '-v', '--kb', root], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stored = 0;
  let stopped = false;
  let tail = '';
  let partial = '';
  child.stderr.on('data', (d: Buffer) => {
    const text = partial + d.toString();
    const lines = text.split('\n');
    partial = lines.pop() ?? '';
    for (const l of lines) {
      if (/^new\s+raw\//.test(l)) stored++;
      else tail = `${tail}${l}\n`.slice(-2000);
    }
    if (!stopped && stored >= share * total) {
      stopped = true;
      child.kill('SIGINT');
    }
  });
  const code = await new Promise<number | null>((res) => child.once('exit', (c) => res(c)));
  if (!stopped || code === 0)
    throw new Error(
      `the compile to stop ended (${code}) before ${Math.round(share * 100)}% of ${total} documents were stored (${stored}): ${tail}`,
    );
  return kb(tag, ['compile', '--kb', root]);
}

function storeBytes(root: string): number {
  const db = join(root, 'wiki', 'embeddings.db');
  return [db, `${db}-wal`].reduce((s, p) => s + (existsSync(p) ? statSync(p).size : 0), 0);
}

/** Each whole-process figure over node start-up, and the compiles over the I/O floor too. */
function ratios(out: Record<string, number | null>): string {
  const r = (k: string, base: string) => (out[k] == null || !out[base] ? 'n/a' : (out[k]! / out[base]!).toFixed(1));
  const procs = [
    'fullMs',
    'noopMs',
    'oneChangeMs',
    'deleteMs',
    'upgradeMs',
    'resumeMs',
    'statusMs',
    'lintMs',
    'searchMs',
    'askMs',
  ];
  return `×node start: ${procs.map((k) => `${k.replace(/Ms$/, '')} ${r(k, 'nodeStartMs')}`).join(', ')}; ×io floor: full ${r('fullMs', 'ioFloorMs')}, no-op ${r('noopMs', 'ioFloorMs')}, status ${r('statusMs', 'ioFloorMs')}, lint ${r('lintMs', 'ioFloorMs')}; resume ×full ${r('resumeMs', 'fullMs')}`;
}

const names = [
  'fullMs',
  'noopMs',
  'oneChangeMs',
  'deleteMs',
  'upgradeMs',
  'statusMs',
  'lintMs',
  'searchMs',
  'askMs',
  'searchP95InProcessMs',
  'watchMs',
  'resumeMs',
  'storeMb',
  'nodeStartMs',
  'ioFloorMs',
] as const;
type Figure = (typeof names)[number];

for (const docs of sizes) {
  const figures = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<Figure, number[]>;
  let peakRss = 0;
  say(`== ${docs} documents × ${kbPerDoc} KB, ${runs} run${runs === 1 ? '' : 's'} (${load()})`);
  for (let run = 0; run < runs; run++) {
    const root = mkdtempSync(join(tmpdir(), `kb-bench-scale-${docs}-`));
    const tag = (what: string) => `${docs}-${run + 1}-${what}`;
    const step = (what: string, r: { ms: number; rssMb?: number }) =>
      say(
        `  run ${run + 1}/${runs} ${what.padEnd(11)} ${r.ms.toFixed(0).padStart(7)} ms${r.rssMb ? `, RSS ${r.rssMb.toFixed(0)} MB` : ''}  (${load()})`,
      );
    try {
      const bytes = writeCorpus(join(root, 'raw'), docs, docs * kbPerDoc * 1024);
      say(`  run ${run + 1}/${runs}: corpus ${mb(bytes).toFixed(1)} MB in ${root}`);
      const base = [nodeStart(), nodeStart(), nodeStart()];
      figures.nodeStartMs.push(median(base));
      figures.ioFloorMs.push(ioFloor(join(root, 'raw')));
      step('node start', { ms: median(base) });
      step('io floor', { ms: figures.ioFloorMs.at(-1)! });

      const compileStep = (what: string, figure: Figure) => {
        const r = kb(tag(what), ['compile', '--kb', root]);
        figures[figure].push(r.ms);
        peakRss = Math.max(peakRss, r.rssMb);
        step(what, r);
      };
      compileStep('full', 'fullMs');
      const sources = readdirSync(join(root, 'wiki', 'sources')).length;
      if (sources !== docs) throw new Error(`full compile wrote ${sources} source entries for ${docs} documents`);
      compileStep('no-op', 'noopMs');
      appendFileSync(
        join(root, 'raw', 'en', '0', 'doc-0000.md'),
        `\nA new paragraph about hybrid search, added in run ${run}.\n`,
      );
      compileStep('one change', 'oneChangeMs');
      unlinkSync(join(root, 'raw', 'en', '1', 'doc-0001.md'));
      compileStep('delete', 'deleteMs');
      figures.storeMb.push(mb(storeBytes(root)));
      // What a new kb finds: every document compiled by an older offline compiler.
      const db = new Database(join(root, 'wiki', 'embeddings.db'));
      db.prepare(`UPDATE documents SET compiler = 'offline-v0' WHERE compiler LIKE 'offline-%'`).run();
      db.close();
      compileStep('upgrade', 'upgradeMs');

      const read = (what: string, figure: Figure, args: string[], ok?: number[]) => {
        const r = kb(tag(what), [...args, '--kb', root], ok, timeoutMs);
        figures[figure].push(r.ms);
        step(what, r);
      };
      read('status', 'statusMs', ['status']);
      read('lint', 'lintMs', ['lint'], [0, 1]);
      read('search', 'searchMs', ['search', 'reciprocal rank fusion for hybrid search']);
      read('ask', 'askMs', ['ask', '--offline', '--no-cache', '什么是检索增强生成？它和向量数据库有什么关系？']);
      figures.searchP95InProcessMs.push(await searchP95(root));
      step('search p95', { ms: figures.searchP95InProcessMs.at(-1)! });
      figures.watchMs.push(await watchLatency(root, run, tag('watch')));
      step('watch', { ms: figures.watchMs.at(-1)! });
      const resumed = await resumeLatency(root, tag('resume'));
      figures.resumeMs.push(resumed.ms);
      peakRss = Math.max(peakRss, resumed.rssMb);
      step('resume', resumed);
    } finally {
      if (values.keep) say(`  kept ${root}`);
      else rmSync(root, { recursive: true, force: true });
    }
  }
  const out: Record<string, number | null> = { docs };
  for (const n of names) {
    if (n === 'storeMb') continue;
    out[n] = whole(median(figures[n]));
    if (n === 'watchMs') out['peakRssMb'] = Math.round(peakRss);
  }
  out['storeMb'] = Math.round(median(figures.storeMb) * 10) / 10;
  const ordered = [
    'docs',
    'fullMs',
    'noopMs',
    'oneChangeMs',
    'deleteMs',
    'upgradeMs',
    'statusMs',
    'lintMs',
    'searchMs',
    'askMs',
    'searchP95InProcessMs',
    'watchMs',
    'resumeMs',
    'peakRssMb',
    'storeMb',
    'nodeStartMs',
    'ioFloorMs',
  ];
  say(`== ${docs} documents done (${load()}); ratios: ${ratios(out)}`);
  console.log(JSON.stringify(Object.fromEntries(ordered.map((k) => [k, out[k]]))));
}
