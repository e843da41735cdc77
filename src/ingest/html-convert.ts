import { flattenDeepHtml } from './html-depth.js';
import type { Element, ElementContent, Root, RootContent } from 'hast';
import rehypeParse from 'rehype-parse';
import rehypeRemark from 'rehype-remark';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { plainInline } from './markdown.js';
import type { Converted } from './types.js';

// Built once: freezing a unified processor is the expensive part.
const processor = unified()
  .use(rehypeParse)
  .use(rehypeRemark)
  .use(remarkGfm)
  .use(remarkStringify, { bullet: '-', rule: '-', emphasis: '_', fences: true, listItemIndent: 'one' })
  .freeze();

/** Site furniture, not content. `header` only outside an article (an article's header holds its title). */
const BOILERPLATE = new Set([
  'script',
  'style',
  'noscript',
  'nav',
  'footer',
  'aside',
  'form',
  'iframe',
  'template',
  'dialog',
  'button',
  'select',
  'object',
  'embed',
  'canvas',
]);

type Node = Root | RootContent | ElementContent;

/**
 * An HTML page as Markdown: metadata from <head> (title, canonical URL, description, author,
 * dates), then the content of the single <article> or the <main> if there is one, else <body>,
 * without scripts, navigation, sidebars, footers and forms. Empty markdown means nothing readable.
 */
export function convertHtml(html: string, fallbackTitle: string, opts: { headingOffset?: number } = {}): Converted {
  // A tree nested deeper than the recursive passes below can walk is unwrapped first (html-depth.ts).
  const tree = processor.parse(flattenDeepHtml(html));
  const head = readHead(tree);

  prune(tree, false);
  const content = pickContent(tree);
  const base = head.base ?? head.url;
  if (base) absolutise(content, base);

  const markdown = toMarkdown(content, opts.headingOffset ?? 0);
  const h1 = firstH1(content);
  const title = preferH1(head.title, h1) ?? fallbackTitle;
  const converted: Converted = { title, markdown: markdown ? `${markdown}\n` : '', meta: head.meta };
  if (head.url) converted.url = head.url;
  return converted;
}

/** HTML nodes to Markdown; headings moved `headingOffset` levels down (a slide's headings under its section). */
function toMarkdown(content: ElementContent[], headingOffset: number): string {
  const mdast = processor.runSync({ type: 'root', children: content });
  if (headingOffset) demote(mdast as MdNode, headingOffset);
  return processor
    .stringify(mdast)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

interface MdNode {
  type: string;
  depth?: number;
  children?: MdNode[];
}

function demote(node: MdNode, by: number): void {
  if (node.type === 'heading' && node.depth) node.depth = Math.min(6, node.depth + by);
  for (const c of node.children ?? []) demote(c, by);
}

/** `<title>` is often the article's <h1> plus " _ Section _ Site": the <h1> then is the title. */
function preferH1(headTitle: string | undefined, h1: string | undefined): string | undefined {
  if (
    headTitle &&
    h1 &&
    headTitle !== h1 &&
    headTitle.startsWith(h1) &&
    /^\s*[-_|–—·:：｜]/.test(headTitle.slice(h1.length))
  )
    return h1;
  return headTitle ?? h1;
}

/**
 * A saved web page (a web clip) as Markdown: defuddle — what Obsidian's Web Clipper uses — finds
 * the article and drops the page chrome that is not marked up as such (menus, share buttons,
 * related posts, comments and sidebars in plain <div>s); kb's own HTML path then writes the
 * Markdown, with the page's <head> metadata. A page defuddle finds little in keeps kb's own reading.
 */
export async function convertWebPage(page: string, fallbackTitle: string): Promise<Converted> {
  const html = flattenDeepHtml(page);
  const own = convertHtml(html, fallbackTitle);
  let article: { content: string; author?: string; published?: string } | undefined;
  try {
    const [{ parseHTML }, { Defuddle }] = await Promise.all([import('linkedom'), import('defuddle/node')]);
    const { document } = parseHTML(html);
    // useAsync: false — defuddle would otherwise ask third-party APIs when a page holds little text.
    const r = await Defuddle(document as unknown as Parameters<typeof Defuddle>[0], own.url ?? 'about:blank', {
      useAsync: false,
      markdown: false,
    });
    article = {
      content: r.content,
      ...(r.author ? { author: r.author } : {}),
      ...(r.published ? { published: r.published } : {}),
    };
  } catch {
    return own;
  }
  const clip = convertHtml(`<html><body>${article.content}</body></html>`, fallbackTitle);
  const length = (md: string) => md.replace(/\s/g, '').length;
  // Defuddle keeps the article or nothing much: if it lost most of the text, the page was not an article.
  if (!clip.markdown || length(clip.markdown) < Math.min(100, length(own.markdown) * 0.3)) return own;
  const meta = { ...own.meta };
  if (article.author && meta['author'] === undefined) meta['author'] = article.author;
  if (article.published && meta['published'] === undefined) meta['published'] = article.published.slice(0, 10);
  const converted: Converted = { title: own.title, markdown: clip.markdown, meta };
  if (own.url) converted.url = own.url;
  return converted;
}

interface Head {
  title?: string;
  url?: string;
  base?: string;
  meta: Record<string, string>;
}

const META_FIELDS: Readonly<Record<string, string>> = {
  description: 'description',
  'og:description': 'description',
  author: 'author',
  'article:author': 'author',
  'og:site_name': 'site_name',
  'article:published_time': 'published',
  date: 'published',
  'article:modified_time': 'modified',
  keywords: 'keywords',
};

function readHead(tree: Root): Head {
  const head: Head = { meta: {} };
  let titleTag: string | undefined;
  let ogTitle: string | undefined;
  let canonical: string | undefined;
  let ogUrl: string | undefined;
  const headEl = findElement(tree, 'head');
  if (!headEl) return head;
  visit(headEl, (el) => {
    if (el.tagName === 'title' && titleTag === undefined) titleTag = clean(textOf(el));
    else if (el.tagName === 'meta') {
      const key = String(el.properties.property ?? el.properties.name ?? '').toLowerCase();
      const value = clean(String(el.properties.content ?? ''));
      if (!key || !value) return;
      if (key === 'og:title') ogTitle ??= value;
      else if (key === 'og:url') ogUrl ??= value;
      else {
        const field = META_FIELDS[key];
        if (field && head.meta[field] === undefined) head.meta[field] = value;
      }
    } else if (el.tagName === 'link') {
      const rel = el.properties.rel;
      const rels = Array.isArray(rel) ? rel.map(String) : String(rel ?? '').split(/\s+/);
      if (rels.some((r) => r.toLowerCase() === 'canonical')) canonical ??= String(el.properties.href ?? '');
    } else if (el.tagName === 'base' && typeof el.properties.href === 'string') head.base ??= el.properties.href;
  });
  // og:title is usually the article's own title; <title> often carries " | Site Name".
  const title = ogTitle || titleTag;
  if (title) head.title = title;
  const url = [canonical, ogUrl].find((u) => u !== undefined && /^https?:\/\/\S+$/i.test(u.trim()));
  if (url) head.url = url.trim();
  if (head.base && !/^https?:\/\//i.test(head.base)) delete head.base;
  return head;
}

/** Drop boilerplate and hidden elements, and images inlined as data: URLs (they would swamp the text). */
function prune(node: Root | Element, inArticle: boolean): void {
  node.children = node.children.filter((child) => {
    if (child.type === 'comment' || child.type === 'doctype') return false;
    if (child.type !== 'element') return true;
    const tag = child.tagName;
    if (BOILERPLATE.has(tag) || tag === 'head') return false;
    if (tag === 'header' && !inArticle) return false;
    const p = child.properties;
    if (
      p.hidden === true ||
      p.ariaHidden === 'true' ||
      p.role === 'navigation' ||
      p.role === 'banner' ||
      p.role === 'complementary'
    )
      return false;
    if (tag === 'img' && typeof p.src === 'string' && p.src.startsWith('data:')) return false;
    if (tag === 'a' && typeof p.href === 'string' && /^\s*(javascript|vbscript|data):/i.test(p.href)) delete p.href;
    prune(child, inArticle || tag === 'article');
    // Bookmarks (`<a id="_Toc1"></a>`, what Word exports) would become empty `[]()` links.
    if (tag === 'a' && child.children.length === 0) return false;
    if (tag === 'table') headerRow(child);
    return true;
  }) as typeof node.children;
}

/** A table without header cells: its first row is the header (else Markdown gets an empty one). */
function headerRow(table: Element): void {
  let hasTh = false;
  let first: Element | undefined;
  visit(table, (el) => {
    if (el.tagName === 'th') hasTh = true;
    else if (el.tagName === 'tr') first ??= el;
  });
  if (hasTh || !first) return;
  for (const cell of first.children) if (cell.type === 'element' && cell.tagName === 'td') cell.tagName = 'th';
}

/** The single <article>, else <main> (or role=main), else every <article>, else everything. */
function pickContent(tree: Root): ElementContent[] {
  const articles: Element[] = [];
  let main: Element | undefined;
  visit(tree, (el) => {
    if (el.tagName === 'article') articles.push(el);
    else if (!main && (el.tagName === 'main' || el.properties.role === 'main')) main = el;
  });
  const outer = articles.filter((a) => !articles.some((b) => b !== a && contains(b, a)));
  if (outer.length === 1) return outer;
  if (main) return [main];
  if (outer.length > 1) return outer;
  return tree.children.filter((c): c is ElementContent => c.type !== 'doctype');
}

function absolutise(nodes: ElementContent[], base: string): void {
  for (const node of nodes) {
    if (node.type !== 'element') continue;
    visit(node, (el) => {
      for (const key of ['href', 'src'] as const) {
        const v = el.properties[key];
        if (typeof v !== 'string' || !v || v.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(v)) continue;
        try {
          el.properties[key] = new URL(v, base).href;
        } catch {
          // leave it as written
        }
      }
    });
  }
}

function firstH1(nodes: ElementContent[]): string | undefined {
  let found: string | undefined;
  for (const node of nodes) {
    if (found || node.type !== 'element') continue;
    visit(node, (el) => {
      if (!found && el.tagName === 'h1') found = clean(textOf(el)) || undefined;
    });
  }
  return found ? plainInline(found) : undefined;
}

function findElement(node: Node, tagName: string): Element | undefined {
  if (node.type === 'element' && node.tagName === tagName) return node;
  if ('children' in node) {
    for (const child of node.children) {
      const found = findElement(child, tagName);
      if (found) return found;
    }
  }
  return undefined;
}

function visit(node: Node, fn: (el: Element) => void): void {
  if (node.type === 'element') fn(node);
  if ('children' in node) for (const child of node.children) visit(child, fn);
  if (node.type === 'element' && node.content) visit(node.content, fn);
}

function contains(outer: Element, inner: Element): boolean {
  let found = false;
  visit(outer, (el) => {
    if (el === inner && el !== outer) found = true;
  });
  return found;
}

function textOf(node: Node): string {
  if (node.type === 'text') return node.value;
  if ('children' in node) return node.children.map((c) => textOf(c)).join('');
  return '';
}

function clean(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
