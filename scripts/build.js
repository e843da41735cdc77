// Bundles src/ into dist/kb.mjs with esbuild (packages stay external), so `kb` starts without
// compiling TypeScript at run time. Runs on `npm install` / `npm ci` (prepare) and before tests.
// esbuild is a development dependency: an install without it (--omit=dev) keeps dist/ as it is.
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
let build;
try {
  ({ build } = await import('esbuild'));
} catch {
  process.stderr.write('kb build: esbuild is not installed (a development dependency); dist/ left as it is\n');
  process.exit(0);
}
const result = await build({
  entryPoints: {
    kb: join(root, 'src', 'cli', 'main.ts'),
    worker: join(root, 'src', 'compile', 'worker.ts'),
    'search-worker': join(root, 'src', 'store', 'search-worker.ts'),
  },
  outdir: join(root, 'dist'),
  outExtension: { '.js': '.mjs' },
  // Commands load their implementation with `await import()`: keep those as separate chunks so
  // `kb --help` or a no-op compile does not load the model SDK, MCP, chokidar and the rest.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
  // Code that finds shipped files (schemas/, templates/) from import.meta.url sees dist/.
  define: { 'process.env.KB_BUNDLED': '"1"' },
  metafile: true,
});
// The identity of this build's code (src/kb/code-id.ts): what was written, not what lies beside it.
const hash = createHash('sha256');
for (const out of Object.keys(result.metafile.outputs).sort())
  if (out.endsWith('.mjs')) hash.update(out).update(readFileSync(join(root, out)));
writeFileSync(join(root, 'dist', 'build-id'), `${hash.digest('hex')}\n`);
// Chunks are named by their hash: those of earlier builds are no longer loaded by anything this
// build wrote, and would pile up (thousands of files) with every build.
const written = new Set(Object.keys(result.metafile.outputs).map((out) => join(root, out)));
const chunks = join(root, 'dist', 'chunks');
for (const f of readdirSync(chunks)) if (!written.has(join(chunks, f))) rmSync(join(chunks, f), { force: true });
