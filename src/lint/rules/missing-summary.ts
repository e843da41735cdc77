import { exampleEntry, keyPlace, wikiFile } from '../entry-info.js';
import type { FindingDraft, LintRule } from '../types.js';

export const missingSummary: LintRule = {
  id: 'missing-summary',
  severity: 'warning',
  fixable: 'structural',
  docs: 'Every entry needs a one-paragraph `summary` (the index, search and `kb ask` read it): not empty and not just the title. Heal takes the first sentences of the body.',
  examples: {
    pass: {
      'wiki/concepts/Alpha.md': exampleEntry(
        { title: 'Alpha', summary: 'Alpha is the first letter.' },
        '# Alpha\n\nAlpha is the first letter.\n',
      ),
    },
    fail: {
      'wiki/concepts/Alpha.md': exampleEntry(
        { title: 'Alpha', summary: 'Alpha' },
        '# Alpha\n\nAlpha is the first letter.\n',
      ),
    },
    expect: ['wiki/concepts/Alpha.md:6:1'],
  },
  check(input) {
    const out: FindingDraft[] = [];
    for (const e of input.entries) {
      const s = typeof e.fm.summary === 'string' ? e.fm.summary.trim() : '';
      const title = String(e.fm.title ?? '')
        .trim()
        .toLowerCase();
      if (s && s.toLowerCase() !== title) continue;
      out.push({
        file: wikiFile(e),
        place: keyPlace(e, 'summary'),
        reason: s
          ? 'Unexpected summary that only repeats the title, expected a sentence or paragraph'
          : 'Unexpected empty summary, expected a sentence or paragraph',
        note: 'write a summary, or run `kb lint --heal` to take it from the body',
        data: { path: wikiFile(e) },
      });
    }
    return out;
  },
};
