import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder kb itself is installed in (holds the default schemas/ and templates/). */
// From src/kb/ two levels up; from the bundle (dist/kb.mjs) one level up.
export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), ...(process.env['KB_BUNDLED'] === '1' ? ['..'] : ['..', '..']));

export function packagePath(...parts: string[]): string {
  return join(PACKAGE_ROOT, ...parts);
}
