/**
 * Summarise V8 CPU profiles (`node --cpu-prof`, or `npm run bench:scale -- --profile <dir>`):
 * `npx tsx bench/profile.ts <file.cpuprofile | dir> [--top 25] [--filter text]`.
 * Prints the functions with the most self time, the functions with the most total (inclusive)
 * time, and self time per file, each as ms and share of the profile. A directory sums every
 * profile in it (a compile's worker threads write one each).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  options: { top: { type: 'string' }, filter: { type: 'string' } },
  allowPositionals: true,
});
const top = Number(values.top ?? 25);
if (!positionals.length) {
  process.stderr.write('usage: npx tsx bench/profile.ts <file.cpuprofile | dir>... [--top 25] [--filter text]\n');
  process.exit(2);
}
const files = positionals.flatMap((p) =>
  statSync(p).isDirectory()
    ? readdirSync(p)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => join(p, f))
    : [p],
);

/** Where a frame comes from, short: the package for dependencies, the path under src/ for kb. */
function where(url: string): string {
  if (!url) return '(native)';
  const u = url.replace(/^file:\/\//, '');
  const nm = u.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = u.slice(nm + 'node_modules/'.length).split('/');
    return `${rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  const src = u.indexOf('/src/');
  if (src >= 0) return u.slice(src + 1);
  const dist = u.indexOf('/dist/');
  if (dist >= 0) return u.slice(dist + 1);
  return u.startsWith('node:') ? u : u.split('/').slice(-2).join('/');
}

/** dist/ bundles carry source maps: name frames by their file and line in src/. */
const maps = new Map<string, SourceMap | null>();
function original(frame: CallFrame): { url: string; line: number } {
  if (!frame.url.includes('/dist/') || !frame.url.startsWith('file://'))
    return { url: frame.url, line: frame.lineNumber };
  if (!maps.has(frame.url)) {
    try {
      maps.set(frame.url, new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(frame.url)}.map`, 'utf8'))));
    } catch {
      maps.set(frame.url, null);
    }
  }
  const e = maps.get(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber) as
    | { originalSource?: string; originalLine?: number }
    | undefined;
  return e?.originalSource
    ? { url: e.originalSource, line: e.originalLine ?? 0 }
    : { url: frame.url, line: frame.lineNumber };
}

const self = new Map<string, number>();
const total = new Map<string, number>();
const byFile = new Map<string, number>();
let all = 0;
let wall = 0;
for (const f of files) {
  const p = JSON.parse(readFileSync(f, 'utf8')) as CpuProfile;
  wall = Math.max(wall, (p.endTime - p.startTime) / 1000);
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const keys = new Map<number, { fn: string; file: string }>();
  for (const n of p.nodes) {
    const o = original(n.callFrame);
    keys.set(n.id, {
      fn: `${n.callFrame.functionName || '(anonymous)'} ${where(o.url)}${o.url ? `:${o.line + 1}` : ''}`,
      file: where(o.url),
    });
  }
  const key = (n: ProfileNode) => keys.get(n.id)!.fn;
  for (let i = 0; i < p.samples.length; i++) {
    const ms = (p.timeDeltas[i] ?? 0) / 1000;
    const leaf = byId.get(p.samples[i]!)!;
    if (leaf.callFrame.functionName === '(idle)') continue;
    all += ms;
    self.set(key(leaf), (self.get(key(leaf)) ?? 0) + ms);
    const file = keys.get(leaf.id)!.file;
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const k = key(byId.get(id)!);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + ms);
    }
  }
}

const filter = values.filter;
const show = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  const rows = [...m]
    .filter(([k]) => !filter || k.includes(filter))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top);
  for (const [k, ms] of rows)
    console.log(`${ms.toFixed(0).padStart(8)} ms ${((100 * ms) / all).toFixed(1).padStart(5)}%  ${k}`);
};
console.log(
  `${files.length} profile${files.length === 1 ? '' : 's'}; ${all.toFixed(0)} ms of samples (idle excluded), longest profile ${wall.toFixed(0)} ms wall`,
);
show('self time by function', self);
show(
  'total time by function (inclusive)',
  new Map([...total].filter(([k]) => !k.startsWith('(root)') && !k.startsWith('(program)'))),
);
show('self time by file', byFile);
