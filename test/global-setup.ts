import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from './helpers.js';

/** End-to-end tests run the real CLI: build the bundle it runs first. */
export default function setup(): void {
  execFileSync(process.execPath, [join(REPO, 'scripts', 'build.js')], { stdio: 'inherit' });
}
