/**
 * `kb serve` benchmark: `npm run bench:serve [-- --docs 1000,10000 --kb-per-doc 2 --runs 7 --keep]`.
 * For each size, a fresh knowledge base on the synthetic mixed English/Chinese corpus
 * (bench/corpus.ts, deterministic) compiled offline, then the real `node bin/kb.js serve` timed
 * from outside, over HTTP: start-up to the printed URL, the first index page (cold: the catalog is
 * read), then medians of `--runs` requests each for the index, an entry page, a search (English
 * and Chinese queries, each different) and the whole graph (the first one lays it out).
 * One JSON line per size on stdout; progress on stderr.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeCorpus, ZH_TERMS } from './corpus.js';
import { defaultConfigText } from '../src/init/init.js';

const { values } = parseArgs({
  options: {
    docs: { type: 'string' },
    runs: { type: 'string' },
    'kb-per-doc': { type: 'string' },
    keep: { type: 'boolean' },
  },
});
const sizes = (values.docs ?? '1000,10000').split(',').map((s) => Number(s.trim()));
const runs = Number(values.runs ?? 7);
const kbPerDoc = Number(values['kb-per-doc'] ?? 2);
if (sizes.some((n) => !Number.isInteger(n) || n < 2) || !Number.isInteger(runs) || runs < 1 || !(kbPerDoc > 0)) {
  process.stderr.write('usage: npm run bench:serve -- [--docs 1000,10000] [--runs 7] [--kb-per-doc 2] [--keep]\n');
  process.exit(2);
}
const BIN = resolve(import.meta.dirname, '..', 'bin', 'kb.js');
const EN_QUERIES = [
  'vector database',
  'BM25 ranking',
  'reciprocal rank fusion',
  'chunking overlap',
  'embedding model',
  'prompt caching',
  'knowledge graph',
  'hybrid search',
  'citation',
  'context window',
];

const log = (s: string) => process.stderr.write(`${s}\n`);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.floor(s.length / 2)]! * 10) / 10;
};

async function timed(url: string): Promise<{ ms: number; status: number; text: string }> {
  const t0 = performance.now();
  const r = await fetch(url);
  const text = await r.text();
  return { ms: performance.now() - t0, status: r.status, text };
}

function compile(root: string): Promise<number> {
  const t0 = performance.now();
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [BIN, 'compile', '--offline'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('close', (code) =>
      code === 0 ? res(performance.now() - t0) : rej(new Error(`kb compile exited ${code}`)),
    );
  });
}

async function startServe(root: string): Promise<{ url: string; startMs: number; stop: () => void }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [BIN, 'serve', '--kb', root, '--offline'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const url = await new Promise<string>((res, rej) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^(http:\/\/\S+)\n/.exec(out);
      if (m) res(m[1]!);
    });
    child.on('close', (code) => rej(new Error(`kb serve exited ${code}`)));
  });
  return { url, startMs: performance.now() - t0, stop: () => child.kill('SIGINT') };
}

async function measure(url: string, startMs: number) {
  const first = await timed(url);
  const index = [];
  for (let i = 0; i < runs; i++) index.push((await timed(url)).ms);
  const entryHref =
    /href="(entry\/concept\/[^"]+)"/.exec(first.text)?.[1] ?? /href="(entry\/[^"]+)"/.exec(first.text)![1]!;
  const entry = [];
  for (let i = 0; i < runs; i++) entry.push((await timed(url + entryHref)).ms);
  const queries = [...EN_QUERIES, ...ZH_TERMS].slice(0, Math.max(runs * 2, 4));
  const firstSearch = (await timed(`${url}api/search?q=${encodeURIComponent(queries[0]!)}`)).ms;
  const en: number[] = [];
  const zh: number[] = [];
  for (let i = 0; i < runs; i++) {
    en.push((await timed(`${url}api/search?q=${encodeURIComponent(EN_QUERIES[(i + 1) % EN_QUERIES.length]!)}`)).ms);
    zh.push((await timed(`${url}api/search?q=${encodeURIComponent(ZH_TERMS[i % ZH_TERMS.length]!)}`)).ms);
  }
  const graphFirst = await timed(`${url}api/graph`);
  const graph = [];
  for (let i = 0; i < Math.min(runs, 3); i++) graph.push((await timed(`${url}api/graph`)).ms);
  const nodes = (JSON.parse(graphFirst.text) as { nodes: unknown[] }).nodes.length;
  return {
    startMs: Math.round(startMs),
    firstPageMs: Math.round(first.ms),
    startToFirstPageMs: Math.round(startMs + first.ms),
    indexPageKb: Math.round(Buffer.byteLength(first.text) / 1024),
    indexMs: median(index),
    entryMs: median(entry),
    firstSearchMs: Math.round(firstSearch),
    searchEnMs: median(en),
    searchZhMs: median(zh),
    graphLayoutMs: Math.round(graphFirst.ms),
    graphMs: median(graph),
    graphNodes: nodes,
    graphKb: Math.round(Buffer.byteLength(graphFirst.text) / 1024),
  };
}

for (const docs of sizes) {
  const root = mkdtempSync(join(tmpdir(), `kb-bench-serve-${docs}-`));
  writeFileSync(join(root, 'kb.config.json'), defaultConfigText());
  writeCorpus(join(root, 'raw'), docs, docs * kbPerDoc * 1024);
  log(`${docs} documents in ${root}: compiling…`);
  const compileMs = await compile(root);
  log(`compiled in ${Math.round(compileMs / 1000)} s; serving…`);
  const serve = await startServe(root);
  try {
    const figures = await measure(serve.url, serve.startMs);
    process.stdout.write(`${JSON.stringify({ docs, runs, compileMs: Math.round(compileMs), ...figures })}\n`);
  } finally {
    serve.stop();
    if (!values.keep) rmSync(root, { recursive: true, force: true });
  }
}
