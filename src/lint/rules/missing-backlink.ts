import { entryBacklinkTargets, exampleEntry, keyPlace, linkGraph, resolver, wikiFile } from '../entry-info.js';
import type { FindingDraft, LintRule } from '../types.js';

export const missingBacklink: LintRule = {
  id: 'missing-backlink',
  severity: 'warning',
  fixable: 'structural',
  docs: 'The `backlinks` frontmatter field and the `## Backlinks` section (between `<!-- kb:backlinks -->` markers) must list exactly the entries that link here. Heal regenerates both from the links.',
  examples: {
    pass: {
      'wiki/concepts/Alpha.md': exampleEntry({ title: 'Alpha' }, '# Alpha\n\nSee [[Beta]].\n'),
      'wiki/concepts/Beta.md': exampleEntry(
        { title: 'Beta', backlinks: ['concept/alpha'] },
        '# Beta\n\nText.\n\n<!-- kb:backlinks -->\n## Backlinks\n\n- [[Alpha]]\n<!-- /kb:backlinks -->\n',
      ),
    },
    fail: {
      'wiki/concepts/Alpha.md': exampleEntry({ title: 'Alpha' }, '# Alpha\n\nSee [[Beta]].\n'),
      'wiki/concepts/Beta.md': exampleEntry({ title: 'Beta' }, '# Beta\n\nText.\n'),
    },
    expect: ['wiki/concepts/Beta.md:9:1'],
  },
  check(input) {
    const g = linkGraph(input);
    const r = resolver(input);
    const out: FindingDraft[] = [];
    for (const e of input.entries) {
      const expected = [...(g.in.get(e.fm.id) ?? [])].sort();
      const have = Array.isArray(e.fm.backlinks) ? [...e.fm.backlinks].map(String).sort() : [];
      const section = entryBacklinkTargets(e);
      const sectionIds = (section ?? []).map((k) => r.entry(k)?.fm.id ?? `?${k}`).sort();
      const fmOk = JSON.stringify(have) === JSON.stringify(expected);
      const listed = JSON.stringify([...new Set(sectionIds)]) === JSON.stringify(expected);
      // Without the section (the default), an old one left in an entry must still be true.
      const sectionOk = input.config.wiki.backlinksSection
        ? listed && (section !== null || expected.length === 0)
        : section === null || listed;
      if (fmOk && sectionOk) continue;
      const missing = expected.filter((x) => !have.includes(x));
      const extra = have.filter((x) => !expected.includes(x));
      const list = (xs: string[]) =>
        xs.length > 5 ? `${xs.slice(0, 5).join(', ')} and ${xs.length - 5} more` : xs.join(', ');
      const what = !fmOk
        ? [
            missing.length ? `missing ${list(missing)}` : '',
            extra.length ? `listing ${list(extra)} that do not link here` : '',
          ]
            .filter(Boolean)
            .join('; ')
        : 'a backlinks section out of step with the frontmatter';
      out.push({
        file: wikiFile(e),
        place: keyPlace(e, 'backlinks'),
        reason: `Unexpected backlinks (${what}), expected ${expected.length ? `the ${expected.length} entr${expected.length === 1 ? 'y' : 'ies'} that link here` : 'none'}`,
        expected: expected.join(', '),
        note: 'run `kb lint --heal` to regenerate backlinks',
        data: { path: wikiFile(e), expected },
      });
    }
    return out;
  },
};
