import { describe, expect, it } from 'vitest';
import { extractSummary } from './summary.js';
import { SUMMARY_RULES, type SummaryExample } from './summary-rules.js';
import { expectRuleTable } from '../../../test/rule-table.js';

function check(ex: SummaryExample): void {
  const { summary } = extractSummary(ex.text, ex.title ? { title: ex.title } : {});
  for (const s of ex.has ?? []) expect(summary).toContain(s);
  for (const s of ex.hasNot ?? []) expect(summary).not.toContain(s);
  if (ex.opens) expect(summary.startsWith(ex.opens), summary).toBe(true);
}

describe('summary rules: each holds on its examples', () => {
  it('has rules with examples on both sides, each saying what its summary holds', () => {
    expectRuleTable(SUMMARY_RULES);
    for (const r of SUMMARY_RULES) {
      for (const ex of [...r.match, ...r.notMatch])
        expect((ex.has?.length ?? 0) + (ex.hasNot?.length ?? 0) + (ex.opens ? 1 : 0), r.id).toBeGreaterThan(0);
    }
  });

  for (const rule of SUMMARY_RULES) {
    it.each(rule.match.map((ex, i) => [i + 1, ex] as const))(`${rule.id} matches example %i`, (_i, ex) => check(ex));
    it.each(rule.notMatch.map((ex, i) => [i + 1, ex] as const))(`${rule.id} does not match example %i`, (_i, ex) =>
      check(ex),
    );
  }
});
