import { exampleEntry, filePoint, resolver, wikiFile } from '../entry-info.js';
import { extractWikiLinks } from '../../parse/links.js';
import { findSection } from '../../entry/markers.js';
import { fileBaseName } from '../../entry/names.js';
import type { FindingDraft, LintRule } from '../types.js';

export const brokenLink: LintRule = {
  id: 'broken-link',
  severity: 'error',
  fixable: 'structural',
  docs: 'A `[[link]]` must name a file in the vault (by file name or path, case-insensitively, as Obsidian resolves it). Heal points a broken link at the entry whose title or alias it names, or turns it into plain text.',
  examples: {
    pass: {
      'wiki/concepts/Alpha.md': exampleEntry(
        { title: 'Alpha' },
        '# Alpha\n\nSee [[Beta]] and [[concepts/Beta|the other one]].\n',
      ),
      'wiki/concepts/Beta.md': exampleEntry({ title: 'Beta' }, '# Beta\n\nBeta text.\n'),
    },
    fail: {
      'wiki/concepts/Alpha.md': exampleEntry({ title: 'Alpha' }, '# Alpha\n\nSee [[Gamma]].\n'),
    },
    expect: ['wiki/concepts/Alpha.md:17:5'],
  },
  check(input) {
    const r = resolver(input);
    const out: FindingDraft[] = [];
    for (const e of input.entries) {
      // The scan cache knows the link targets of an unchanged file: a body whose links all resolve is not parsed.
      if (e.links?.every((t) => !t || r.exists(t))) continue;
      const sections = markedLines(e.body);
      for (const l of extractWikiLinks(e.body)) {
        if (!l.target) continue;
        if (r.exists(l.target)) continue;
        const hit = r.named(l.target);
        const named = hit && fileBaseName(hit.path);
        // Say who fixes it: kb's own sections are regenerated; a person's text is theirs to edit.
        const note = sections.has(l.line)
          ? 'kb regenerates this section: run `kb lint --heal`'
          : e.humanEdited
            ? `a person edited this entry, so compile leaves its text alone: ${named ? `point it at [[${named}]]` : 'edit the link'} yourself, or run \`kb lint --heal\` to fix it on a branch`
            : named
              ? `point it at [[${named}]]`
              : 'link an existing entry or make it plain text';
        out.push({
          file: wikiFile(e),
          place: filePoint(e, l.line, l.column),
          reason: `Unexpected link to \`${l.target}\` that names no file, expected a link to an entry in the wiki`,
          note,
          data: { path: wikiFile(e), target: l.target },
        });
      }
    }
    return out;
  },
};

/** Body line numbers (1-based) inside kb's marked sections (backlinks, a source's concepts). */
function markedLines(body: string): Set<number> {
  const out = new Set<number>();
  for (const name of ['backlinks', 'concepts']) {
    const span = findSection(body, name);
    if (!span) continue;
    const first = body.slice(0, span.start).split('\n').length;
    const last = first + body.slice(span.start, span.end).split('\n').length - 1;
    for (let l = first; l <= last; l++) out.add(l);
  }
  return out;
}
