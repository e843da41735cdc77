// npm run bench:compile [-- --docs 1000 --mb 5 --runs 3]
// Wall time of whole `kb compile` processes on a synthetic corpus: full, no-op, one change.
// The corpus is 5 KB a document unless --mb says otherwise (5 MB at 1,000, 50 MB at 10,000).
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeCorpus } from './corpus.js';

function arg(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
}

const docs = arg('docs', 1000);
const mb = arg('mb', (docs * 5) / 1000);
const runs = arg('runs', 3);
/** The kb to time: this checkout's, or another's (`KB_BENCH_BIN`) for a baseline in the same run. */
const bin = process.env['KB_BENCH_BIN'] || resolve(import.meta.dirname, '..', 'bin', 'kb.js');

function kb(root: string): { ms: number; rssMb: number } {
  const t = performance.now();
  const r = spawnSync(process.execPath, [bin, 'compile', '--kb', root], {
    env: { ...process.env, ANTHROPIC_API_KEY: '', KB_REPORT_RSS: '1', NO_COLOR: '1' },
    encoding: 'utf8',
  });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`kb compile failed (${r.status}): ${r.stderr}`);
  const m = /kb-max-rss-kb=(\d+)/.exec(r.stderr);
  return { ms, rssMb: m ? Number(m[1]) / 1024 : NaN };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const full: number[] = [],
  noop: number[] = [],
  one: number[] = [],
  rss: number[] = [];
let bytes = 0;
// A baseline in the same run: bare node start-up, to read the figures against a noisy machine.
const base: number[] = [];
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  spawnSync(process.execPath, ['-e', '0']);
  base.push(performance.now() - t);
}
for (let run = 0; run < runs; run++) {
  const root = mkdtempSync(join(tmpdir(), 'kb-bench-'));
  bytes = writeCorpus(join(root, 'raw'), docs, mb * 1024 * 1024);
  const a = kb(root);
  const b = kb(root);
  appendFileSync(
    join(root, 'raw', 'en', '0', 'doc-0000.md'),
    `\nA new paragraph about hybrid search, added in run ${run}.\n`,
  );
  const c = kb(root);
  full.push(a.ms);
  noop.push(b.ms);
  one.push(c.ms);
  rss.push(Math.max(a.rssMb, b.rssMb, c.rssMb));
  process.stderr.write(
    `run ${run + 1}/${runs}: full ${a.ms.toFixed(0)} ms, no-op ${b.ms.toFixed(0)} ms, one change ${c.ms.toFixed(0)} ms, peak RSS ${Math.max(a.rssMb, b.rssMb, c.rssMb).toFixed(0)} MB\n`,
  );
  rmSync(root, { recursive: true, force: true });
}
process.stderr.write(`baseline: node start-up ${median(base).toFixed(0)} ms (median of 3)\n`);
console.log(
  JSON.stringify({
    docs,
    mb: Number((bytes / 1024 / 1024).toFixed(2)),
    fullMs: Math.round(median(full)),
    noopMs: Math.round(median(noop)),
    oneChangeMs: Math.round(median(one)),
    peakRssMb: Math.round(Math.max(...rss)),
    runs,
    nodeStartMs: Math.round(median(base)),
  }),
);
