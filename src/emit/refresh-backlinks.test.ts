import { describe, expect, it } from 'vitest';
import type { EntryFrontmatter, EntryId } from '../types.js';
import type { LoadedEntry } from '../entry/wiki.js';
import type { LinkContext } from './link-table.js';
import { refreshBacklinks } from './refresh-backlinks.js';
import type { Final, Finals, NamePlan } from './types.js';

function final(id: string, links: string[], old?: { backlinks: string[] }): Final {
  const kind = id.startsWith('concept/') ? 'concept' : 'source';
  const path = `${kind}s/${id.slice(kind.length + 1)}.md`;
  const fm = { id, kind, title: id, backlinks: old?.backlinks ?? [] } as unknown as EntryFrontmatter;
  const loaded = old && ({ path, fm: { ...fm }, body: 'Its text.\n', humanEdited: false, text: '' } as LoadedEntry);
  return {
    id: id as EntryId,
    kind,
    title: id,
    path,
    fm,
    body: 'Its text.\n',
    links: new Set(links),
    humanEdited: false,
    rendered: !old,
    old: loaded,
  };
}

describe('refreshBacklinks', () => {
  it('marks a kept page for writing when only its frontmatter list changes (no Backlinks section in the body)', () => {
    const kept = final('concept/github', [], { backlinks: ['source/git'] });
    const finals: Finals = new Map([
      ['source/git', final('source/git', ['concept/github'], { backlinks: [] })],
      ['source/currying', final('source/currying', ['concept/github'])],
      ['concept/github', kept],
    ]);
    refreshBacklinks({ sources: [], concepts: [] }, finals, {} as NamePlan, {} as LinkContext, { section: false });
    expect(kept.fm.backlinks).toEqual(['source/currying', 'source/git']);
    expect(kept.body).toBe('Its text.\n');
    expect(kept.touched).toBe(true);
    // A page whose list is as it was is not written again.
    expect(finals.get('source/git')!.touched).toBeUndefined();
  });

  it('lists two entries of one title by id, whatever order this run met them in', () => {
    const lists = [false, true].map((reversed) => {
      const twins = [final('source/git-分支', ['concept/branch']), final('source/git-分支-2', ['concept/branch'])];
      for (const t of twins) t.title = 'Git 分支';
      const kept = final('concept/branch', [], { backlinks: [] });
      const finals: Finals = new Map([...(reversed ? [...twins].reverse() : twins), kept].map((f) => [f.id, f]));
      refreshBacklinks({ sources: [], concepts: [] }, finals, {} as NamePlan, {} as LinkContext, { section: false });
      return kept.fm.backlinks;
    });
    expect(lists[0]).toEqual(['source/git-分支', 'source/git-分支-2']);
    expect(lists[1]).toEqual(lists[0]);
  });
});
