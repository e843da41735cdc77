import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './helpers.js';

/**
 * End-to-end tests run the real CLI: build the bundle it runs first, at the start of every run.
 * runKbIn loads dist/ whatever its age, and `bin/kb.js` runs it when it is newer than src/: a
 * bundle this build did not write (esbuild missing leaves dist/ as it was) fails the run here.
 */
export default function setup(): void {
  const id = join(REPO, 'dist', 'build-id');
  const before = existsSync(id) ? statSync(id).mtimeMs : 0;
  execFileSync(process.execPath, [join(REPO, 'scripts', 'build.js')], { stdio: 'inherit' });
  if (!existsSync(id) || statSync(id).mtimeMs <= before)
    throw new Error('node scripts/build.js did not write dist/: the tests would run an old bundle');
}
