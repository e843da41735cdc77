import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder kb itself is installed in (holds the default schemas/ and templates/): the nearest
 * folder upward with a package.json — from src/kb/, from the bundle dist/kb.mjs and from its
 * chunks in dist/chunks/ alike.
 */
function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) break;
  }
  // From src/kb/ two levels up; from the bundle (dist/kb.mjs) one level up.
  return join(start, ...(process.env['KB_BUNDLED'] === '1' ? ['..'] : ['..', '..']));
}

export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

export function packagePath(...parts: string[]): string {
  return join(PACKAGE_ROOT, ...parts);
}

/**
 * The file a worker thread starts from: the bundle's (dist/<bundled>) when kb runs its bundle, else
 * the boot file under src/ that loads TypeScript through tsx (tests, development); none if neither is there.
 */
export function threadEntry(bundled: string, ...boot: string[]): string | undefined {
  const fromBundle = packagePath('dist', bundled);
  if (process.env['KB_BUNDLED'] === '1' && existsSync(fromBundle)) return fromBundle;
  const fromSource = packagePath('src', ...boot);
  return existsSync(fromSource) ? fromSource : undefined;
}
