import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SCRIPT = resolve(import.meta.dirname, '..', 'scripts', 'prune-platforms.js');

/** A package folder laid out as onnxruntime-node's: bin/napi-v6/<platform>/<arch>/ with a library each. */
function fakePackage(pairs: [string, string][]): string {
  const dir = mkdtempSync(join(tmpdir(), 'kb-prune-'));
  for (const [platform, arch] of pairs) {
    const d = join(dir, 'bin', 'napi-v6', platform, arch);
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, 'onnxruntime_binding.node'), 'x'.repeat(1000));
  }
  return dir;
}

describe('postinstall: other platforms’ onnxruntime libraries', () => {
  const others: [string, string][] = [
    ['darwin', 'arm64'],
    ['win32', 'x64'],
    ['linux', process.arch === 'x64' ? 'arm64' : 'x64'],
  ].filter(([p, a]) => p !== process.platform || a !== process.arch) as [string, string][];

  it('removes every platform and architecture but this machine’s, and says how much', () => {
    const dir = fakePackage([[process.platform, process.arch], ...others]);
    const r = spawnSync(process.execPath, [SCRIPT, dir], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(existsSync(join(dir, 'bin', 'napi-v6', process.platform, process.arch, 'onnxruntime_binding.node'))).toBe(
      true,
    );
    for (const [p, a] of others) expect(existsSync(join(dir, 'bin', 'napi-v6', p, a))).toBe(false);
    expect(r.stderr).toMatch(/removed other platforms' onnxruntime libraries/);
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves a package without this machine’s library alone, and never fails the install', () => {
    const dir = fakePackage(others);
    const r = spawnSync(process.execPath, [SCRIPT, dir], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    for (const [p, a] of others) expect(existsSync(join(dir, 'bin', 'napi-v6', p, a))).toBe(true);
    const missing = spawnSync(process.execPath, [SCRIPT, join(dir, 'nowhere')], { encoding: 'utf8' });
    expect(missing.status).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  });
});
