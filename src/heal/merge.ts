import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import type { Git } from './git.js';
import type { HealBranch } from './types.js';

/**
 * `--merge`: merge each branch whose re-lint was clean into the current branch, when it can be
 * done without touching anything the person has not committed and without a conflict. Files the
 * person has not added to git that the branch adds byte for byte (a raw file heal compiled) are
 * moved aside for the merge and dropped after it. Returns how many were merged.
 */
export async function mergeBranches(git: Git, stateDir: string, branches: HealBranch[]): Promise<number> {
  let merged = 0;
  const busy = await busyCheckout(git);
  for (const b of branches) {
    if (!b.branch || (b.status !== 'created' && b.status !== 'exists')) continue;
    if (!b.clean) {
      b.mergeNote = 'its re-lint still reports findings of its rules';
      continue;
    }
    if (busy) {
      b.mergeNote = busy;
      continue;
    }
    const files = (await git.run(['diff', '--name-only', '--no-renames', 'HEAD', b.branch])).split('\n').filter(Boolean);
    const status = files.length ? await git.run(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', ...files]) : '';
    const aside: string[] = [];
    const blocked: string[] = [];
    for (const item of status.split('\0').filter(Boolean)) {
      const code = item.slice(0, 2);
      const path = item.slice(3);
      if (code === '??') {
        const mine = (await git.try(['hash-object', '--', path])).stdout.trim();
        const theirs = (await git.try(['rev-parse', `${b.branch}:${path}`])).stdout.trim();
        if (mine && mine === theirs) aside.push(path);
        else blocked.push(path);
      } else blocked.push(path);
    }
    if (blocked.length) {
      b.mergeNote = `you have changes not committed in ${blocked.slice(0, 5).join(', ')}${blocked.length > 5 ? '…' : ''}`;
      continue;
    }
    const asideDir = join(stateDir, 'heal-aside');
    for (const p of aside) {
      const to = join(asideDir, p);
      mkdirSync(dirname(to), { recursive: true });
      renameSync(join(git.cwd, p), to);
    }
    const r = await git.try([...(await git.commitConfig()), 'merge', '--no-edit', '--no-verify', b.branch]);
    if (r.code !== 0) {
      await git.try(['merge', '--abort']);
      for (const p of aside) if (!existsSync(join(git.cwd, p))) renameSync(join(asideDir, p), join(git.cwd, p));
      b.mergeNote = `the merge has conflicts (${(r.stdout + r.stderr).trim().split('\n').find((l) => l.startsWith('CONFLICT')) ?? 'git merge failed'})`;
    } else {
      b.merged = true;
      merged++;
    }
    rmSync(asideDir, { recursive: true, force: true });
  }
  return merged;
}

/** Why merging into the checkout now would get in the person's way, if it would. */
async function busyCheckout(git: Git): Promise<string | undefined> {
  if ((await git.try(['symbolic-ref', '-q', 'HEAD'])).code !== 0) return 'HEAD is detached; check out a branch to merge into';
  for (const marker of ['MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'rebase-merge', 'rebase-apply']) {
    const p = (await git.try(['rev-parse', '--git-path', marker])).stdout.trim();
    if (p && existsSync(isAbsolute(p) ? p : join(git.cwd, p))) return 'a merge, rebase or cherry-pick is in progress in your checkout';
  }
  return undefined;
}
