import { readFileSync } from 'node:fs';
import type { KbContext } from '../kb/context.js';
import { entryBody } from '../entry/frontmatter.js';
import type { Catalog } from './catalog.js';
import { pageName, type Hrefs } from './html.js';
import { wikiFile } from './files.js';

/** One entry in search.html's prebuilt index: what the page's own search looks through. */
export interface IndexedEntry {
  t: string;
  k: string;
  a: string[];
  s: string;
  /** The start of the body as plain text, for passages. */
  b: string;
  h: string;
}

/** Characters of each body kept in the index: enough for passages, small enough for 10,000 entries. */
const BODY_CHARS = 800;

/** Markdown as the words a reader sees: no frontmatter markers, links as their shown text, no markup. */
export function plainText(md: string): string {
  return md
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/!?\[\[([^\]|]*\|)?([^\]]*)\]\]/g, '$2')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^#+\s*/gm, '')
    .replace(/[*_`>]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export function searchIndex(ctx: KbContext, cat: Catalog, h: Hrefs): IndexedEntry[] {
  return cat.entries.map((e) => {
    const abs = wikiFile(ctx.paths.wiki, e.path);
    let body = '';
    try {
      if (abs) body = plainText(entryBody(readFileSync(abs, 'utf8'))).slice(0, BODY_CHARS);
    } catch {
      // An unreadable file: its title and summary are still found.
    }
    return { t: e.title, k: e.kind, a: e.aliases, s: e.summary, b: body, h: h.entry(e.id) };
  });
}

/** llms.txt (llmstxt.org): the wiki's name, what it is, and every entry's Markdown with its summary, by kind. */
export function llmsText(cat: Catalog, h: Hrefs): string {
  const lines = [
    '# Knowledge base',
    '',
    `> A wiki of ${cat.entries.length} entries compiled by kb from documents: a summary entry per source, a concept entry per idea several sources share, and answers filed back. Each link below is the entry's Markdown (YAML frontmatter, then the body with [[wikilinks]]).`,
    '',
  ];
  for (const [kind, heading] of [
    ['concept', 'Concepts'],
    ['source', 'Sources'],
    ['answer', 'Answers'],
  ] as const) {
    const group = cat.entries.filter((e) => e.kind === kind);
    if (!group.length) continue;
    lines.push(`## ${heading}`, '');
    for (const e of group) {
      const md = `entry/${pageName(e.id).split('/').map(encodeURIComponent).join('/')}.md`;
      const summary = e.summary.replace(/\s+/g, ' ').trim().slice(0, 300);
      lines.push(`- [${e.title.replace(/[[\]]/g, '')}](${md})${summary ? `: ${summary}` : ''}`);
    }
    lines.push('');
  }
  lines.push('## Optional', '', `- [Index](${h.home}): the same entries as a web page, grouped by topic`, '');
  return lines.join('\n');
}
