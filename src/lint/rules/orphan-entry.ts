import type { EntryId } from '../../types.js';
import { exampleEntry, linkGraph, wikiFile } from '../entry-info.js';
import type { FindingDraft, LintRule } from '../types.js';
import { fileBaseName } from '../../entry/names.js';

export const orphanEntry: LintRule = {
  id: 'orphan-entry',
  severity: 'info',
  fixable: false,
  docs:
    'An entry no other entry links to can only be found through the index or search. Link it from a related entry (the backlinks section does not count). ' +
    'An answer filed by `kb ask --save` is reached from the entries it cites (it is in their backlinks), so it is an orphan only when it links to no entry.',
  examples: {
    pass: {
      'wiki/concepts/Alpha.md': exampleEntry(
        { title: 'Alpha', backlinks: ['concept/beta', 'answer/what-is-alpha'] },
        '# Alpha\n\nSee [[Beta]].\n\n<!-- kb:backlinks -->\n## Backlinks\n\n- [[Beta]]\n- [[What is Alpha|What is Alpha?]]\n<!-- /kb:backlinks -->\n',
      ),
      'wiki/concepts/Beta.md': exampleEntry({ title: 'Beta' }, '# Beta\n\nBack to [[Alpha]].\n'),
      'wiki/answers/What is Alpha.md': exampleEntry(
        { title: 'What is Alpha?', kind: 'answer', id: 'answer/what-is-alpha' as EntryId },
        '# What is Alpha?\n\n## Sources\n\n- [[Alpha]]\n',
      ),
    },
    fail: {
      'wiki/concepts/Alpha.md': exampleEntry({ title: 'Alpha' }, '# Alpha\n\nSee [[Beta]].\n'),
      'wiki/concepts/Beta.md': exampleEntry({ title: 'Beta' }, '# Beta\n\nNothing here.\n'),
      'wiki/answers/Lonely.md': exampleEntry(
        { title: 'Lonely', kind: 'answer' },
        '# Lonely\n\nA note that links to nothing.\n',
      ),
    },
    expect: ['wiki/answers/Lonely.md:1:1', 'wiki/concepts/Alpha.md:1:1'],
  },
  check(input) {
    const g = linkGraph(input);
    const out: FindingDraft[] = [];
    if (input.entries.length < 2) return out;
    for (const e of input.entries) {
      if ((g.in.get(e.fm.id)?.size ?? 0) > 0) continue;
      // An answer hangs off the entries it cites: nothing links to it by design, it links to them.
      if (e.fm.kind === 'answer' && (g.out.get(e.fm.id)?.size ?? 0) > 0) continue;
      out.push({
        file: wikiFile(e),
        place: { line: 1, column: 1 },
        reason: 'Unexpected entry that no other entry links to, expected at least one link to it',
        note: `link [[${fileBaseName(e.path)}]] from a related entry`,
        data: { path: wikiFile(e) },
      });
    }
    return out;
  },
};
