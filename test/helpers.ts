import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { defaultConfigText } from '../src/init/init.js';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const KB_BIN = join(REPO, 'bin', 'kb.js');

/**
 * A temporary knowledge base holding the given files (paths relative to its root), with the
 * kb.config.json `kb init` writes unless `files` has its own. `{ config: false }`: a folder
 * holding raw/ only, which its first `kb compile` makes a knowledge base.
 */
export function fixture(files: Record<string, string | Buffer> = {}, opts: { config?: boolean } = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'kb-test-'));
  mkdirSync(join(root, 'raw'), { recursive: true });
  if (opts.config !== false) writeFile(root, 'kb.config.json', defaultConfigText());
  for (const [p, content] of Object.entries(files)) writeFile(root, p, content);
  return root;
}

export function writeFile(root: string, p: string, content: string | Buffer): void {
  const abs = join(root, p);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, content);
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the real CLI (`bin/kb.js`) in a folder; no API key unless given in env. */
export function runKb(
  args: string[],
  opts: { cwd: string; env?: Record<string, string | undefined>; timeoutMs?: number },
): Promise<CliResult> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    NO_COLOR: '1',
    ANTHROPIC_API_KEY: undefined,
    ...opts.env,
  };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [KB_BIN, ...args], { cwd: opts.cwd, env: env as NodeJS.ProcessEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 240_000);
    child.on('error', rej);
    child.on('close', (code) => {
      clearTimeout(timer);
      res({ code, stdout, stderr });
    });
  });
}

type Main = (
  argv: string[],
  io: { out(l: string): void; err(l: string): void; isTTY: boolean; color: boolean },
) => Promise<number>;
let bundled: Promise<Main> | undefined;
let queue: Promise<unknown> = Promise.resolve();

/**
 * Run the CLI in this process: the same bundle `bin/kb.js` runs (built by the global setup),
 * with the same arguments, folder and environment, and its exit code, stdout and stderr — without
 * starting a process and loading kb again each time. Runs one at a time (the folder and the
 * environment are the process's). Not for what needs a process of its own: signals, locks, watch.
 */
export function runKbIn(
  args: string[],
  opts: { cwd: string; env?: Record<string, string | undefined>; timeoutMs?: number },
): Promise<CliResult> {
  bundled ??= import(/* @vite-ignore */ pathToFileURL(join(REPO, 'dist', 'kb.mjs')).href).then(
    (m: { main: Main }) => m.main,
  );
  const run = queue.then(async () => {
    const main = await bundled!;
    const env: Record<string, string | undefined> = { NO_COLOR: '1', ANTHROPIC_API_KEY: undefined, ...opts.env };
    // The whole environment comes back afterwards: a command may set some of it (--model sets KB_MODEL).
    const saved = { ...process.env };
    const cwd = process.cwd();
    const setEnv = (e: Record<string, string | undefined>) => {
      for (const [k, v] of Object.entries(e)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    };
    const restoreEnv = () => {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
      setEnv(saved);
    };
    let stdout = '';
    let stderr = '';
    const io = {
      out: (l: string) => (stdout += `${l}\n`),
      err: (l: string) => (stderr += `${l}\n`),
      isTTY: false,
      color: false,
    };
    setEnv(env);
    process.chdir(opts.cwd);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, rej) => {
      if (opts.timeoutMs === undefined) return;
      timer = setTimeout(() => rej(new Error(`kb ${args.join(' ')} took over ${opts.timeoutMs} ms`)), opts.timeoutMs);
    });
    try {
      const code = await Promise.race([main(args, io), late]);
      return { code, stdout, stderr };
    } finally {
      clearTimeout(timer);
      process.chdir(cwd);
      restoreEnv();
    }
  });
  queue = run.catch(() => {});
  return run;
}

/** Every file under a folder, relative, sorted. */
export function listTree(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const it of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${it.name}` : it.name;
    if (it.isDirectory()) out.push(...listTree(dir, r));
    else out.push(r);
  }
  return out.sort();
}

export function read(root: string, p: string): string {
  return readFileSync(join(root, p), 'utf8');
}

export function mtime(root: string, p: string): number {
  return statSync(join(root, p)).mtimeMs;
}

/** A separate process holding the kb lock of `root` as `kb <command>` would, until `release()` or `kill()`. */
export interface LockHolder {
  pid: number;
  release(): Promise<void>;
  kill(): Promise<void>;
}

export async function holdLock(root: string, command = 'compile'): Promise<LockHolder> {
  const child = spawn(process.execPath, [join(REPO, 'test', 'lock-holder.mjs'), join(root, '.kb', 'lock'), command], {
    cwd: REPO,
  });
  const closed = new Promise<void>((r) => child.on('close', () => r()));
  let out = '';
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('held')) resolve();
    });
    void closed.then(() => reject(new Error(`the lock holder exited: ${out}`)));
  });
  return {
    pid: child.pid ?? 0,
    release: async () => {
      child.stdin.end();
      await closed;
    },
    kill: async () => {
      child.kill('SIGKILL');
      await closed;
    },
  };
}
