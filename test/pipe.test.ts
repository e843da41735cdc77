import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture, KB_BIN, runKb } from './helpers.js';

let root: string;

beforeAll(async () => {
  root = fixture({
    'raw/retrieval.md': '# Retrieval\n\nRetrieval finds the passages a question needs.\n',
    'raw/ranking.md': '# Ranking\n\nRanking orders what retrieval found, best first.\n',
  });
  expect((await runKb(['compile'], { cwd: root })).code).toBe(0);
}, 120_000);

function withoutKey(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { ANTHROPIC_API_KEY: _k, ...rest } = env;
  return rest;
}

/** Run kb with its stdout closed by the reader before kb writes a byte, as `kb … | head -1` ends up. */
function runIntoClosedPipe(args: string[]): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [KB_BIN, ...args], {
      cwd: root,
      env: { ...withoutKey(process.env), NO_COLOR: '1' },
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

describe('at the end of a pipe that closes early', () => {
  for (const args of [
    ['search', 'retrieval'],
    ['lint', '--list-rules'],
    ['compile', '--estimate', '--force'],
    ['status', '--json'],
  ])
    it(`kb ${args.join(' ')} ends with exit 0 and says nothing on stderr`, async () => {
      expect(await runIntoClosedPipe(args)).toEqual({ code: 0, signal: null, stderr: '' });
    });
});
