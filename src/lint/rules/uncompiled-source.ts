import { exampleEntry } from '../entry-info.js';
import type { FindingDraft, LintRule } from '../types.js';

export const uncompiledSource: LintRule = {
  id: 'uncompiled-source',
  severity: 'warning',
  fixable: 'structural',
  docs: "Every file in `raw/` should have a source entry (its path in some entry's `source_ref`), unless ingest skipped it (empty, binary…). Heal compiles it.",
  examples: {
    pass: {
      'raw/a.md': '# A\n\nText.\n',
      'wiki/sources/A.md': exampleEntry({ title: 'A', kind: 'source', source_ref: ['raw/a.md'] }, '# A\n\nText.\n'),
    },
    fail: {
      'raw/a.md': '# A\n\nText.\n',
      'raw/b.md': '# B\n\nMore.\n',
      'wiki/sources/A.md': exampleEntry({ title: 'A', kind: 'source', source_ref: ['raw/a.md'] }, '# A\n\nText.\n'),
    },
    expect: ['raw/b.md'],
  },
  check(input) {
    const refs = new Set<string>();
    // Only a source entry compiles a raw file: a concept citing it does not.
    for (const e of input.entries) {
      if (e.fm.kind !== 'source') continue;
      for (const r of Array.isArray(e.fm.source_ref) ? e.fm.source_ref : [])
        refs.add(
          String(r)
            .replace(/^raw\//, '')
            .replace(/#[^/]*$/, ''),
        );
    }
    const out: FindingDraft[] = [];
    for (const r of input.raw) {
      if (refs.has(r.path) || input.skippedRaw.has(r.path)) continue;
      if (input.emptiedRaw?.has(r.path)) {
        out.push({
          file: `raw/${r.path}`,
          reason:
            'Unexpected raw file recorded as empty although it has text, expected a source entry compiled from it',
          note: 'run `kb compile` to compile it (it checks files recorded as empty again)',
          data: { rawPath: r.path },
        });
        continue;
      }
      out.push({
        file: `raw/${r.path}`,
        reason: 'Unexpected raw file with no entry, expected a source entry compiled from it',
        note: 'run `kb compile` to add it',
        data: { rawPath: r.path },
      });
    }
    return out;
  },
};
