import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkWikiLink from 'remark-wiki-link';
import type { Root } from 'mdast';
import { exampleEntry, filePoint, ownBody, ownLinks, resolver, wikiFile } from '../entry-info.js';
import { surelyCited } from './surely-cited.js';
import type { FindingDraft, LintRule } from '../types.js';

const parser = unified().use(remarkParse).use(remarkWikiLink, { aliasDivider: '|' });
const MIN_CHARS = 40;

interface Node {
  type: string;
  value?: string;
  url?: string;
  depth?: number;
  children?: Node[];
  position?: { start: { line: number; column: number } };
}

export const missingCitation: LintRule = {
  id: 'missing-citation',
  severity: 'warning',
  fixable: 'content',
  docs: 'Every paragraph of a concept entry (after the summary under the title) should cite where it comes from: a `[[link]]` to a source entry, or a web URL. Heal asks the model to add the citations from the sources; a judging call checks them.',
  examples: {
    pass: {
      'wiki/sources/Notes.md': exampleEntry(
        { title: 'Notes', kind: 'source', source_ref: ['raw/notes.md'] },
        '# Notes\n\nText.\n',
      ),
      'wiki/concepts/Alpha.md': exampleEntry(
        { title: 'Alpha' },
        '# Alpha\n\nAlpha in short.\n\nAlpha was first described in the notes of last year, as [[Notes]] tells.\n',
      ),
    },
    fail: {
      'wiki/sources/Notes.md': exampleEntry(
        { title: 'Notes', kind: 'source', source_ref: ['raw/notes.md'] },
        '# Notes\n\nText.\n',
      ),
      'wiki/concepts/Alpha.md': exampleEntry(
        { title: 'Alpha' },
        '# Alpha\n\nAlpha in short.\n\nAlpha was first described in the notes of last year, says nobody.\n',
      ),
    },
    expect: ['wiki/concepts/Alpha.md:19:1'],
  },
  check(input) {
    const r = resolver(input);
    const isSource = (t: string) => r.entry(t)?.fm.kind === 'source';
    const out: FindingDraft[] = [];
    for (const e of input.entries) {
      if (e.fm.kind !== 'concept') continue;
      const body = ownBody(e.body);
      // Parsing every concept with remark took most of `kb lint`: skip it where a line scan proves it clean.
      if (surelyCited(body, ownLinks(e), isSource, MIN_CHARS)) continue;
      for (const p of uncitedParagraphs(body, isSource, MIN_CHARS)) {
        out.push({
          file: wikiFile(e),
          place: filePoint(e, p.line, p.column),
          reason: 'Unexpected paragraph without a citation, expected a [[link]] to the source it comes from',
          note: 'add the source link, or run `kb lint --heal` to have citations added on a branch',
          data: { path: wikiFile(e), line: p.line },
        });
      }
    }
    return out;
  },
};

/** Where each paragraph after the summary of at least `minChars` characters cites nothing (by remark). */
export function uncitedParagraphs(
  body: string,
  isSource: (target: string) => boolean,
  minChars: number,
): { line: number; column: number }[] {
  const tree = parser.parse(body) as Root as unknown as Node;
  const top = tree.children ?? [];
  // The paragraph right after the H1 is the summary.
  const firstPara = top.findIndex((n) => n.type === 'paragraph');
  const summaryIdx =
    firstPara >= 0 && top.slice(0, firstPara).every((n) => n.type === 'heading' && n.depth === 1) ? firstPara : -1;
  const out: { line: number; column: number }[] = [];
  const visit = (n: Node, isSummary: boolean) => {
    if (n.type === 'paragraph' && !isSummary) {
      if (Array.from(plain(n).trim()).length < minChars || cites(n, isSource)) return;
      out.push(n.position?.start ?? { line: 1, column: 1 });
      return;
    }
    for (const c of n.children ?? []) visit(c, false);
  };
  for (const [i, n] of top.entries()) visit(n, i === summaryIdx);
  return out;
}

function plain(n: Node): string {
  if (n.type === 'text' || n.type === 'inlineCode') return n.value ?? '';
  if (n.type === 'wikiLink') return n.value ?? '';
  return (n.children ?? []).map(plain).join('');
}

function cites(n: Node, isSource: (target: string) => boolean): boolean {
  if (n.type === 'wikiLink') return isSource(String(n.value ?? '').split('#')[0] ?? '');
  if (n.type === 'link' && /^https?:\/\//.test(n.url ?? '')) return true;
  if (n.type === 'text' && /https?:\/\/\S+/.test(n.value ?? '')) return true;
  return (n.children ?? []).some((c) => cites(c, isSource));
}
