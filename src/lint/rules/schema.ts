import { entryValidator } from '../../entry/validate.js';
import { exampleEntry, keyPlace, wikiFile } from '../entry-info.js';
import type { FindingDraft, LintRule } from '../types.js';

export const schema: LintRule = {
  id: 'schema',
  severity: 'error',
  fixable: 'structural',
  docs: "Entry frontmatter must be valid against `schemas/wiki-entry.schema.json` (the knowledge base's own copy when it has one) and readable YAML. Heal fills missing fields with their defaults when it can.",
  examples: {
    pass: { 'wiki/concepts/Alpha.md': exampleEntry({ title: 'Alpha' }, '# Alpha\n\nText.\n') },
    fail: {
      'wiki/concepts/Alpha.md': exampleEntry({ title: 'Alpha', version: 0 }, '# Alpha\n\nText.\n'),
      'wiki/concepts/Beta.md': '---\nid: concept/beta\nkind: concept\ntitle: [unclosed\n---\n\n# Beta\n',
    },
    expect: ['wiki/concepts/Alpha.md:10:1', 'wiki/concepts/Beta.md:1:1'],
  },
  check(input) {
    const validate = entryValidator(input.paths.root);
    const out: FindingDraft[] = [];
    for (const e of input.entries) {
      if (validate(e.fm)) continue;
      const seen = new Set<string>();
      for (const err of validate.errors ?? []) {
        const key =
          err.instancePath.split('/')[1] ?? (err.params as { missingProperty?: string }).missingProperty ?? '';
        const what = `${err.instancePath || '(frontmatter)'} ${err.message ?? 'is invalid'}`;
        if (seen.has(what) || err.keyword === 'if') continue;
        seen.add(what);
        out.push({
          file: wikiFile(e),
          place: key ? keyPlace(e, key) : { line: 1, column: 1 },
          reason: `Unexpected frontmatter: ${what}, expected it to match schemas/wiki-entry.schema.json`,
          note: 'fix the field, or run `kb lint --heal` to fill in defaults',
          data: { path: wikiFile(e), field: key },
        });
      }
    }
    for (const f of input.foreign) {
      if (!f.reason.startsWith('unreadable')) continue;
      out.push({
        file: `wiki/${f.path}`,
        place: { line: 1, column: 1 },
        reason: `Unexpected ${f.reason}, expected YAML frontmatter between \`---\` lines`,
        note: 'fix the YAML by hand',
        data: { path: `wiki/${f.path}`, unreadable: true },
      });
    }
    return out;
  },
};
