import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder kb itself is installed in (holds the default schemas/ and templates/). */
export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function packagePath(...parts: string[]): string {
  return join(PACKAGE_ROOT, ...parts);
}
