import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fixture, KB_BIN, listTree, REPO, runKbIn } from './helpers.js';
import { makePdf } from './pdf-fixtures.js';
import { sha256 } from '../src/util/hash.js';

/** Notes, a long line that once took minutes, and megabytes of Chinese that keep the threads busy for seconds. */
function heavyKb(): string {
  const files: Record<string, string> = { 'raw/long-line.md': 'x'.repeat(300_000) };
  for (let i = 0; i < 3; i++)
    files[`raw/zh/长文-${i}.txt`] = `长文 ${i}\n\n${'检索增强生成向量数据库中文分词知识库。'.repeat(20_000)}\n`;
  for (let i = 0; i < 20; i++)
    files[`raw/notes/note-${i}.md`] =
      `# Note ${i}\n\nRetrieval Augmented Generation (RAG) and BM25 appear in note ${i}.\n`;
  return fixture(files);
}

/**
 * `kb compile` sent `signal` once it has started working (or once `ready(pid)` holds); its exit code
 * and output.
 */
async function interruptedCompile(
  root: string,
  signal: NodeJS.Signals,
  afterMs = 1000,
  ready?: (pid: number) => boolean,
): Promise<{ code: number | null; killedByUs: boolean; stdout: string; stderr: string }> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', ANTHROPIC_API_KEY: undefined };
  delete env['ANTHROPIC_API_KEY'];
  const child = spawn(process.execPath, [KB_BIN, 'compile'], { cwd: root, env: env as NodeJS.ProcessEnv });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const closed = new Promise<number | null>((r) => child.on('close', (c) => r(c)));
  // Started: the store is open and the documents are being prepared.
  for (let i = 0; i < 3000 && !existsSync(join(root, 'wiki', 'embeddings.db')); i++)
    await new Promise((r) => setTimeout(r, 20));
  if (ready)
    for (let i = 0; i < 6000 && !ready(child.pid!) && child.exitCode === null; i++)
      await new Promise((r) => setTimeout(r, 10));
  else await new Promise((r) => setTimeout(r, afterMs));
  child.kill(signal);
  // A generous bound: the run stops within seconds; the long line alone took minutes before.
  let killedByUs = false;
  const guard = setTimeout(() => {
    killedByUs = true;
    child.kill('SIGKILL');
  }, 60_000);
  const code = await closed;
  clearTimeout(guard);
  return { code, killedByUs, stdout, stderr };
}

/** Whether the process has loaded onnxruntime (Linux: its memory map names the library). */
function onnxLoaded(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/maps`, 'utf8').includes('onnxruntime');
  } catch {
    return false;
  }
}

describe('a signal stops a compile', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)(
    '%s while threads work on big documents: exits %i soon, and the next compile finishes the job',
    async (signal, exit) => {
      const root = heavyKb();
      const r = await interruptedCompile(root, signal);
      expect(r.killedByUs, r.stderr).toBe(false);
      expect(r.code, r.stderr).toBe(exit);
      expect(r.stderr).toMatch(/interrupted; run `kb compile` again to finish/);
      expect(r.stdout).not.toMatch(/\d+ new, \d+ updated/);
      expect(existsSync(join(root, '.kb', 'lock'))).toBe(false);

      const again = await runKbIn(['compile'], { cwd: root });
      expect(again.code, again.stderr).toBe(0);
      const sources = listTree(join(root, 'wiki')).filter((f) => f.startsWith('sources/'));
      expect(sources).toHaveLength(24);
      const third = await runKbIn(['compile'], { cwd: root });
      expect(third.stdout).toMatch(/0 new, 0 updated, 24 unchanged/);
    },
    240_000,
  );

  // The moment: onnxruntime just loaded (its library is in the process's memory map), so the OCR
  // engine is loading its models on the thread; ended there, it aborted the process (exit 134).
  it.skipIf(process.platform !== 'linux')(
    'a signal while a thread is inside OCR (onnxruntime, sharp) exits 143 or 130, never aborting the process',
    async () => {
      const shot = readFileSync(join(REPO, 'test', 'fixtures', 'formats', 'zh-screenshot.png'));
      let root = '';
      // Once each: every run is sent its signal at the moment onnxruntime is mapped, not at a chance one.
      for (const [n, [signal, exit]] of (
        [
          ['SIGTERM', 143],
          ['SIGINT', 130],
        ] as const
      ).entries()) {
        const files: Record<string, Buffer> = {};
        for (let i = 0; i < 8; i++)
          files[`raw/shots/shot-${i}.png`] = await sharp(shot)
            .extend({ bottom: 4 + i, right: n + 1, background: '#ffffff' })
            .png()
            .toBuffer();
        root = fixture(files);
        const r = await interruptedCompile(root, signal, 0, (pid) => onnxLoaded(pid));
        expect(r.killedByUs, r.stderr).toBe(false);
        expect(r.stderr).not.toMatch(/terminate called|Napi::Error|unexpected error/);
        expect(r.code, r.stderr).toBe(exit);
        expect(r.stderr).toMatch(/interrupted; run `kb compile` again to finish/);
      }
      const again = await runKbIn(['compile'], { cwd: root });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/8 new, 0 updated/);
    },
    240_000,
  );

  it('SIGTERM while a thread reads a long PDF and another runs OCR: both stop mid-file, and the next compile reads them', async () => {
    // 1,200 pages take pdf.js over 3 s even on an idle machine (2,400 take 7.5 s): the signal, 1.5 s
    // after the store is made, comes first.
    const pages = Array.from(
      { length: 1200 },
      (_, i) => `Chapter ${i}\n${'The capybara is the largest rodent and lives near water. '.repeat(30)}`,
    );
    const shot = readFileSync(join(REPO, 'test', 'fixtures', 'formats', 'zh-screenshot.png'));
    const pdf = await makePdf(pages, { title: 'Capybara Almanac' });
    const files: Record<string, Buffer | string> = { 'raw/capybara.pdf': pdf };
    // Images that differ by a border: each is read by OCR, none comes from the cache.
    for (let i = 0; i < 3; i++)
      files[`raw/shots/shot-${i}.png`] = await sharp(shot)
        .extend({ bottom: 4 + i, background: '#ffffff' })
        .png()
        .toBuffer();
    const root = fixture(files);
    const r = await interruptedCompile(root, 'SIGTERM', 1500);
    expect(r.killedByUs, r.stderr).toBe(false);
    expect(r.code, r.stderr).toBe(143);
    expect(r.stderr).not.toMatch(/unexpected error/);
    // Stopped inside the PDF: its pages were never all read, so pdf.js's result was never kept.
    const cache = join(root, '.kb', 'ingest');
    const kept = existsSync(cache)
      ? readdirSync(cache, { recursive: true })
          .map(String)
          .filter((f) => f.endsWith('.json'))
      : [];
    expect(kept.filter((f) => f.includes(sha256(pdf)))).toEqual([]);

    const again = await runKbIn(['compile'], { cwd: root, timeoutMs: 170_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/4 new, 0 updated/);
    const wiki = listTree(join(root, 'wiki'));
    expect(wiki).toContain('sources/Capybara Almanac.md');
    expect(readFileSync(join(root, 'wiki', 'sources', 'Capybara Almanac.md'), 'utf8')).toMatch(/capybara/i);
  }, 240_000);
});
