import { unified, type Processor } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import remarkWikiLink from 'remark-wiki-link';
import remarkRehype from 'remark-rehype';
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import type { Root, RootContent, Parent } from 'mdast';
import { splitTarget } from '../parse/link-ref.js';

/** Where a `[[link]]` or `![[embed]]` goes in a page. */
export interface LinkTargets {
  /** The page of the entry a link names, or undefined when it names none. */
  entryHref(name: string): string | undefined;
  /** The URL of an attachment (a file under wiki/) an embed names, or undefined. */
  fileHref(name: string): string | undefined;
}

const IMAGE = /\.(png|jpe?g|gif|webp|svg|avif|bmp)$/i;

/**
 * The sanitizer's schema: GitHub's (rehype-sanitize's default: no script, no event handler, no
 * `javascript:` URL, no style), plus the classes kb's own links carry.
 */
const withoutClass = (tag: string) =>
  (defaultSchema.attributes?.[tag] ?? []).filter((a) => !(Array.isArray(a) && a[0] === 'className'));
const SCHEMA: SanitizeSchema = {
  ...defaultSchema,
  attributes: {
    ...defaultSchema.attributes,
    a: [...withoutClass('a'), ['className', 'data-footnote-backref', 'wikilink', 'missing', 'embed']],
    img: [...withoutClass('img'), ['className', 'embed']],
  },
};

interface WikiLinkNode {
  type: 'wikiLink';
  value: string;
  data: { alias: string | null; hName?: string; hProperties?: Record<string, unknown>; hChildren?: unknown[] };
}

/** A link becomes an `<a>` to its entry (or a marked dead link); an embed an `<img>` or a link to the file. */
function linkNode(node: WikiLinkNode, embed: boolean, targets: LinkTargets): void {
  const { target, heading } = splitTarget(node.value);
  const shown = node.data.alias || node.value;
  const file = embed ? targets.fileHref(target) : undefined;
  if (file && IMAGE.test(target)) {
    node.data.hName = 'img';
    node.data.hProperties = { src: file, alt: shown, className: ['embed'] };
    node.data.hChildren = [];
    return;
  }
  const entry = targets.entryHref(target);
  const href = file ?? (entry ? `${entry}${heading ? `#${encodeURIComponent(heading)}` : ''}` : undefined);
  node.data.hName = 'a';
  node.data.hProperties = href
    ? { href, className: [embed ? 'embed' : 'wikilink'] }
    : { className: ['wikilink', 'missing'], title: target };
  node.data.hChildren = [{ type: 'text', value: shown }];
}

const EMBED = /!\[\[([^\]\n]+)\]\]/g;

/** A text's `![[name|shown]]` embeds (micromark reads `![` as an image, so remark-wiki-link never sees them) as link nodes. */
function splitEmbeds(text: string, targets: LinkTargets): RootContent[] {
  const out: RootContent[] = [];
  let at = 0;
  for (const m of text.matchAll(EMBED)) {
    if (m.index > at) out.push({ type: 'text', value: text.slice(at, m.index) });
    const [value = '', alias] = m[1]!.split('|');
    const node: WikiLinkNode = { type: 'wikiLink', value: value.trim(), data: { alias: alias?.trim() || null } };
    linkNode(node, true, targets);
    out.push(node as unknown as RootContent);
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ type: 'text', value: text.slice(at) });
  return out;
}

/** Every `[[link]]` (parsed by remark-wiki-link) and `![[embed]]` (still in text) of the tree, resolved. */
function wikiLinks(targets: LinkTargets) {
  const visit = (parent: Parent) => {
    parent.children = (parent.children as RootContent[]).flatMap((child) => {
      if ((child.type as string) === 'wikiLink') linkNode(child as unknown as WikiLinkNode, false, targets);
      else if (child.type === 'text' && child.value.includes('![[')) return splitEmbeds(child.value, targets);
      else if ('children' in child) visit(child as Parent);
      return [child];
    }) as Parent['children'];
  };
  return () => (tree: Root) => visit(tree);
}

/** Markdown → HTML that is safe to show: raw HTML in the Markdown is dropped, and what is left is sanitized. */
export function markdownRenderer(targets: LinkTargets): (markdown: string) => string {
  const processor = unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkWikiLink, { aliasDivider: '|' })
    .use(wikiLinks(targets))
    .use(remarkRehype)
    .use(rehypeSanitize, SCHEMA)
    .use(rehypeStringify) as unknown as Processor<Root, Root, Root, Root, string>;
  return (markdown) => String(processor.processSync(markdown));
}
