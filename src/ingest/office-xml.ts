import { posix } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { XMLParser } from 'fast-xml-parser';

/**
 * The parts every zip-and-XML document format shares (OOXML, OpenDocument, EPUB): its files read
 * by name, XML as a tree in document order, and what a format reader gives back — plain HTML for
 * flowing text, a slide, or a sheet of cells — for office.ts to turn into Markdown.
 */

export interface XmlElement {
  /** The local name: `a:p` and `text:p` are both `p` (each format keeps to its own names). */
  name: string;
  /** Attributes under their qualified names (`r:id`); `attr` also finds them by local name. */
  attrs: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

export type OfficePart =
  | { kind: 'html'; html: string }
  | { kind: 'slide'; n: number; title: string; html: string }
  | { kind: 'sheet'; name: string; rows: string[][] };

export interface OfficeMeta {
  title?: string;
  author?: string;
  created?: string;
  description?: string;
}

export interface OfficeDoc {
  parts: OfficePart[];
  meta: OfficeMeta;
}

/** The files of a zip the caller has already checked (checkZip): by path, only those asked for. */
export function readZip(bytes: Uint8Array, wanted: (name: string) => boolean): Map<string, Uint8Array> {
  return new Map(Object.entries(unzipSync(bytes, { filter: (f) => wanted(f.name) })));
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

/** An XML file as a tree; a missing part is an empty document. */
export function parseXml(bytes: Uint8Array | undefined): XmlElement {
  const root: XmlElement = { name: '#document', attrs: {}, children: [] };
  if (!bytes) return root;
  root.children = convert(parser.parse(strFromU8(bytes)) as unknown[]);
  return root;
}

function convert(list: unknown[]): XmlNode[] {
  const out: XmlNode[] = [];
  for (const item of list) {
    const entry = item as Record<string, unknown>;
    for (const [key, value] of Object.entries(entry)) {
      if (key === ':@') continue;
      if (key === '#text') out.push(String(value));
      else if (key === '#comment') continue;
      else
        out.push({
          name: key.slice(key.indexOf(':') + 1),
          attrs: (entry[':@'] as Record<string, string> | undefined) ?? {},
          children: Array.isArray(value) ? convert(value) : [],
        });
    }
  }
  return out;
}

export function elements(el: XmlElement, name?: string): XmlElement[] {
  return el.children.filter((c): c is XmlElement => typeof c !== 'string' && (!name || c.name === name));
}

export function child(el: XmlElement | undefined, name: string): XmlElement | undefined {
  return el ? elements(el, name)[0] : undefined;
}

/** The first element on a path of local names (`path(doc, 'package', 'metadata')`). */
export function path(el: XmlElement | undefined, ...names: string[]): XmlElement | undefined {
  let at = el;
  for (const n of names) at = child(at, n);
  return at;
}

/** Every element of that name below `el`, in document order (not below a match). */
export function findAll(el: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  const stack: XmlElement[] = [el];
  while (stack.length) {
    const at = stack.pop()!;
    const kids = elements(at);
    for (let i = kids.length - 1; i >= 0; i--) {
      const k = kids[i]!;
      if (k.name === name) out.push(k);
      else stack.push(k);
    }
  }
  return out;
}

/** An attribute by its qualified name, else by its local name. */
export function attr(el: XmlElement | undefined, name: string): string | undefined {
  if (!el) return undefined;
  if (name in el.attrs) return el.attrs[name];
  for (const [k, v] of Object.entries(el.attrs)) if (k.slice(k.indexOf(':') + 1) === name) return v;
  return undefined;
}

/** All the text below an element, as written. */
export function textOf(node: XmlNode | undefined): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return node;
  let out = '';
  for (const c of node.children) out += textOf(c);
  return out;
}

export function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Rows of cell texts as an HTML table, the first row its header. */
export function tableHtml(rows: string[][]): string {
  const kept = rows.filter((r) => r.some((c) => c.trim()));
  if (!kept.length) return '';
  const row = (r: string[], tag: string) => `<tr>${r.map((c) => `<${tag}>${escapeHtml(c)}</${tag}>`).join('')}</tr>`;
  return `<table><thead>${row(kept[0]!, 'th')}</thead><tbody>${kept
    .slice(1)
    .map((r) => row(r, 'td'))
    .join('')}</tbody></table>`;
}

/** A relationship's or manifest's target, relative to the part that names it, as a zip path. */
export function resolvePart(fromDir: string, target: string): string {
  const clean = safeDecode(target.split('#')[0]!);
  if (clean.startsWith('/')) return clean.slice(1);
  return posix.normalize(posix.join(fromDir, clean)).replace(/^\.\//, '');
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** An OOXML part's relationships (`_rels/x.xml.rels`): id → zip path of the target. */
export function relationships(parts: Map<string, Uint8Array>, partPath: string): Map<string, string> {
  const dir = posix.dirname(partPath);
  const rels = parseXml(parts.get(posix.join(dir, '_rels', `${posix.basename(partPath)}.rels`)));
  const out = new Map<string, string>();
  for (const r of elements(path(rels, 'Relationships') ?? rels, 'Relationship')) {
    const id = attr(r, 'Id');
    const target = attr(r, 'Target');
    if (id && target && attr(r, 'TargetMode') !== 'External') out.set(id, resolvePart(dir === '.' ? '' : dir, target));
  }
  return out;
}

/** Dublin Core fields (OOXML `docProps/core.xml`, OpenDocument `meta.xml`, an EPUB's OPF metadata). */
export function dublinCore(el: XmlElement | undefined): OfficeMeta {
  const meta: OfficeMeta = {};
  if (!el) return meta;
  const field = (...names: string[]) => {
    for (const n of names) {
      const v = oneLine(textOf(child(el, n)));
      if (v) return v;
    }
    return undefined;
  };
  const title = field('title');
  const author = field('creator', 'initial-creator');
  const created = field('created', 'creation-date', 'date');
  const description = field('description', 'subject');
  if (title) meta.title = title;
  if (author) meta.author = author;
  if (created) meta.created = created;
  if (description) meta.description = description;
  return meta;
}
