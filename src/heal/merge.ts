import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { writeFileAtomic } from '../util/atomic.js';
import type { Git } from './git.js';
import type { HealBranch } from './types.js';
import { addWorktree, removeWorktree, worktreesDir } from './worktree.js';

/** What a merge staged in the person's index, so that a run killed half-way can be undone. */
interface MergeJournal {
  /** Paths (relative to the repository top) of untracked files staged for the merge, with their blob ids. */
  staged: { path: string; blob: string }[];
}

const JOURNAL = 'heal-merge.json';
/** Where an earlier kb moved untracked files during a merge; only ever read now, to put them back. */
const OLD_ASIDE = 'heal-aside';

/**
 * `--merge`: merge each branch whose re-lint was clean into the current branch, when it can be
 * done without touching anything the person has not committed and without a conflict.
 *
 * The merge commit is made away from the checkout (or is the branch itself when it is a fast
 * forward); the checkout is then fast-forwarded to it. A file the person has not added to git
 * that the branch adds byte for byte (a raw file heal compiled) is never moved: it is added to
 * the index, which is all git needs to take the branch's identical copy as already there. A run
 * killed in between is undone by the next one (`recoverMerge`). Returns how many were merged.
 */
export async function mergeBranches(git: Git, stateDir: string, branches: HealBranch[]): Promise<number> {
  let merged = 0;
  const busy = await busyCheckout(git);
  for (const b of branches) {
    if (!b.branch || (b.status !== 'created' && b.status !== 'exists')) continue;
    if (!b.clean) {
      b.mergeNote = b.uncleanWhy ?? 'its re-lint was not clean';
      continue;
    }
    if (busy) {
      b.mergeNote = busy;
      continue;
    }
    const head = (await git.run(['rev-parse', 'HEAD'])).trim();
    const files = (await git.run(['diff', '--name-only', '--no-renames', '-z', 'HEAD', b.branch]))
      .split('\0')
      .filter(Boolean);
    const status = files.length
      ? await git.run(['status', '--porcelain=v1', '-z', '--no-renames', '--untracked-files=all', '--', ...files])
      : '';
    const stage: { path: string; blob: string }[] = [];
    const blocked: string[] = [];
    for (const item of status.split('\0').filter(Boolean)) {
      const code = item.slice(0, 2);
      const path = item.slice(3);
      if (code === '??') {
        const mine = (await git.try(['hash-object', '--', path])).stdout.trim();
        const theirs = (await git.try(['rev-parse', '--verify', '-q', `${b.branch}:${path}`])).stdout.trim();
        if (mine && mine === theirs) stage.push({ path, blob: mine });
        else blocked.push(path);
      } else blocked.push(path);
    }
    if (blocked.length) {
      b.mergeNote = `you have changes not committed in ${blocked.slice(0, 5).join(', ')}${blocked.length > 5 ? ` and ${blocked.length - 5} more` : ''}; commit or remove them, then merge with \`git merge ${b.branch}\``;
      continue;
    }
    const made = await mergeCommit(git, stateDir, head, b.branch);
    if ('conflict' in made) {
      b.mergeNote = `the merge has conflicts (${made.conflict}); merge it yourself with \`git merge ${b.branch}\``;
      continue;
    }
    crashPoint('merge-made');
    const journal = join(stateDir, JOURNAL);
    if (stage.length) {
      writeFileAtomic(journal, JSON.stringify({ staged: stage } satisfies MergeJournal));
      await git.run(['add', '--', ...stage.map((s) => s.path)]);
    }
    crashPoint('merge-staged');
    const ff = await git.try(['merge', '--ff-only', '--quiet', made.commit]);
    if (ff.code !== 0) {
      await unstage(git, stage);
      rmSync(journal, { force: true });
      b.mergeNote = `git could not bring your checkout to the merge (${(ff.stderr || ff.stdout).trim().split('\n')[0] ?? 'git merge failed'})`;
      continue;
    }
    crashPoint('merge-done');
    rmSync(journal, { force: true });
    b.merged = true;
    merged++;
  }
  return merged;
}

/** The commit the checkout should move to: the branch itself when HEAD is its ancestor, else a merge made in a worktree of its own. */
async function mergeCommit(
  git: Git,
  stateDir: string,
  head: string,
  branch: string,
): Promise<{ commit: string } | { conflict: string }> {
  if ((await git.try(['merge-base', '--is-ancestor', head, branch])).code === 0)
    return { commit: (await git.run(['rev-parse', branch])).trim() };
  const dir = join(worktreesDir(stateDir), 'merge');
  await removeWorktree(git, dir);
  await addWorktree(git, dir, head);
  try {
    const wt = git.at(dir);
    const into = (await git.try(['symbolic-ref', '-q', '--short', 'HEAD'])).stdout.trim();
    const msg = `Merge branch '${branch}'${into ? ` into ${into}` : ''}`;
    const r = await wt.try([
      ...(await wt.commitConfig()),
      'merge',
      '--no-ff',
      '--no-edit',
      '--no-verify',
      '-m',
      msg,
      branch,
    ]);
    if (r.code !== 0)
      return {
        conflict:
          (r.stdout + r.stderr)
            .trim()
            .split('\n')
            .find((l) => l.startsWith('CONFLICT')) ?? 'git merge failed',
      };
    return { commit: (await wt.run(['rev-parse', 'HEAD'])).trim() };
  } finally {
    await removeWorktree(git, dir);
  }
}

/** Take out of the index what a merge staged, where the index still holds just that and HEAD does not have the path. */
async function unstage(git: Git, staged: MergeJournal['staged']): Promise<string[]> {
  const undone: string[] = [];
  for (const s of staged) {
    if ((await git.try(['cat-file', '-e', `HEAD:${s.path}`])).code === 0) continue;
    const inIndex = (await git.try(['rev-parse', '--verify', '-q', `:${s.path}`])).stdout.trim();
    if (inIndex !== s.blob) continue;
    await git.run(['reset', '-q', '--', s.path]);
    undone.push(s.path);
  }
  return undone;
}

/**
 * Before anything else: undo what a killed merge left. Files it staged are unstaged (never
 * touched on disk); files an earlier kb moved to `.kb/heal-aside` go back where they were, unless
 * something else is there now (then they stay, and the returned note says where).
 */
export async function recoverMerge(git: Git, stateDir: string): Promise<string[]> {
  const notes: string[] = [];
  const journal = join(stateDir, JOURNAL);
  if (existsSync(journal)) {
    let j: MergeJournal | undefined;
    try {
      j = JSON.parse(readFileSync(journal, 'utf8')) as MergeJournal;
    } catch {
      j = undefined;
    }
    const undone = j && Array.isArray(j.staged) ? await unstage(git, j.staged) : [];
    if (undone.length)
      notes.push(
        `an interrupted merge had added ${undone.join(', ')} to the git index; taken out again (the files were not touched)`,
      );
    rmSync(journal, { force: true });
  }
  const aside = join(stateDir, OLD_ASIDE);
  if (existsSync(aside)) {
    const left: string[] = [];
    for (const rel of listFiles(aside)) {
      const from = join(aside, rel);
      const to = join(git.cwd, rel);
      if (!existsSync(to)) {
        mkdirSync(dirname(to), { recursive: true });
        renameSync(from, to);
        notes.push(`${rel}: put back from ${relative(git.cwd, aside)}, where an interrupted merge had left it`);
      } else if (readFileSync(to).equals(readFileSync(from))) {
        rmSync(from);
      } else {
        left.push(rel);
      }
    }
    if (left.length)
      notes.push(
        `${left.join(', ')}: a copy an interrupted merge set aside differs from the file there now; it is kept in ${relative(git.cwd, aside)}`,
      );
    else rmSync(aside, { recursive: true, force: true });
  }
  return notes;
}

function listFiles(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, rel))) {
    const r = rel ? `${rel}/${name}` : name;
    if (statSync(join(dir, r)).isDirectory()) out.push(...listFiles(dir, r));
    else out.push(r);
  }
  return out;
}

/** Tests stop the process here for real (SIGKILL) to prove a killed merge loses nothing. */
function crashPoint(name: string): void {
  if (process.env['KB_TEST_KILL_AT'] === name) process.kill(process.pid, 'SIGKILL');
}

/** Why merging into the checkout now would get in the person's way, if it would. */
async function busyCheckout(git: Git): Promise<string | undefined> {
  if ((await git.try(['symbolic-ref', '-q', 'HEAD'])).code !== 0)
    return 'HEAD is detached; check out a branch to merge into';
  for (const marker of ['MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'rebase-merge', 'rebase-apply']) {
    const p = (await git.try(['rev-parse', '--git-path', marker])).stdout.trim();
    if (p && existsSync(isAbsolute(p) ? p : join(git.cwd, p)))
      return 'a merge, rebase or cherry-pick is in progress in your checkout';
  }
  return undefined;
}
