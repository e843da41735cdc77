import { join, relative } from 'node:path';
import { reviewHint, statusText } from '../../heal/changelog.js';
import { formatStill } from '../../heal/describe.js';
import { healKb } from '../../heal/run.js';
import type { HealReport } from '../../heal/types.js';
import { closeKb, openKb } from '../../kb/context.js';
import { acquireLock } from '../../kb/lock.js';
import { summaryLine } from '../../lint/format.js';
import { paint } from '../io.js';
import { describeProvider, resolveProvider } from '../../model/provider.js';
import type { CliRuntime } from '../runtime.js';
import { ruleList, type LintFlags } from '../flags.js';

const LOCK_WAIT_MS = 30_000;

/** How long heal waits for a compile or watch to let go of the lock: `KB_LOCK_WAIT_MS`, else 30 s. */
function lockWaitMs(env: NodeJS.ProcessEnv): number {
  const ms = Number(env['KB_LOCK_WAIT_MS']);
  return env['KB_LOCK_WAIT_MS'] !== undefined && Number.isFinite(ms) && ms >= 0 ? ms : LOCK_WAIT_MS;
}

/** `kb lint --heal`: under the same lock as compile and watch. Exit 0 unless a branch failed. */
export async function runHeal(root: string, flags: LintFlags, rt: CliRuntime): Promise<number> {
  const ctx = openKb(root);
  // compile and watch hold the lock for short turns: wait for one to finish rather than skip the night.
  const lock = await acquireLock(join(ctx.paths.state, 'lock'), 'lint --heal', { waitMs: lockWaitMs(ctx.env) });
  const healer = resolveProvider(ctx.config, ctx.env, 'heal');
  if (flags.web && !flags.offline && healer.kind !== 'anthropic' && !flags.json) {
    rt.io.err(
      paint(
        rt.io,
        'yellow',
        `--web uses Claude's web search tool; ${describeProvider(healer)} heals from the sources alone.`,
      ),
    );
  }
  try {
    const report = await healKb(ctx, {
      offline: Boolean(flags.offline),
      dryRun: Boolean(flags.dryRun),
      rules: ruleList(flags),
      merge: Boolean(flags.merge),
      web: Boolean(flags.web),
      signal: rt.signal,
      ...(flags.json ? {} : { onStep: (l: string) => rt.io.err(paint(rt.io, 'dim', `heal ${l}`)) }),
    });
    if (flags.json) {
      rt.io.out(JSON.stringify(report, null, 2));
    } else {
      for (const r of report.recovered ?? [])
        rt.io.out(paint(rt.io, 'yellow', `put right after an interrupted merge: ${r}`));
      if (!report.nothingToDo) printReport(report, root, rt);
      else if (flags.dryRun) rt.io.out(nothingToHeal(report));
    }
    return report.branches.some((b) => b.status === 'failed') ? 1 : 0;
  } finally {
    lock.release();
    closeKb(ctx);
  }
}

/** `--dry-run` with nothing to do: one line (a heal from cron stays silent then). */
export function nothingToHeal(r: HealReport): string {
  const total = r.before.error + r.before.warning + r.before.info;
  return total === 0
    ? 'Nothing to heal: lint finds no problems.'
    : `Nothing to heal: heal fixes none of lint's ${total} finding${total === 1 ? '' : 's'} (\`kb lint\` lists ${total === 1 ? 'it' : 'them'}).`;
}

function printReport(r: HealReport, root: string, rt: CliRuntime): void {
  const { io } = rt;
  io.out(`Before: ${summaryLine(r.before)}`);
  for (const b of r.branches) {
    const name = b.branch ? paint(io, 'bold', b.branch) : paint(io, 'bold', b.topic);
    const what =
      b.status === 'created'
        ? `${paint(io, 'green', 'made')} ${(b.commit ?? '').slice(0, 10)}${b.fixedCount ? ` — ${b.fixedCount.before} → ${b.fixedCount.after} findings${b.clean ? ', re-lint clean' : ''}` : ''}`
        : b.status === 'exists'
          ? 'already made today for the same findings'
          : statusText(b);
    io.out(`${name}: ${what}`);
    io.out(`  [Heal] ${b.title}`);
    if (b.judge) io.out(`  judge: ${b.judge.verdict} — ${b.judge.reason}`);
    for (const c of b.cannot) io.out(paint(io, 'yellow', `  could not fix ${c.file}: ${c.why}`));
    for (const f of b.remaining) io.out(paint(io, 'yellow', `  still: ${formatStill(f)}`));
    if (b.error) io.out(paint(io, 'red', `  error: ${b.error}`));
    if (b.merged) io.out(paint(io, 'green', '  merged into the current branch'));
    else if (b.mergeNote) io.out(`  not merged: ${b.mergeNote}`);
    if (b.branch && (b.status === 'created' || b.status === 'exists') && !b.merged)
      io.out(paint(io, 'dim', `  ${reviewHint({ ...b, branch: b.branch })}`));
  }
  if (r.refreshError) io.out(paint(io, 'yellow', `After merging, the store was not refreshed: ${r.refreshError}`));
  if (r.changelog) io.out(`Report: ${relative(root, r.changelog)}`);
}
