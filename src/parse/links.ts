import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkWikiLink from 'remark-wiki-link';
import type { Root } from 'mdast';
import { plainWikiLinks } from './plain-links.js';
import { splitTarget, type WikiLinkRef } from './link-ref.js';

export { splitTarget, type WikiLinkRef } from './link-ref.js';

const processor = unified().use(remarkParse).use(remarkWikiLink, { aliasDivider: '|' });

interface WikiNode {
  type: 'wikiLink';
  value: string;
  data: { alias: string | null };
  position?: { start: { line: number; column: number } };
}

function walk(node: unknown, visit: (n: WikiNode) => void): void {
  const n = node as { type?: string; children?: unknown[] };
  if (n.type === 'wikiLink') visit(node as WikiNode);
  if (Array.isArray(n.children)) for (const c of n.children) walk(c, visit);
}

/** Every wikilink in a Markdown document (code blocks and inline code excluded). */
export function extractWikiLinks(markdown: string): WikiLinkRef[] {
  return plainWikiLinks(markdown) ?? parsedWikiLinks(markdown);
}

/** The same, always by parsing the document with remark (the reference for `plainWikiLinks`). */
export function parsedWikiLinks(markdown: string): WikiLinkRef[] {
  const tree = processor.parse(markdown) as Root;
  const out: WikiLinkRef[] = [];
  walk(tree, (n) => {
    const { target, heading } = splitTarget(n.value);
    const ref: WikiLinkRef = {
      target,
      line: n.position?.start.line ?? 1,
      column: n.position?.start.column ?? 1,
      embed: false,
    };
    if (heading) ref.heading = heading;
    if (n.data.alias && n.data.alias !== n.value) ref.alias = n.data.alias;
    out.push(ref);
  });
  // remark-wiki-link leaves `![[embed]]` as a `!` followed by a parsed link: mark those.
  const lines = markdown.split('\n');
  for (const ref of out) {
    const line = lines[ref.line - 1] ?? '';
    if (line[ref.column - 2] === '!') ref.embed = true;
  }
  return out;
}
