import { UsageError } from '../../diagnostics/errors.js';
import { loadConfig } from '../../config/load.js';
import { findKbRoot, kbPaths } from '../../kb/paths.js';
import { formatReport } from '../../lint/format.js';
import { lintExitCode } from '../../lint/lint.js';
import { lintKb } from '../../lint/run.js';
import { ruleSeverity } from '../../lint/lint.js';
import { RULES } from '../../lint/rules/index.js';
import { paint, type Io } from '../io.js';
import type { CliRuntime } from '../runtime.js';
import { ruleList, type LintFlags } from '../flags.js';

function painter(io: Io) {
  return (c: 'red' | 'yellow' | 'dim' | 'bold' | 'green' | 'cyan', t: string) => paint(io, c, t);
}

export async function runLint(flags: LintFlags, rt: CliRuntime): Promise<number> {
  if (flags.listRules) return listRules(flags, rt);
  if ((flags.merge || flags.dryRun || flags.web) && !flags.heal) {
    throw new UsageError(
      'Unexpected --merge, --dry-run or --web without --heal, expected them with it: `kb lint --heal --merge`',
    );
  }
  const root = findKbRoot(flags.kb);
  if (flags.heal) {
    const { runHeal } = await import('./lint-heal-run.js');
    return runHeal(root, flags, rt);
  }
  const report = await lintKb(root, {
    rules: ruleList(flags),
    offline: Boolean(flags.offline),
    network: Boolean(flags.network),
    signal: rt.signal,
  });
  if (flags.json) rt.io.out(JSON.stringify(report, null, 2));
  else for (const l of formatReport(report, painter(rt.io))) rt.io.out(l);
  return lintExitCode(report.counts, Boolean(flags.frail));
}

function listRules(flags: LintFlags, rt: CliRuntime): number {
  let configured: Record<string, string> = {};
  try {
    configured = loadConfig(kbPaths(findKbRoot(flags.kb)).config).lint.rules;
  } catch {
    // Outside a knowledge base: the defaults.
  }
  const rows = RULES.map((r) => ({
    id: r.id,
    severity: ruleSeverity(r, configured) ?? 'off',
    fixable: r.fixable || 'no',
    network: Boolean(r.network),
    docs: r.docs,
  }));
  if (flags.json) {
    rt.io.out(JSON.stringify(rows, null, 2));
    return 0;
  }
  for (const r of rows) {
    rt.io.out(
      `${paint(rt.io, 'bold', r.id)}  ${r.severity}, heal: ${r.fixable}${r.network ? ', only with --network' : ''}`,
    );
    rt.io.out(`  ${r.docs}`);
    rt.io.out('');
  }
  return 0;
}
