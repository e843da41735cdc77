import { describe, expect, it } from 'vitest';
import { entityKey } from '../../entry/names.js';
import { extractEntities } from './entities.js';
import { CONCEPT_RULES, type ConceptRule, type RuleExample } from './rules.js';
import { expectRuleTable } from '../../../test/rule-table.js';

/** Whether the text gives the example's name (found), or stresses it (salient): its everyday words are no names. */
function decided(rule: ConceptRule, ex: RuleExample): boolean {
  const key = entityKey(ex.name);
  const e = extractEntities(ex.text, ex.title ?? 'Untitled').find(
    (x) => !x.weak && (x.key === key || x.surface === ex.name || x.aliases.includes(ex.name)),
  );
  return rule.decides === 'found' ? e !== undefined : e?.salient === true;
}

describe('concept rules: each holds on its examples', () => {
  it('has rules with examples on both sides and ids of their own', () => {
    expectRuleTable(CONCEPT_RULES);
  });

  for (const rule of CONCEPT_RULES) {
    // A rule that takes finds (or stresses) the name where it applies; one that drops does not.
    it.each(rule.match.map((ex) => [ex.name, ex] as const))(`${rule.id} (${rule.does}s) matches: %s`, (_n, ex) => {
      expect(decided(rule, ex)).toBe(rule.does === 'take');
    });
    it.each(rule.notMatch.map((ex) => [ex.name, ex] as const))(`${rule.id} does not match: %s`, (_n, ex) => {
      expect(decided(rule, ex)).toBe(rule.does !== 'take');
    });
  }
});
