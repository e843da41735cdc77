import { exampleEntry, keyPlace, wikiFile } from '../entry-info.js';
import { sha256 } from '../../util/hash.js';
import type { FindingDraft, LintRule } from '../types.js';

export const staleEntry: LintRule = {
  id: 'stale-entry',
  severity: 'warning',
  fixable: 'structural',
  docs: 'An entry records the sha256 of each raw file it was compiled from (`source_hashes`). When the file changed since, the entry is stale. Heal recompiles it (an entry a person edited is only rewritten on the heal branch).',
  examples: {
    pass: {
      'raw/a.md': '# A\n',
      'wiki/sources/A.md': exampleEntry(
        { title: 'A', kind: 'source', source_ref: ['raw/a.md'], source_hashes: { 'raw/a.md': sha256('# A\n') } },
        '# A\n\nText.\n',
      ),
    },
    fail: {
      'raw/a.md': '# A changed\n',
      'wiki/sources/A.md': exampleEntry(
        { title: 'A', kind: 'source', source_ref: ['raw/a.md'], source_hashes: { 'raw/a.md': sha256('# A\n') } },
        '# A\n\nText.\n',
      ),
    },
    expect: ['wiki/sources/A.md:14:1'],
  },
  check(input) {
    const now = new Map(input.raw.map((r) => [r.path, r.hash]));
    const out: FindingDraft[] = [];
    for (const e of input.entries) {
      const hashes = e.fm.source_hashes;
      if (!hashes || typeof hashes !== 'object') continue;
      for (const [ref, was] of Object.entries(hashes)) {
        const p = ref.replace(/^raw\//, '');
        const cur = now.get(p);
        if (!cur || cur === was) continue;
        out.push({
          file: wikiFile(e),
          place: keyPlace(e, 'source_hashes'),
          reason: `Unexpected change in \`${ref}\` since this entry was compiled, expected the entry to match its source`,
          note: e.humanEdited
            ? 'a person edited this entry: update it by hand, or let `kb lint --heal` propose it on a branch'
            : 'run `kb compile` to update it',
          data: { path: wikiFile(e), rawPath: p, humanEdited: e.humanEdited },
        });
      }
    }
    return out;
  },
};
