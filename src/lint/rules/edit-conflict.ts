import { bodyHash, parseEntryFile } from '../../entry/frontmatter.js';
import { exampleEntry, wikiFile } from '../entry-info.js';
import type { FindingDraft, LintRule } from '../types.js';

const EDITED = exampleEntry({ title: 'Alpha' }, '# Alpha\n\nMy own words about Alpha.\n', { edited: true });

/** An offer file as compile leaves it in `.kb/offers/`, for the rule's examples. */
function exampleOffer(entry: string, mine: string): string {
  const offer = {
    id: 'concept/alpha',
    path: 'concepts/Alpha.md',
    mineHash: bodyHash(parseEntryFile(mine).body),
    conflicts: 1,
    body: `${parseEntryFile(entry).body.replace('My own words', 'kb')}`,
  };
  return `${JSON.stringify(offer)}\n`;
}

export const editConflict: LintRule = {
  id: 'edit-conflict',
  severity: 'warning',
  fixable: 'structural',
  docs: "A person and kb changed the same lines of an entry: compile kept the person's text and did not bring kb's update in. Heal offers kb's side on a branch (the person's lines everywhere else), to merge or to leave.",
  examples: {
    pass: {
      'wiki/concepts/Alpha.md': EDITED,
      // Made against an earlier edit: the person changed the entry again since, so it offers nothing.
      '.kb/offers/alpha.json': exampleOffer(EDITED, exampleEntry({ title: 'Alpha' }, '# Alpha\n\nOlder words.\n')),
    },
    fail: {
      'wiki/concepts/Alpha.md': EDITED,
      '.kb/offers/alpha.json': exampleOffer(EDITED, EDITED),
    },
    expect: ['wiki/concepts/Alpha.md:1:1'],
  },
  check(input) {
    const out: FindingDraft[] = [];
    const byId = new Map(input.offers.map((o) => [o.id, o]));
    for (const e of input.entries) {
      const offer = byId.get(String(e.fm.id));
      if (!offer || offer.mineHash !== bodyHash(e.body)) continue;
      const places = `${offer.conflicts} place${offer.conflicts === 1 ? '' : 's'}`;
      out.push({
        file: wikiFile(e),
        place: { line: 1, column: 1 },
        reason: `Unexpected conflict between your edit and kb's update in ${places}, expected changes to different lines`,
        note: "`kb lint --heal` offers kb's side on a branch; your text stays on this one",
        data: { path: wikiFile(e), id: offer.id },
      });
    }
    return out;
  },
};
