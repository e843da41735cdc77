#!/usr/bin/env node
// kb's command-line entry. Runs the bundle in dist/ (built by `npm install` / `npm run build`)
// when it is at least as new as every source file; otherwise runs src/ through tsx (a development
// dependency, so an installed kb runs its bundle).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Between two full collections V8 lets the heap grow to up to four times what is live. A compile of
// 10,000 documents holds ~450 MB live at most yet reached 1.2-1.4 GB of resident memory, mostly rows
// already dropped; growing by 30% at most it stays near 750 MB, in the same time
// (`npm run bench:scale`). Set before anything is loaded; worker threads share the flag.
setFlagsFromString('--heap-growing-percent=30');

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'dist', 'kb.mjs');

function newestSource(dir) {
  let newest = 0;
  for (const it of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, it.name);
    if (it.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (it.name.endsWith('.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

const fresh =
  existsSync(bundle) && (!existsSync(join(root, 'src')) || statSync(bundle).mtimeMs >= newestSource(join(root, 'src')));

/** tsx is a development dependency: an install without it runs the bundle it has, however old. */
async function fromSource() {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    if (existsSync(bundle)) return (await import(pathToFileURL(bundle).href)).main;
    process.stderr.write('kb: dist/kb.mjs is missing and tsx is not installed; run `npm install` in the kb folder\n');
    process.exit(1);
  }
  register();
  return (await import('../src/cli/main.ts')).main;
}

const main = fresh ? (await import(pathToFileURL(bundle).href)).main : await fromSource();
process.exitCode = await main(process.argv.slice(2));
if (process.env.KB_REPORT_RSS) process.stderr.write(`kb-max-rss-kb=${process.resourceUsage().maxRSS}\n`);
