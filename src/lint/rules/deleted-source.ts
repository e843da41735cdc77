import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { exampleEntry, valuePlace, wikiFile } from '../entry-info.js';
import { sourceRefs } from '../../entry/wiki.js';
import type { FindingDraft, LintRule } from '../types.js';

export const deletedSource: LintRule = {
  id: 'deleted-source',
  severity: 'warning',
  fixable: 'structural',
  docs: 'Every path in `source_ref` must still exist in `raw/`. A source entry whose raw file is gone should be removed (heal removes it and unlinks links to it); other entries drop the reference.',
  examples: {
    pass: {
      'raw/a.md': '# A\n',
      'wiki/sources/A.md': exampleEntry({ title: 'A', kind: 'source', source_ref: ['raw/a.md'] }, '# A\n\nText.\n'),
    },
    fail: {
      'wiki/sources/A.md': exampleEntry({ title: 'A', kind: 'source', source_ref: ['raw/a.md'] }, '# A\n\nText.\n'),
    },
    expect: ['wiki/sources/A.md:8:5'],
  },
  check(input) {
    const present = new Set(input.raw.map((r) => r.path));
    const out: FindingDraft[] = [];
    for (const e of input.entries) {
      const refs = sourceRefs(e);
      const gone = refs.filter((r) => {
        const p = r.replace(/^raw\//, '');
        // A post of a multi-post file is `raw/file#anchor`: the file is what must exist.
        const file = p.replace(/#[^/]*$/, '');
        return (
          !present.has(p) &&
          !present.has(file) &&
          !existsSync(join(input.paths.raw, p)) &&
          !existsSync(join(input.paths.raw, file))
        );
      });
      if (!gone.length) continue;
      const all = gone.length === refs.length && e.fm.kind === 'source';
      for (const g of gone) {
        out.push({
          file: wikiFile(e),
          place: valuePlace(e, 'source_ref', g),
          reason: all
            ? `Unexpected entry for \`${g}\`, which is gone, expected the entry removed`
            : `Unexpected reference to \`${g}\`, which is gone, expected only existing raw files in source_ref`,
          note: all
            ? e.humanEdited
              ? 'restore the file, or delete the entry: a person edited it, so compile keeps it (`kb lint --heal` removes it on a branch)'
              : 'restore the file, or run `kb compile` / `kb lint --heal` to remove the entry'
            : 'run `kb lint --heal` to drop the reference',
          data: { path: wikiFile(e), rawPath: g.replace(/^raw\//, ''), removeEntry: all },
        });
      }
    }
    return out;
  },
};
