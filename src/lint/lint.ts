import { pathToFileURL } from 'node:url';
import { UsageError } from '../diagnostics/errors.js';
import { packagePath } from '../kb/package-root.js';
import type { Severity } from '../types.js';
import { RULES } from './rules/index.js';
import type { Finding, LintInput, LintRule } from './types.js';

export interface LintOptions {
  /** Run only these rule ids. */
  rules?: string[] | undefined;
}

export interface LintCounts {
  error: number;
  warning: number;
  info: number;
}

export interface LintReport {
  findings: Finding[];
  counts: LintCounts;
  /** Rules that ran. */
  rules: string[];
}

/** The rule's documentation: its own file (id, docs, passing and failing examples), shipped with kb. */
export function ruleUrl(id: string): string {
  return pathToFileURL(packagePath('src', 'lint', 'rules', `${id}.ts`)).href;
}

/** The severity of a rule after kb.config.json `lint.rules`; undefined when turned off. */
export function ruleSeverity(rule: LintRule, configured: Record<string, string>): Severity | undefined {
  const s = configured[rule.id];
  if (s === undefined) return rule.severity;
  if (s === 'off') return undefined;
  if (s === 'error' || s === 'warning' || s === 'info') return s;
  return rule.severity;
}

/** The rules a run uses: `--rule` ids (unknown ones are a usage error), minus those turned off. */
export function selectRules(
  input: Pick<LintInput, 'config' | 'network'>,
  only?: string[],
): { rule: LintRule; severity: Severity }[] {
  if (only?.length) {
    const unknown = only.filter((id) => !RULES.some((r) => r.id === id));
    if (unknown.length)
      throw new UsageError(
        `Unknown rule ${unknown.map((u) => `\`${u}\``).join(', ')}, expected one of ${RULES.map((r) => r.id).join(', ')}`,
      );
  }
  const out: { rule: LintRule; severity: Severity }[] = [];
  for (const rule of RULES) {
    if (only?.length && !only.includes(rule.id)) continue;
    if (rule.network && !input.network) continue;
    const severity = ruleSeverity(rule, input.config.lint.rules);
    if (severity) out.push({ rule, severity });
  }
  return out;
}

/** Run the rules over the knowledge base; every finding is collected (no rule stops the run). */
export async function lint(input: LintInput, opts: LintOptions = {}): Promise<LintReport> {
  const selected = selectRules(input, opts.rules);
  const findings: Finding[] = [];
  for (const { rule, severity } of selected) {
    if (input.signal?.aborted) break;
    for (const d of await rule.check(input)) {
      const f: Finding = {
        reason: d.reason,
        file: d.file,
        ruleId: rule.id,
        source: 'kb',
        severity,
        url: ruleUrl(rule.id),
      };
      if (d.place) f.place = d.place;
      if (d.expected !== undefined) f.expected = d.expected;
      if (d.note !== undefined) f.note = d.note;
      if (d.data) f.data = d.data;
      findings.push(f);
    }
  }
  findings.sort((a, b) =>
    a.file < b.file
      ? -1
      : a.file > b.file
        ? 1
        : (a.place?.line ?? 0) - (b.place?.line ?? 0) || (a.place?.column ?? 0) - (b.place?.column ?? 0),
  );
  return { findings, counts: countFindings(findings), rules: selected.map((s) => s.rule.id) };
}

export function countFindings(findings: Finding[]): LintCounts {
  const c: LintCounts = { error: 0, warning: 0, info: 0 };
  for (const f of findings) c[f.severity]++;
  return c;
}

/** Exit code: 1 when there is an error (with `frail`, also a warning), else 0. */
export function lintExitCode(counts: LintCounts, frail: boolean): number {
  return counts.error > 0 || (frail && counts.warning > 0) ? 1 : 0;
}
