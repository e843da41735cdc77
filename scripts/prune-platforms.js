#!/usr/bin/env node
// Runs after `npm install` (postinstall): onnxruntime-node ships its native library for every
// platform and architecture (macOS, Windows, Linux; x64 and arm64), about 245 MB that this
// machine never loads. The folders of other platforms and architectures are removed; this
// machine's stays. Never fails an install: a package it cannot find or a folder it cannot remove
// is left as it is, with a line on stderr.
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The folder of an installed package, wherever npm put it; undefined when it is not installed. */
function packageDir(name) {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
}

/** Folder size in bytes, for the report. */
function sizeOf(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.size;
  let n = 0;
  for (const e of readdirSync(path)) n += sizeOf(join(path, e));
  return n;
}

/** onnxruntime-node/bin/napi-vN/(platform)/(arch): every pair but this machine's. */
function unusedBinaries(dir) {
  const bin = join(dir, 'bin');
  if (!existsSync(bin)) return [];
  const out = [];
  for (const napi of readdirSync(bin)) {
    const napiDir = join(bin, napi);
    // Only beside this machine's own library: otherwise the package is not laid out as expected.
    if (!statSync(napiDir).isDirectory() || !existsSync(join(napiDir, process.platform, process.arch))) continue;
    for (const platform of readdirSync(napiDir)) {
      const platformDir = join(napiDir, platform);
      if (!statSync(platformDir).isDirectory()) continue;
      if (platform !== process.platform) {
        out.push(platformDir);
        continue;
      }
      for (const arch of readdirSync(platformDir))
        if (arch !== process.arch && statSync(join(platformDir, arch)).isDirectory()) out.push(join(platformDir, arch));
    }
  }
  return out;
}

function main() {
  // A folder given on the command line stands for the package (tests).
  const dir = process.argv[2] ?? packageDir('onnxruntime-node');
  if (!dir) return;
  let freed = 0;
  for (const p of unusedBinaries(dir)) {
    try {
      const n = sizeOf(p);
      rmSync(p, { recursive: true, force: true });
      freed += n;
    } catch (err) {
      process.stderr.write(`kb: could not remove ${p}: ${err instanceof Error ? err.message : err}\n`);
    }
  }
  if (freed)
    process.stderr.write(`kb: removed other platforms' onnxruntime libraries (${Math.round(freed / 2 ** 20)} MB)\n`);
}

try {
  main();
} catch (err) {
  process.stderr.write(`kb: prune-platforms skipped: ${err instanceof Error ? err.message : err}\n`);
}
