import { describe, expect, it } from 'vitest';
import { entityKey } from '../entry/names.js';
import type { EntityRow } from '../store/store.js';
import { groupConcepts } from './concepts.js';
import { GROUPING_RULES, type GroupingExample, type GroupingRule } from './grouping-rules.js';
import { extractEntities } from './offline/entities.js';
import { documentRow } from '../../test/document-row.js';
import { expectRuleTable } from '../../test/rule-table.js';

/** The pages an example's documents give, each as the keys of its title and aliases. */
function pages(ex: GroupingExample): Set<string>[] {
  const entities: EntityRow[] = [];
  const paths = new Set<string>();
  for (const [path, md] of Object.entries(ex.docs ?? {})) {
    paths.add(path);
    for (const e of extractEntities(md, path))
      entities.push({
        raw_path: path,
        key: e.key,
        surface: e.surface,
        aliases: e.aliases,
        count: e.count,
        snippets: e.snippets,
        salient: e.salient,
        ...(e.weak ? { weak: true } : {}),
      });
  }
  for (const [path, name, passing] of ex.rows ?? []) {
    paths.add(path);
    entities.push({
      raw_path: path,
      key: entityKey(name),
      surface: name,
      aliases: [],
      count: 3,
      snippets: [],
      salient: !passing,
    });
  }
  const docs = [...paths, ...Array.from({ length: ex.more ?? 0 }, (_, i) => `more-${i}.md`)].map((p) => documentRow(p));
  return groupConcepts(entities, docs, 2, 100, []).map(
    (c) => new Set([c.title, ...c.aliases, ...c.keys].map(entityKey)),
  );
}

/** How the example's names stand: on one page, each on a page of its own, or not all on a page. */
function outcome(ex: GroupingExample): 'one' | 'apart' | 'missing' {
  const all = pages(ex);
  const keys = ex.names.map(entityKey);
  if (all.some((p) => keys.every((k) => p.has(k)))) return 'one';
  return keys.every((k) => all.some((p) => p.has(k))) ? 'apart' : 'missing';
}

/** What a rule's examples must give: where it applies, and in the examples alike where it must not. */
const EXPECTED: Record<GroupingRule['does'], { match: string[]; notMatch: string[] }> = {
  // Joined where it applies; two pages where it does not (never a page missing: that proves nothing).
  join: { match: ['one'], notMatch: ['apart'] },
  part: { match: ['apart'], notMatch: ['one'] },
  page: { match: ['one', 'apart'], notMatch: ['missing'] },
  'no-page': { match: ['missing'], notMatch: ['one', 'apart'] },
};

describe('grouping rules: each holds on its examples', () => {
  it('has rules with examples on both sides and ids of their own', () => {
    expectRuleTable(GROUPING_RULES);
  });

  for (const rule of GROUPING_RULES) {
    it.each(rule.match.map((ex) => [ex.names.join(' / '), ex] as const))(
      `${rule.id} (${rule.does}) matches: %s`,
      (_n, ex) => {
        expect(EXPECTED[rule.does].match).toContain(outcome(ex));
      },
    );
    it.each(rule.notMatch.map((ex) => [ex.names.join(' / '), ex] as const))(
      `${rule.id} does not match: %s`,
      (_n, ex) => {
        expect(EXPECTED[rule.does].notMatch).toContain(outcome(ex));
      },
    );
  }
});
