import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { packagePath } from './package-root.js';

let id: string | undefined;

/**
 * An identity of kb's own code: the build's (written by scripts/build.js), or a hash of src/ when
 * kb runs from its sources. A page kept because its inputs did not change is rendered again once
 * after kb itself changed (an upgrade may write pages differently from the same inputs).
 */
export function codeId(): string {
  if (id) return id;
  if (process.env['KB_BUNDLED'] === '1') {
    try {
      id = readFileSync(packagePath('dist', 'build-id'), 'utf8').trim();
      if (id) return id;
    } catch {
      // A build without its id: fall through to the sources, else a random id (nothing is kept).
    }
  }
  const hash = createHash('sha256');
  try {
    const src = packagePath('src');
    const files = readdirSync(src, { recursive: true })
      .map(String)
      .filter((f) => /\.(ts|mjs)$/.test(f) && !/\.test\.ts$/.test(f))
      .sort();
    for (const f of files) hash.update(f).update(readFileSync(packagePath('src', f)));
  } catch {
    hash.update(String(Math.random()));
  }
  id = hash.digest('hex');
  return id;
}
