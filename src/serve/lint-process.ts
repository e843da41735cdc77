import { spawn } from 'node:child_process';
import { packagePath } from '../kb/package-root.js';
import { KbError } from '../diagnostics/errors.js';
import type { Finding } from '../lint/types.js';

/**
 * Every lint finding, from `kb lint --json --offline` in a process of its own: a lint of 10,000
 * entries keeps a core busy for seconds, and the server must go on answering meanwhile.
 */
export function lintInProcess(root: string): Promise<Finding[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [packagePath('bin', 'kb.js'), 'lint', '--json', '--offline', '--kb', root], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      // Exit 1 means findings of severity error: the report is still whole.
      if (code !== 0 && code !== 1)
        return reject(new KbError(`kb lint failed (${code}): ${err.trim().split('\n')[0] ?? ''}`));
      try {
        resolve((JSON.parse(Buffer.concat(out).toString('utf8')) as { findings: Finding[] }).findings);
      } catch {
        reject(new KbError('kb lint printed no report'));
      }
    });
  });
}
