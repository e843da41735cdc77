import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import type { Git } from './git.js';

/** Where heal makes its worktrees: inside `.kb/` (git-ignored), one per branch being made. */
export function worktreesDir(stateDir: string): string {
  return join(stateDir, 'heal');
}

/**
 * Remove what an interrupted heal left: worktrees registered under `dir` (and their folders),
 * then let git forget worktrees whose folders are gone.
 */
export async function cleanWorktrees(git: Git, dir: string): Promise<string[]> {
  const removed: string[] = [];
  const list = await git.try(['worktree', 'list', '--porcelain']);
  const root = resolve(dir);
  for (const line of list.stdout.split('\n')) {
    if (!line.startsWith('worktree ')) continue;
    const p = resolve(line.slice('worktree '.length));
    if (p === root || p.startsWith(root + sep)) {
      await git.try(['worktree', 'remove', '--force', '--force', p]);
      rmSync(p, { recursive: true, force: true });
      removed.push(p);
    }
  }
  if (existsSync(root))
    for (const name of readdirSync(root)) rmSync(join(root, name), { recursive: true, force: true });
  await git.try(['worktree', 'prune']);
  return removed;
}

/** A detached worktree at `rev`: nothing is named (no branch) until its commit is complete. */
export async function addWorktree(git: Git, dir: string, rev: string): Promise<void> {
  mkdirSync(join(dir, '..'), { recursive: true });
  await git.run(['worktree', 'add', '--detach', '--quiet', dir, rev]);
}

export async function removeWorktree(git: Git, dir: string): Promise<void> {
  await git.try(['worktree', 'remove', '--force', '--force', dir]);
  rmSync(dir, { recursive: true, force: true });
  await git.try(['worktree', 'prune']);
}
