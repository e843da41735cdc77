import { exampleEntry, wikiFile } from '../entry-info.js';
import type { FindingDraft, LintRule } from '../types.js';

export const humanEdited: LintRule = {
  id: 'human-edited',
  severity: 'info',
  fixable: false,
  docs: 'The body no longer matches the `content_hash` kb recorded: a person edited it. Nothing is wrong; kb never overwrites it on the checked-out branch.',
  examples: {
    pass: { 'wiki/concepts/Alpha.md': exampleEntry({ title: 'Alpha' }, '# Alpha\n\nText.\n') },
    fail: {
      'wiki/concepts/Alpha.md': exampleEntry({ title: 'Alpha' }, '# Alpha\n\nMy own words.\n', { edited: true }),
    },
    expect: ['wiki/concepts/Alpha.md:1:1'],
  },
  check(input) {
    const out: FindingDraft[] = [];
    for (const e of input.entries) {
      if (!e.humanEdited) continue;
      out.push({
        file: wikiFile(e),
        place: { line: 1, column: 1 },
        reason: 'Unexpected edit by a person since kb wrote this entry, expected the text kb wrote',
        note: 'kb keeps your edit; compile will not overwrite it',
        data: { path: wikiFile(e) },
      });
    }
    return out;
  },
};
