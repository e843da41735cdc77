import { convertHtml, loadHtml } from './html.js';
import type { ConvertOutcome } from './types.js';

type Xml = Record<string, unknown>;

interface Item {
  title: string;
  link?: string;
  date?: string;
  author?: string;
  html: string;
}

/**
 * An RSS 2.0, RSS 1.0 (RDF) or Atom feed, read with fast-xml-parser: the feed's title, then one
 * `## Item title` section per item with its link, date and content (HTML through kb's HTML path).
 * `meta.posts` records each item, so that splitPosts gives one entry per item.
 */
export async function convertFeed(text: string, fallbackTitle: string): Promise<ConvertOutcome> {
  await loadHtml();
  const { XMLParser } = await import('fast-xml-parser');
  let doc: Xml;
  try {
    doc = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@_',
      removeNSPrefix: true,
      parseTagValue: false,
      processEntities: true,
      htmlEntities: true,
      isArray: (name) => name === 'item' || name === 'entry' || name === 'link' || name === 'category',
    }).parse(text) as Xml;
  } catch (err) {
    return { problem: problem(`cannot be parsed (${(err as Error).message.split('\n')[0]})`) };
  }
  const rss = obj(doc['rss']);
  const rdf = obj(doc['RDF']);
  const atom = obj(doc['feed']);
  const channel = obj(rss?.['channel']) ?? obj(rdf?.['channel']);
  let title: string | undefined;
  let link: string | undefined;
  let items: Item[];
  if (atom) {
    title = textOf(atom['title']);
    link = atomLink(atom['link']);
    items = list(atom['entry']).map((e) => ({
      title: textOf(e['title']) ?? '(untitled)',
      ...opt('link', atomLink(e['link'])),
      ...opt('date', date(textOf(e['published']) ?? textOf(e['updated']))),
      ...opt('author', textOf(obj(list(e['author'])[0] ?? e['author'])?.['name'])),
      html: textOf(e['content']) ?? textOf(e['summary']) ?? '',
    }));
  } else if (channel) {
    title = textOf(channel['title']);
    link = textOf(list(channel['link'])[0]);
    items = list(rss ? channel['item'] : rdf?.['item']).map((i) => ({
      title: textOf(i['title']) ?? '(untitled)',
      ...opt('link', textOf(list(i['link'])[0]) ?? textOf(i['guid'])),
      ...opt('date', date(textOf(i['pubDate']) ?? textOf(i['date']))),
      ...opt('author', textOf(i['creator']) ?? textOf(i['author'])),
      html: textOf(i['encoded']) ?? textOf(i['description']) ?? '',
    }));
  } else {
    return { problem: problem('has no <rss>, <rdf:RDF> or Atom <feed> root') };
  }
  const guids = (
    atom
      ? list(atom['entry']).map((e) => textOf(e['id']))
      : list(rss ? channel?.['item'] : rdf?.['item']).map((i) => textOf(i['guid']))
  ) as (string | undefined)[];
  if (!items.length)
    return {
      problem: {
        ruleId: 'ingest-empty',
        reason: 'Unexpected feed without items, expected <item> or <entry> elements',
        note: 'export the feed again with its items',
      },
    };

  const sections = items.map((it) => {
    const body = it.html
      ? convertHtml(`<html><body>${it.html}</body></html>`, '', { headingOffset: 2 }).markdown.trim()
      : '';
    const about = [it.link && `<${it.link}>`, it.date, it.author].filter(Boolean).join(' · ');
    return `## ${it.title.replace(/^#+/, '').replace(/\s+/g, ' ')}${about ? `\n\n${about}` : ''}${body ? `\n\n${body}` : ''}`;
  });
  const meta: Record<string, unknown> = { items: items.length };
  // What splitPosts needs to make one entry per item (ingest/posts.ts).
  meta['posts'] = items.map((it, i) => ({
    title: it.title,
    ...opt('date', it.date),
    ...opt('guid', guids[i]),
    ...opt('link', it.link),
    ...opt('author', it.author),
  }));
  const description = textOf(channel?.['description']) ?? textOf(atom?.['subtitle']);
  if (description) meta['description'] = description;
  return {
    converted: {
      title: title ?? fallbackTitle,
      markdown: `${sections.join('\n\n')}\n`,
      meta,
      ...(link && /^https?:\/\//i.test(link) ? { url: link } : {}),
    },
  };
}

function problem(why: string) {
  return {
    ruleId: 'ingest-feed',
    reason: `Unexpected feed that ${why}, expected RSS or Atom XML`,
    note: 'export the feed again, or give the file the extension of what it holds',
  };
}

function obj(v: unknown): Xml | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Xml) : undefined;
}

function list(v: unknown): Xml[] {
  const a = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return a.map((x) => (typeof x === 'object' && x !== null ? (x as Xml) : { '#text': x }));
}

/** Text of an element: a string, or the `#text` of one with attributes. */
function textOf(v: unknown): string | undefined {
  if (typeof v === 'string' || typeof v === 'number') return String(v).trim() || undefined;
  const o = obj(v);
  return o ? textOf(o['#text']) : undefined;
}

function atomLink(v: unknown): string | undefined {
  const links = list(v);
  const best = links.find((l) => !l['@_rel'] || l['@_rel'] === 'alternate') ?? links[0];
  return typeof best?.['@_href'] === 'string' ? best['@_href'] : textOf(best);
}

function date(s: string | undefined): string | undefined {
  if (!s) return undefined;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? s : d.toISOString().slice(0, 10);
}

function opt<K extends string>(key: K, v: string | undefined): { [P in K]?: string } {
  return (v ? { [key]: v } : {}) as { [P in K]?: string };
}
