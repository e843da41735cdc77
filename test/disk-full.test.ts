import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, KB_BIN } from './helpers.js';

/**
 * A real full disk: a small tmpfs mounted in a user and mount namespace of its own (`unshare -rm`,
 * no root needed where the kernel allows it). Skipped where it is not allowed.
 */
const canMount =
  process.platform === 'linux' &&
  spawnSync('unshare', ['-rm', 'sh', '-c', 'd=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d"'], {
    stdio: 'ignore',
  }).status === 0;

function docs(n: number): Record<string, string> {
  const words = ['retrieval', 'vector', 'index', 'search', 'model', 'graph', 'token', 'cache', 'disk', 'page'];
  const out: Record<string, string> = {};
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return words[seed % words.length]!;
  };
  for (let i = 0; i < n; i++) {
    const paras = Array.from({ length: 40 }, () => `${Array.from({ length: 60 }, next).join(' ')}.`);
    out[`raw/doc${i}.md`] = `# Doc ${i}\n\n${paras.join('\n\n')}\n`;
  }
  return out;
}

interface Step {
  code: number;
  stderr: string;
}

/**
 * Copy the knowledge base at `from` onto a tmpfs of `size` (and `wiki/sources` onto one of
 * `sourcesSize` when given), run `kb compile --offline` twice on the full disk, then once more after
 * the disk grows to 64 MB; list the files of wiki/ at the end.
 */
function runOnSmallDisk(from: string, size: string, sourcesSize?: string): Promise<{ steps: Step[]; files: string }> {
  const mnt = mkdtempSync(join(tmpdir(), 'kb-disk-'));
  // What kb says is kept off the full disk.
  const said = mkdtempSync(join(tmpdir(), 'kb-disk-err-'));
  const kb = `node ${JSON.stringify(KB_BIN)} compile --offline`;
  const script = `
set -e
mount -t tmpfs -o size=${size} tmpfs "$M"
cp -r "$FROM/." "$M/kb"
${sourcesSize ? `mkdir -p "$M/kb/wiki/sources" && mount -t tmpfs -o size=${sourcesSize} tmpfs "$M/kb/wiki/sources"` : ''}
cd "$M/kb"
set +e
for i in 1 2; do ${kb} >/dev/null 2>"$E/err"; echo "@@step $? $(base64 -w0 "$E/err")"; done
mount -o remount,size=64m "$M"
${sourcesSize ? 'mount -o remount,size=64m "$M/kb/wiki/sources"' : ''}
${kb} >/dev/null 2>"$E/err"; echo "@@step $? $(base64 -w0 "$E/err")"
echo "@@files $(cd wiki && find . -type f | sort | base64 -w0)"
`;
  return new Promise((resolve, reject) => {
    const child = spawn('unshare', ['-rm', 'sh', '-c', script], {
      env: { ...process.env, NO_COLOR: '1', M: mnt, E: said, FROM: from },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', () => {
      const steps = [...out.matchAll(/^@@step (\d+) (\S*)$/gm)].map((m) => ({
        code: Number(m[1]),
        stderr: Buffer.from(m[2]!, 'base64').toString(),
      }));
      const files = Buffer.from(/^@@files (\S*)$/m.exec(out)?.[1] ?? '', 'base64').toString();
      if (steps.length !== 3) reject(new Error(`the script stopped: ${out}`));
      else resolve({ steps, files });
    });
  });
}

describe.skipIf(!canMount)('a full disk (a small tmpfs)', () => {
  it('a full database is one line naming it, is not taken for damage, and the next run with space finishes', async () => {
    const root = fixture(docs(5));
    const { steps, files } = await runOnSmallDisk(root, '1m');
    for (const s of steps.slice(0, 2)) {
      expect(s.code, s.stderr).toBe(1);
      expect(s.stderr).toMatch(
        /^kb: the disk is full while writing wiki\/embeddings\.db: free some space and run again\n$/m,
      );
      expect(s.stderr).not.toMatch(/unexpected error|SqliteError|store-corrupt|damaged|\s{4}at /);
    }
    expect(steps[2]!.code, steps[2]!.stderr).toBe(0);
    expect(steps[2]!.stderr).not.toMatch(/corrupt|damaged/);
    expect(files).not.toContain('corrupt');
    for (let i = 0; i < 5; i++) expect(files).toContain(`./sources/Doc ${i}.md`);
  });

  it('a full disk under wiki/ is one line naming the entry, and the next run with space writes every entry', async () => {
    const root = fixture(docs(5));
    const { steps, files } = await runOnSmallDisk(root, '64m', '8k');
    for (const s of steps.slice(0, 2)) {
      expect(s.code, s.stderr).toBe(1);
      expect(s.stderr).toMatch(
        /^kb: the disk is full while writing wiki\/sources\/Doc \d\.md: free some space and run again$/m,
      );
      expect(s.stderr).not.toMatch(/unexpected error|ENOSPC|\[schema\]|\s{4}at /);
    }
    expect(steps[2]!.code, steps[2]!.stderr).toBe(0);
    for (let i = 0; i < 5; i++) expect(files).toContain(`./sources/Doc ${i}.md`);
  });
});
