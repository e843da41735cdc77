import { expect } from 'vitest';

/** A table of rules (concept, grouping, summary, title rules): ids of their own, examples on both sides. */
export function expectRuleTable(
  rules: readonly { id: string; match: readonly unknown[]; notMatch: readonly unknown[] }[],
) {
  expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
  for (const r of rules) {
    expect(r.match.length, r.id).toBeGreaterThan(0);
    expect(r.notMatch.length, r.id).toBeGreaterThan(0);
  }
}
