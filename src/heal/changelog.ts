import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { formatMessage } from '../diagnostics/message.js';
import { formatStill } from './describe.js';
import { summaryLine } from '../lint/format.js';
import type { LintCounts } from '../lint/lint.js';
import { ymd } from './plan.js';
import type { HealBranch, HealReport } from './types.js';

const counts = (c: LintCounts | undefined) =>
  c ? `${c.error} errors, ${c.warning} warnings, ${c.info} info` : 'not run';

/**
 * How to look at a branch and take it. `kb lint --heal --merge` is offered only where it would
 * merge: a clean branch, in a run that did not already try (`mergeNote` says why it did not).
 */
export function reviewHint(b: Pick<HealBranch, 'branch' | 'clean' | 'mergeNote'> & { branch: string }): string {
  const heal = b.clean && !b.mergeNote ? ' (or `kb lint --heal --merge`)' : '';
  return `review with \`git log -p HEAD..${b.branch}\`, take it with \`git merge ${b.branch}\`${heal}, drop it with \`git branch -D ${b.branch}\``;
}

export function changelogSection(report: HealReport, at: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const lines = [
    `## ${p(at.getHours())}:${p(at.getMinutes())} kb lint --heal`,
    '',
    `Before: ${summaryLine(report.before)}.`,
    '',
  ];
  if (report.recovered?.length)
    lines.push('Put right after an interrupted merge:', '', ...report.recovered.map((r) => `- ${r}`), '');
  for (const b of report.branches) lines.push(...branchLines(b), '');
  if (report.refreshError) lines.push(`After merging, the store was not refreshed: ${report.refreshError}.`, '');
  return `${lines.join('\n').trimEnd()}\n\n`;
}

function branchLines(b: HealBranch): string[] {
  const head =
    b.status === 'created'
      ? `### \`${b.branch}\` — commit \`${(b.commit ?? '').slice(0, 10)}\``
      : b.status === 'exists'
        ? `### \`${b.branch}\` — already made earlier today for the same findings`
        : `### ${b.topic} — ${statusText(b)}`;
  const out = [head, '', `[Heal] ${b.title}`, ''];
  if (b.findings.length) {
    out.push('Findings it fixes:', '');
    for (const f of b.findings) out.push(`- ${formatMessage(f).replace(/ — .*? \[/, ' [')}`);
    out.push('');
  }
  if (b.changes.length) {
    out.push('What changed:', '');
    for (const c of b.changes) out.push(`- ${c}`);
    out.push('');
  }
  if (b.judge) out.push(`Judge: ${b.judge.verdict} — ${b.judge.reason}`, '');
  if (b.web.length) out.push(`Web evidence: ${b.web.map((u) => `<${u}>`).join(', ')}`, '');
  if (b.fixedCount)
    out.push(
      `Re-lint on the branch: ${b.fixedCount.before} → ${b.fixedCount.after} findings of these rules; all rules: ${counts(b.before)} → ${counts(b.after)}.`,
      '',
    );
  if (b.uncleanWhy && !b.mergeNote) out.push(`Not clean: ${b.uncleanWhy}.`, '');
  if (b.remaining.length) {
    out.push('Still reported after the fix:', '');
    for (const f of b.remaining) out.push(`- ${formatStill(f)}`);
    out.push('');
  }
  if (b.cannot.length) {
    out.push('Could not fix:', '');
    for (const c of b.cannot) out.push(`- ${c.file}: ${c.why}`);
    out.push('');
  }
  if (b.error) out.push(`Error: ${b.error}`, '');
  if (b.merged) out.push(`Merged into the current branch.`, '');
  else if (b.mergeNote) out.push(`Not merged: ${b.mergeNote}.`, '');
  if (b.branch && (b.status === 'created' || b.status === 'exists') && !b.merged)
    out.push(`To review: ${reviewHint({ ...b, branch: b.branch })}.`);
  return out;
}

export function statusText(b: HealBranch): string {
  switch (b.status) {
    case 'planned':
      return `would make \`${b.branch ?? ''}\``;
    case 'nothing':
      return 'nothing to change on the committed tree';
    case 'rejected':
      return `the judge rejected the rewrite: nothing committed`;
    case 'needs-model':
      return 'needs a model: set ANTHROPIC_API_KEY';
    case 'failed':
      return 'failed';
    default:
      return b.status;
  }
}

/** Append the run to `changelog/YYYY-MM-DD.md` (a heading first when the file is new). */
export function writeChangelog(changelogDir: string, report: HealReport, at: Date): string {
  mkdirSync(changelogDir, { recursive: true });
  const path = join(changelogDir, `${ymd(at)}.md`);
  const head = existsSync(path)
    ? ''
    : `# Heal report ${ymd(at)}\n\nWhat \`kb lint --heal\` found and fixed, one git branch per topic.\n\n`;
  appendFileSync(path, head + changelogSection(report, at));
  return path;
}
