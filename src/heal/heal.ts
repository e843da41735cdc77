import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { compile } from '../compile/compile.js';
import type { EntryWriter } from '../compile/types.js';
import { InterruptedError } from '../diagnostics/errors.js';
import { closeKb, openKb, type KbContext } from '../kb/context.js';
import { kbPaths, type KbPaths } from '../kb/paths.js';
import { loadLintInput } from '../lint/input.js';
import { lint, type LintReport } from '../lint/lint.js';
import type { Finding } from '../lint/types.js';
import type { ModelClient } from '../model/client.js';
import { applyContentFix } from './fixes/content.js';
import { takeOffers } from './fixes/offers.js';
import { offersDir } from '../emit/offers.js';
import {
  fixBrokenLinks,
  fixFrontmatter,
  refreshBacklinks,
  refreshIndex,
  removeDeletedSources,
  syncRaw,
  type FixLog,
} from './fixes/structural.js';
import { actualChanges, frontmatterChanges, uncleanReason } from './describe.js';
import { parseEntryFile } from '../entry/frontmatter.js';
import { changedPaths, finalizeEntries } from './finalize.js';
import { type Git, openRepo } from './git.js';
import { mergeBranches, recoverMerge } from './merge.js';
import { reindexEntries } from './reindex.js';
import { branchName, planHeal, ymd, type HealGroup } from './plan.js';
import type { HealBranch, HealReport } from './types.js';
import { writeChangelog } from './changelog.js';
import { addWorktree, cleanWorktrees, removeWorktree, worktreesDir } from './worktree.js';

export interface HealOptions {
  dryRun?: boolean;
  merge?: boolean;
  /** Heal only what these rules find (`--rule`). */
  rules?: string[] | undefined;
  web?: boolean;
  /** For content fixes (rewrite + judge); without it those groups are reported, not fixed. */
  model?: ModelClient | undefined;
  /** The compiler heal uses for uncompiled and stale sources (default: the offline one). */
  writer?: ((ctx: KbContext) => EntryWriter) | undefined;
  signal?: AbortSignal | undefined;
  now?: Date;
  /** One line per step, for a progress display. */
  onStep?: (line: string) => void;
}

function checkAbort(signal?: AbortSignal): void {
  if (signal?.aborted)
    throw new InterruptedError('Heal interrupted; nothing half-made was kept (run `kb lint --heal` again).');
}

/**
 * `kb lint --heal`: lint the checkout, group what can be fixed by topic, and for each group make
 * a branch `heal/<topic>-<YYYYMMDD>` in a separate git worktree (the person's checkout is never
 * switched or written, except `changelog/`), fix, re-lint, commit `[Heal] …`, and report.
 * The caller holds the knowledge base lock.
 */
export async function heal(ctx: KbContext, opts: HealOptions = {}): Promise<HealReport> {
  const at = opts.now ?? new Date();
  const { git, top } = await openRepo(ctx.paths.root, ctx.env);
  const rel = relative(top, ctx.paths.root);
  const wtBase = worktreesDir(ctx.paths.state);
  // A merge killed half-way is undone before anything looks at the checkout.
  const recovered = await recoverMerge(git, ctx.paths.state);
  await cleanWorktrees(git, wtBase);
  checkAbort(opts.signal);

  const input = await loadLintInput(ctx.paths, ctx.config, {
    store: ctx.store,
    embedder: ctx.embedder,
    model: opts.model,
    signal: opts.signal,
  });
  const mainReport = await lint(input, { rules: opts.rules });
  const groups = planHeal(mainReport.findings);
  const report: HealReport = {
    date: ymd(at),
    before: mainReport.counts,
    branches: [],
    nothingToDo: false,
    ...(recovered.length ? { recovered } : {}),
  };
  if (groups.every((g) => g.findings.length === 0)) {
    report.nothingToDo = true;
    return report;
  }

  const branches = new Set(
    (await git.run(['for-each-ref', '--format=%(refname:short)', 'refs/heads/heal/'])).split('\n').filter(Boolean),
  );
  for (const group of groups) {
    checkAbort(opts.signal);
    const b: HealBranch = {
      topic: group.topic,
      title: group.title,
      status: 'nothing',
      findings: group.findings,
      changes: [],
      cannot: group.unfixable.map((u) => ({ file: u.finding.file, why: u.why })),
      remaining: [],
      clean: false,
      web: [],
    };
    report.branches.push(b);
    if (group.findings.length === 0) continue;
    if (group.kind === 'content' && !opts.model) {
      b.status = 'needs-model';
      continue;
    }
    const existing = await sameFindingsBranch(git, group, at, branches);
    if (existing) {
      b.status = 'exists';
      b.branch = existing.name;
      b.clean = existing.clean;
      if (existing.why) b.uncleanWhy = existing.why;
      continue;
    }
    const name = branchName(group.topic, at, (n) => branches.has(n));
    b.branch = name;
    if (opts.dryRun) {
      b.status = 'planned';
      continue;
    }
    opts.onStep?.(`${group.topic}: ${group.title}`);
    try {
      await healGroup(ctx, git, rel, join(wtBase, name.replace(/\//g, '_')), group, b, at, opts);
    } catch (err) {
      if (err instanceof InterruptedError || opts.signal?.aborted) {
        // The branches made so far are whole: say so in the changelog before stopping.
        report.branches.pop();
        if (!opts.dryRun && report.branches.some((x) => x.status === 'created'))
          report.changelog = writeChangelog(ctx.paths.changelog, report, at);
        throw new InterruptedError(
          `Heal interrupted while making ${name}; nothing half-made was kept. Run \`kb lint --heal\` again to finish.`,
        );
      }
      b.status = 'failed';
      b.error = (err as Error).message;
    }
    if (b.status === 'created') branches.add(name);
  }

  if (opts.merge && !opts.dryRun) await mergeAndRefresh(ctx, git, report, opts.signal);
  if (!opts.dryRun) report.changelog = writeChangelog(ctx.paths.changelog, report, at);
  return report;
}

/** A branch of today for this topic whose commit records the same findings, if any. */
async function sameFindingsBranch(
  git: Git,
  group: HealGroup,
  at: Date,
  branches: Set<string>,
): Promise<{ name: string; clean: boolean; why?: string } | undefined> {
  const base = `heal/${group.topic}-${ymd(at, '')}`;
  for (const name of [...branches].filter((n) => n === base || n.startsWith(`${base}-`)).sort()) {
    const msg = await git.try(['log', '-1', '--format=%B', name]);
    if (msg.stdout.includes(`Kb-Heal-Findings: ${group.fingerprint}`)) {
      const why = /^Not clean: (.*)\.$/m.exec(msg.stdout)?.[1];
      return { name, clean: /-> 0 findings of these rules, clean\./.test(msg.stdout), ...(why ? { why } : {}) };
    }
  }
  return undefined;
}

function groupRules(group: HealGroup): Set<string> {
  return new Set(group.findings.map((f) => f.ruleId));
}

/** Does a finding on the branch belong to this group (for pair groups: the same entries)? */
function inGroup(group: HealGroup, f: Finding): boolean {
  if (!groupRules(group).has(f.ruleId)) return false;
  if (group.kind === 'structural') return true;
  const files = new Set(
    group.findings.flatMap((g) => [g.file, String(g.data?.path ?? ''), String(g.data?.other ?? '')]),
  );
  return files.has(f.file) || files.has(String(f.data?.path ?? '')) || files.has(String(f.data?.other ?? ''));
}

async function lintAt(paths: KbPaths, ctx: KbContext, model?: ModelClient): Promise<LintReport> {
  // The person's store says which raw files ingest skips (empty, binary…), so they are not "uncompiled" here either.
  return lint(
    await loadLintInput(paths, ctx.config, {
      embedder: ctx.embedder,
      model,
      store: ctx.store,
      offers: offersDir(ctx.paths.state),
    }),
  );
}

/** --merge: the branches made are merged into the checkout, and the entries they changed indexed again. */
async function mergeAndRefresh(
  ctx: KbContext,
  git: Git,
  report: HealReport,
  signal: AbortSignal | undefined,
): Promise<void> {
  checkAbort(signal);
  const headBefore = (await git.run(['rev-parse', 'HEAD'])).trim();
  const merged = await mergeBranches(git, ctx.paths.state, report.branches);
  if (merged === 0) return;
  // The merged entries changed under the store: index those (and only those) again.
  try {
    const changed = (
      await git
        .at(ctx.paths.root)
        .run(['diff', '--name-only', '-z', '--relative', '--no-renames', headBefore, 'HEAD', '--', 'wiki'])
    )
      .split('\0')
      .filter(Boolean);
    await reindexEntries(ctx, changed, signal);
    report.refreshed = true;
  } catch (err) {
    if (signal?.aborted) throw new InterruptedError();
    report.refreshed = false;
    report.refreshError = `${(err as Error).message}; run \`kb compile\` to bring the store up to date`;
  }
}

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: the steps of one heal branch (worktree, fix, compile, re-lint, commit, clean up) must run in order under one try/finally that removes the worktree
async function healGroup(
  ctx: KbContext,
  git: Git,
  rel: string,
  dir: string,
  group: HealGroup,
  b: HealBranch,
  at: Date,
  opts: HealOptions,
): Promise<void> {
  await addWorktree(git, dir, 'HEAD');
  try {
    const wtRoot = join(dir, rel);
    const wt = kbPaths(wtRoot);
    const wtGit = git.at(wtRoot);
    const log: FixLog = { changes: b.changes, cannot: b.cannot };
    if (group.topic === 'sources' || group.topic.startsWith('update-')) {
      syncRaw(ctx.paths.raw, wt.raw, group.findings.map((f) => String(f.data?.rawPath ?? '')).filter(Boolean), log);
    }
    const content = group.kind === 'content' ? opts.model : undefined;
    const before = await lintAt(wt, ctx, content);
    const targets = before.findings.filter((f) => inGroup(group, f));
    b.before = before.counts;
    if (targets.length === 0) {
      b.status = 'nothing';
      b.cannot.push({
        file: group.findings[0]?.file ?? '',
        why: 'not found in the committed tree: the problem is in changes you have not committed yet',
      });
      return;
    }
    checkAbort(opts.signal);
    const adopt = new Set<string>();
    switch (group.topic) {
      case 'frontmatter':
        fixFrontmatter(wt, targets, log);
        refreshIndex(wt);
        break;
      case 'links':
        fixBrokenLinks(wt, log);
        refreshBacklinks(wt, log, ctx.config.wiki.backlinksSection);
        refreshIndex(wt);
        break;
      case 'edits':
        takeOffers(wt, targets, offersDir(ctx.paths.state), log);
        refreshBacklinks(wt, log, ctx.config.wiki.backlinksSection);
        refreshIndex(wt);
        break;
      case 'sources': {
        const removed = removeDeletedSources(wt, targets, log);
        if (targets.some((f) => f.ruleId === 'uncompiled-source' || f.ruleId === 'stale-entry')) {
          await compileIn(ctx, wt, targets, opts, log);
        }
        // Links to the removed entries only: other broken links belong to the links branch.
        if (removed.size) fixBrokenLinks(wt, log, undefined, removed);
        refreshBacklinks(wt, log, ctx.config.wiki.backlinksSection);
        refreshIndex(wt);
        break;
      }
      default: {
        const res = await applyContentFix(
          group,
          targets,
          { main: ctx, wt },
          opts.model!,
          { web: Boolean(opts.web), signal: opts.signal },
          log,
          adopt,
        );
        b.web = res.web;
        if (res.judge) b.judge = res.judge;
        if (!res.ok) {
          b.status = 'rejected';
          return;
        }
        fixBrokenLinks(wt, log, res.touched);
        refreshBacklinks(wt, log, ctx.config.wiki.backlinksSection);
        refreshIndex(wt);
      }
    }
    checkAbort(opts.signal);
    const now = Math.floor(at.getTime() / 1000);
    await finalizeEntries(wtGit, wtRoot, now, adopt, log, (id) => ctx.store.getEntry(id)?.content_hash);
    rmSync(join(wt.wiki, 'embeddings.db-wal'), { force: true });

    const after = await lintAt(wt, ctx, content);
    b.after = after.counts;
    b.remaining = after.findings.filter((f) => inGroup(group, f));
    b.fixedCount = { before: targets.length, after: b.remaining.length };
    const unclean = uncleanReason(b.remaining, before, after);
    b.clean = unclean === undefined;
    if (unclean) b.uncleanWhy = unclean;
    b.findings = targets;

    const { changed, added, deleted } = await changedPaths(wtGit);
    // Say what the branch changes, read off the result: frontmatter field by field, nothing a later step undid.
    if (group.topic === 'frontmatter') {
      for (const file of new Set(targets.map((f) => String(f.data?.path ?? f.file)))) {
        if (!changed.includes(file)) continue;
        const head = await wtGit.try(['show', `HEAD:./${file}`]);
        b.changes.push(
          ...frontmatterChanges(
            file,
            head.code === 0 ? safeFrontmatter(head.stdout) : undefined,
            parseEntryFile(readFileSync(join(wtRoot, file), 'utf8')).data,
          ),
        );
      }
    }
    b.changes = actualChanges(b.changes, new Set([...changed, ...added, ...deleted]));
    if (changed.length + added.length + deleted.length === 0) {
      b.status = 'nothing';
      return;
    }
    checkAbort(opts.signal);
    await wtGit.run(['add', '-A', '--', '.']);
    // The store and private state never go into a commit, even where .gitignore forgot them.
    const derived = (await wtGit.run(['diff', '--cached', '--name-only', '-z', '--relative']))
      .split('\0')
      .filter((p) => /^wiki\/embeddings\.db|^\.kb\//.test(p));
    if (derived.length) await wtGit.run(['rm', '--cached', '-q', '--ignore-unmatch', '--', ...derived]);
    const staged = await wtGit.try(['diff', '--cached', '--quiet']);
    if (staged.code === 0) {
      b.status = 'nothing';
      return;
    }
    const message = commitMessage(group, b);
    await wtGit.run([...(await wtGit.commitConfig()), 'commit', '--quiet', '--no-verify', '-F', '-'], message);
    const sha = (await wtGit.run(['rev-parse', 'HEAD'])).trim();
    // The branch is named only once its commit is whole: an interrupted run leaves no branch.
    checkAbort(opts.signal);
    await git.run(['branch', b.branch!, sha]);
    b.commit = sha;
    b.status = 'created';
  } finally {
    await removeWorktree(git, dir);
  }
}

function commitMessage(group: HealGroup, b: HealBranch): string {
  const lines = [`[Heal] ${group.title}`, ''];
  lines.push('Findings (kb lint):');
  for (const f of b.findings.slice(0, 50))
    lines.push(`- ${f.ruleId} ${f.file}${f.place ? `:${f.place.line}:${f.place.column}` : ''}: ${f.reason}`);
  if (b.findings.length > 50) lines.push(`- … and ${b.findings.length - 50} more`);
  if (b.changes.length) {
    lines.push('', 'Changes:');
    for (const c of b.changes.slice(0, 50)) lines.push(`- ${c}`);
    if (b.changes.length > 50) lines.push(`- … and ${b.changes.length - 50} more`);
  }
  if (b.judge) lines.push('', `Judge: ${b.judge.verdict}: ${b.judge.reason}`);
  if (b.web.length) lines.push('', `Web evidence: ${b.web.join(' ')}`);
  if (b.fixedCount)
    lines.push(
      '',
      `Re-lint on this branch: ${b.fixedCount.before} -> ${b.fixedCount.after} findings of these rules${b.clean ? ', clean' : ''}.`,
    );
  if (b.uncleanWhy) lines.push(`Not clean: ${b.uncleanWhy}.`);
  lines.push('', `Kb-Heal-Topic: ${group.topic}`, `Kb-Heal-Findings: ${group.fingerprint}`);
  return `${lines.join('\n')}\n`;
}

/** Compile in the worktree, from a copy of the person's store so that only what changed is redone. */
async function compileIn(
  ctx: KbContext,
  wt: KbPaths,
  targets: Finding[],
  opts: HealOptions,
  log: FixLog,
): Promise<void> {
  const db = wt.db;
  if (!existsSync(db)) {
    try {
      ctx.store.copyTo(db);
    } catch {
      rmSync(db, { force: true });
    }
  }
  const wctx = openKb(wt.root, { embedder: ctx.embedder, config: ctx.config, env: ctx.env });
  try {
    // Whatever the copied store believes about these files, compile them again.
    for (const f of targets) {
      const p = f.data?.rawPath;
      if ((f.ruleId === 'uncompiled-source' || f.ruleId === 'stale-entry') && typeof p === 'string')
        wctx.store.deleteFile(p);
    }
    const r = await compile(wctx, {
      ...(opts.writer ? { writer: opts.writer(wctx) } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    log.changes.push(
      `compiled: ${r.new} new, ${r.updated} updated, ${r.deleted} removed; concepts ${r.concepts.created} new, ${r.concepts.updated} updated, ${r.concepts.deleted} removed`,
    );
    for (const p of r.protected)
      log.cannot.push({ file: p, why: 'a person edited it, so compile left it as it is; update it by hand' });
  } finally {
    closeKb(wctx);
  }
}

function safeFrontmatter(text: string): Record<string, unknown> | undefined {
  try {
    return parseEntryFile(text).data;
  } catch {
    return undefined;
  }
}
