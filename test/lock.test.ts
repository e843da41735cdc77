import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLock, readLock } from '../src/kb/lock.js';
import { LockError } from '../src/diagnostics/errors.js';
import { REPO } from './helpers.js';

const CONTENDER = join(REPO, 'test', 'lock-contender.mjs');

/** The pid of a process that has exited: what a lock left by `kill -9` names. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

function staleLock(path: string): void {
  writeFileSync(
    path,
    JSON.stringify({
      pid: deadPid(),
      host: hostname(),
      command: 'compile',
      started: Math.floor(Date.now() / 1000) - 60,
    }),
  );
}

interface Contender {
  said: string[];
  closed: Promise<void>;
  exited: boolean;
  pid: number;
  kill(): void;
}

function contender(lockPath: string, go: string, done: string, rounds: number, onLine: () => void): Contender {
  const child = spawn(process.execPath, [CONTENDER, lockPath, go, done, String(rounds)], { cwd: REPO });
  const c: Contender = {
    said: [],
    closed: Promise.resolve(),
    exited: false,
    pid: child.pid ?? 0,
    kill: () => {
      if (!c.exited) child.kill('SIGKILL');
    },
  };
  c.closed = new Promise((r) =>
    child.on('close', () => {
      c.exited = true;
      onLine();
      r();
    }),
  );
  let buf = '';
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    const lines = buf.split('\n');
    buf = lines.pop() ?? '';
    c.said.push(...lines);
    onLine();
  });
  child.stderr.on('data', (d: Buffer) => c.said.push(`stderr ${d.toString()}`));
  return c;
}

/**
 * `n` processes that, round after round, once all are ready and a stale lock is in place, try to
 * take the lock at the same moment; what each said in each round.
 */
async function contend(dir: string, lockPath: string, n: number, rounds: number): Promise<string[][]> {
  const go = join(dir, 'go-');
  const done = join(dir, 'done-');
  let wake = () => {};
  const cs = Array.from({ length: n }, () => contender(lockPath, go, done, rounds, () => wake()));
  const until = async (pred: () => boolean) => {
    while (!pred()) {
      // Every process plays every round: one that has ended before the last is an error.
      if (cs.some((c) => c.exited))
        throw new Error(`a contender ended early: ${JSON.stringify(cs.map((c) => c.said))}`);
      await new Promise<void>((r) => {
        wake = r;
        setTimeout(r, 100);
      });
    }
  };
  const said: string[][] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      // Every process is ready: the winner of the round before has released the lock.
      await until(() => cs.every((c) => c.said.includes(`ready ${round}`)));
      expect(existsSync(lockPath), `round ${round}: the lock of the round before is gone`).toBe(false);
      staleLock(lockPath);
      writeFileSync(`${go}${round}`, '');
      // The winner holds the lock until every other process has tried and said so.
      const tried = (c: Contender) => c.said.length > c.said.indexOf(`ready ${round}`) + 1;
      await until(() => cs.every(tried));
      said.push(cs.map((c) => c.said[c.said.indexOf(`ready ${round}`) + 1]!));
      writeFileSync(`${done}${round}`, '');
    }
    await Promise.all(cs.map((c) => c.closed));
  } finally {
    // A round that failed leaves no process waiting for its go file.
    for (const c of cs) c.kill();
  }
  return said;
}

describe('the kb lock', () => {
  it('a stale lock (dead holder) and six processes racing for it: exactly one wins, every time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-lock-'));
    const lockPath = join(dir, '.kb', 'lock');
    mkdirSync(join(dir, '.kb'));
    const rounds = await contend(dir, lockPath, 6, 8);
    expect(rounds).toHaveLength(8);
    for (const [round, said] of rounds.entries()) {
      expect(
        said.filter((s) => s === 'won'),
        `round ${round}: ${JSON.stringify(said)}`,
      ).toHaveLength(1);
      expect(
        said.filter((s) => s === 'lost'),
        `round ${round}: ${JSON.stringify(said)}`,
      ).toHaveLength(5);
    }
    expect(existsSync(lockPath)).toBe(false);
  }, 240_000);

  it('is free again as soon as its holder is killed (kill -9), with no stale lock to take over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-lock-'));
    const lockPath = join(dir, '.kb', 'lock');
    mkdirSync(join(dir, '.kb'));
    writeFileSync(join(dir, 'go0'), '');
    const holder = spawn(process.execPath, [CONTENDER, lockPath, join(dir, 'go'), join(dir, 'never')], { cwd: REPO });
    let out = '';
    await new Promise<void>((r) =>
      holder.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('won')) r();
      }),
    );
    await expect(acquireLock(lockPath, 'compile')).rejects.toThrow(
      /Another kb process holds the lock: `kb contender` \(pid \d+/,
    );
    expect(readLock(lockPath)?.pid).toBe(holder.pid);
    const gone = new Promise((r) => holder.on('close', r));
    holder.kill('SIGKILL');
    await gone;
    const lock = await acquireLock(lockPath, 'compile');
    expect(readLock(lockPath)).toMatchObject({ pid: process.pid, command: 'compile' });
    lock.release();
    expect(existsSync(lockPath)).toBe(false);
  }, 60_000);

  it('within one process, a second taker waits for the first and then gets it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-lock-'));
    const lockPath = join(dir, '.kb', 'lock');
    const first = await acquireLock(lockPath, 'compile');
    await expect(acquireLock(lockPath, 'watch')).rejects.toBeInstanceOf(LockError);
    const second = acquireLock(lockPath, 'watch', { waitMs: 30_000 });
    setTimeout(() => first.release(), 300);
    const lock = await second;
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ command: 'watch' });
    lock.release();
  });

  it('a lock database that is not one (garbage) is emptied and used', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-lock-'));
    const lockPath = join(dir, '.kb', 'lock');
    mkdirSync(join(dir, '.kb'));
    writeFileSync(`${lockPath}.db`, Buffer.alloc(4096, 7));
    const lock = await acquireLock(lockPath, 'compile');
    lock.release();
  });
});
