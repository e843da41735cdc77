import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkWikiLink from 'remark-wiki-link';
import type { Root } from 'mdast';
import { exampleEntry, filePoint, ownBody, resolver, wikiFile } from '../entry-info.js';
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
    const out: FindingDraft[] = [];
    for (const e of input.entries) {
      if (e.fm.kind !== 'concept') continue;
      const tree = parser.parse(ownBody(e.body)) as Root as unknown as Node;
      const top = tree.children ?? [];
      // The paragraph right after the H1 is the summary.
      const firstPara = top.findIndex((n) => n.type === 'paragraph');
      const summaryIdx =
        firstPara >= 0 && top.slice(0, firstPara).every((n) => n.type === 'heading' && n.depth === 1) ? firstPara : -1;
      const visit = (n: Node, isSummary: boolean) => {
        if (n.type === 'paragraph' && !isSummary) {
          const text = plain(n);
          if (Array.from(text.trim()).length < MIN_CHARS) return;
          if (cites(n, (t) => r.entry(t)?.fm.kind === 'source')) return;
          const p = n.position?.start ?? { line: 1, column: 1 };
          out.push({
            file: wikiFile(e),
            place: filePoint(e, p.line, p.column),
            reason: 'Unexpected paragraph without a citation, expected a [[link]] to the source it comes from',
            note: 'add the source link, or run `kb lint --heal` to have citations added on a branch',
            data: { path: wikiFile(e), line: p.line },
          });
          return;
        }
        for (const c of n.children ?? []) visit(c, false);
      };
      for (const [i, n] of top.entries()) visit(n, i === summaryIdx);
    }
    return out;
  },
};

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
