import { describe, expect, it } from 'vitest';
import type { EntryId } from '../../types.js';
import { countTokens } from '../../text/tokens.js';
import type { Catalog } from '../types.js';
import { catalogParts } from './prompts.js';

/** Twenty sources and twenty concepts in a ring: source i is of concepts i and i+1; concept i has sources i-1 and i. */
function ring(n = 20): Catalog {
  const entries: Catalog['entries'] = [];
  for (let i = 0; i < n; i++) {
    entries.push({
      id: `source/s${i}` as EntryId,
      title: `Source ${String(i).padStart(2, '0')}`,
      aliases: [],
      kind: 'source',
      summary: `What source ${i} says about its two concepts, in one sentence of a dozen words or so.`,
      refs: [`s${i}.md`],
    });
    entries.push({
      id: `concept/c${i}` as EntryId,
      title: `Concept ${String(i).padStart(2, '0')}`,
      aliases: [`C${i}`],
      kind: 'concept',
      summary: '',
      refs: [`s${(i + n - 1) % n}.md`, `s${i}.md`],
    });
  }
  // One concept most sources give: the most linked entry.
  entries.push({
    id: 'concept/hub' as EntryId,
    title: 'Zeta hub',
    aliases: [],
    kind: 'concept',
    summary: '',
    refs: entries.filter((e) => e.kind === 'source').map((e) => e.refs![0]!),
  });
  return { entries };
}

describe('catalogParts', () => {
  it('sends a catalog that fits whole, in the shared part, and nothing per call', () => {
    const c = ring();
    const whole = catalogParts(c, 100_000, ['s3.md']);
    expect(whole.related).toBe('');
    expect(whole.shared).not.toMatch(/not shown/);
    expect(whole.shared.match(/<entry /g)).toHaveLength(41);
    expect(catalogParts(c, 100_000, ['s9.md']).shared).toBe(whole.shared);
  });

  it('splits a catalog that does not fit: the most linked entries shared, the call’s own after them', () => {
    const c = ring();
    const cap = 1000;
    const a = catalogParts(c, cap, ['s15.md']);
    const b = catalogParts(c, cap, ['s2.md', 's3.md']);
    // The same shared part for every call, with the most linked entry in it.
    expect(b.shared).toBe(a.shared);
    expect(a.shared).toMatch(/not shown/);
    expect(a.shared).toContain('title="Zeta hub"');
    // Within the budget together.
    expect(countTokens(a.shared) + countTokens(a.related)).toBeLessThanOrEqual(cap);
    const listed = (p: { shared: string; related: string }) => p.shared + p.related;
    // A source call: its own entry and concepts, then the other sources of those concepts.
    for (const t of ['Source 15', 'Concept 15', 'Concept 16', 'Source 14', 'Source 16'])
      expect(listed(a)).toContain(`title="${t}"`);
    // A concept call (its sources s2, s3): its sources, and the concepts sharing them.
    for (const t of ['Source 02', 'Source 03', 'Concept 02', 'Concept 04']) expect(listed(b)).toContain(`title="${t}"`);
    // Nothing is listed twice.
    expect(a.related).toMatch(/^<catalog related="this request">/);
    for (const line of a.related.split('\n').filter((l) => l.startsWith('<entry')))
      expect(a.shared).not.toContain(line);
  });
});
