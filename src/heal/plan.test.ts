import { describe, expect, it } from 'vitest';
import type { Finding } from '../lint/types.js';
import { branchName, planHeal, topicSlug } from './plan.js';

const f = (ruleId: string, file: string, data: Finding['data'] = {}): Finding => ({
  ruleId,
  file,
  reason: `Unexpected ${ruleId}, expected none`,
  source: 'kb',
  severity: 'warning',
  data,
});

describe('planHeal', () => {
  it('groups fixable findings by topic, structural first, and leaves the rest out', () => {
    const groups = planHeal([
      f('missing-citation', 'wiki/concepts/A.md'),
      f('broken-link', 'wiki/concepts/A.md'),
      f('missing-backlink', 'wiki/concepts/B.md'),
      f('uncompiled-source', 'raw/x.md', { rawPath: 'x.md' }),
      f('stale-entry', 'wiki/sources/Y.md', { rawPath: 'y.md', humanEdited: true }),
      f('schema', 'wiki/concepts/C.md'),
      f('orphan-entry', 'wiki/concepts/C.md'),
      f('human-edited', 'wiki/concepts/C.md'),
      f('contradiction', 'wiki/sources/S.md', {
        path: 'wiki/concepts/T.md',
        other: 'wiki/sources/S.md',
        subject: 'Eiffel Tower',
      }),
      f('duplicate-entry', 'wiki/concepts/Vector databases.md', {
        path: 'wiki/concepts/Vector Database.md',
        other: 'wiki/concepts/Vector databases.md',
      }),
    ]);
    expect(groups.map((g) => g.topic)).toEqual([
      'frontmatter',
      'links',
      'sources',
      'citations',
      'contradiction-eiffel-tower',
      'duplicate-vector-databases',
      'update-y',
    ]);
    expect(groups.find((g) => g.topic === 'links')?.title).toBe('fix 1 broken link, regenerate 1 backlink list');
    const sources = groups.find((g) => g.topic === 'sources')!;
    expect(sources.findings.map((x) => x.ruleId)).toEqual(['uncompiled-source']);
    expect(groups.find((g) => g.topic === 'update-y')?.kind).toBe('content');
    expect(groups.find((g) => g.topic.startsWith('contradiction'))?.kind).toBe('content');
  });

  it('gives the same findings the same fingerprint', () => {
    const a = planHeal([f('broken-link', 'wiki/a.md'), f('missing-backlink', 'wiki/b.md')]);
    const b = planHeal([f('missing-backlink', 'wiki/b.md'), f('broken-link', 'wiki/a.md')]);
    const c = planHeal([f('broken-link', 'wiki/a.md')]);
    expect(a[0]!.fingerprint).toBe(b[0]!.fingerprint);
    expect(a[0]!.fingerprint).not.toBe(c[0]!.fingerprint);
  });
});

describe('branch names', () => {
  const day = new Date(2026, 11, 2);
  it('is heal/<topic>-<YYYYMMDD>, then -2, -3', () => {
    expect(branchName('links', day, () => false)).toBe('heal/links-20261202');
    const taken = new Set(['heal/links-20261202', 'heal/links-20261202-2']);
    expect(branchName('links', day, (n) => taken.has(n))).toBe('heal/links-20261202-3');
  });
  it('makes topics safe for git, in any script', () => {
    expect(topicSlug('Café Society')).toBe('cafe-society');
    expect(topicSlug('向量数据库')).toMatch(/^[0-9a-f]{8}$/);
    expect(topicSlug('a/b..c~d^e:f')).toBe('a-b-c-d-e-f');
  });
});
