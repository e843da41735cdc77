import type { LintCounts, LintReport } from './lint.js';
import type { Finding } from './types.js';

export type Painter = (color: 'red' | 'yellow' | 'dim' | 'bold' | 'green' | 'cyan', text: string) => string;

const plainPaint: Painter = (_c, t) => t;

/** remark-lint style: findings grouped under their file, aligned, then a summary line. */
export function formatReport(report: LintReport, paint: Painter = plainPaint): string[] {
  const lines: string[] = [];
  const byFile = new Map<string, Finding[]>();
  for (const f of report.findings) (byFile.get(f.file) ?? byFile.set(f.file, []).get(f.file)!).push(f);
  for (const [file, list] of byFile) {
    lines.push(paint('bold', file));
    const rows = list.map(
      (f) =>
        [f.place ? `${f.place.line}:${f.place.column}` : '', f.severity, f.reason, f.ruleId, f.note ?? ''] as const,
    );
    const w0 = Math.max(...rows.map((r) => r[0].length));
    const w1 = Math.max(...rows.map((r) => r[1].length));
    for (const [place, sev, reason, rule, note] of rows) {
      const color = sev === 'error' ? 'red' : sev === 'warning' ? 'yellow' : 'dim';
      lines.push(`  ${place.padEnd(w0)}  ${paint(color, sev.padEnd(w1))}  ${reason}  ${paint('dim', rule)}`);
      if (note) lines.push(`  ${''.padEnd(w0)}  ${''.padEnd(w1)}  ${paint('dim', `→ ${note}`)}`);
    }
    lines.push('');
  }
  lines.push(summaryLine(report.counts));
  return lines;
}

export function summaryLine(c: LintCounts): string {
  const total = c.error + c.warning + c.info;
  if (total === 0) return '✓ no problems';
  const parts = [`${c.error} error${c.error === 1 ? '' : 's'}`, `${c.warning} warning${c.warning === 1 ? '' : 's'}`];
  if (c.info) parts.push(`${c.info} info`);
  return `${total} finding${total === 1 ? '' : 's'}: ${parts.join(', ')}`;
}
