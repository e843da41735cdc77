import {
  attr,
  child,
  dublinCore,
  elements,
  escapeHtml,
  findAll,
  type OfficeDoc,
  type OfficePart,
  oneLine,
  parseXml,
  path,
  readZip,
  tableHtml,
  type XmlElement,
  type XmlNode,
} from './office-xml.js';

/** Parts of an OpenDocument file that hold no reading text. */
const SKIP = new Set([
  'tracked-changes',
  'sequence-decls',
  'variable-decls',
  'user-field-decls',
  'forms',
  'table-of-content',
  'alphabetical-index',
  'illustration-index',
  'bibliography',
  'annotation',
  'note-citation',
  'notes',
  'table-column',
  'table-columns',
]);

/** A cell repeated more often than this is layout (a sheet's empty tail), not data. */
const MAX_REPEAT = 256;

/**
 * An OpenDocument text, spreadsheet or presentation (`content.xml`): a text's headings,
 * paragraphs, lists and tables; a spreadsheet's sheets; a presentation's pages as slides.
 */
export function readOdf(bytes: Uint8Array): OfficeDoc {
  const parts = readZip(bytes, (n) => n === 'content.xml' || n === 'meta.xml');
  const content = path(parseXml(parts.get('content.xml')), 'document-content');
  const meta = dublinCore(path(parseXml(parts.get('meta.xml')), 'document-meta', 'meta'));
  const body = child(content, 'body');
  const titles = titleStyles(child(content, 'automatic-styles'));
  const out: OfficePart[] = [];
  for (const kind of elements(body ?? { name: '', attrs: {}, children: [] })) {
    if (kind.name === 'spreadsheet')
      for (const t of elements(kind, 'table'))
        out.push({ kind: 'sheet', name: attr(t, 'table:name') ?? `Sheet ${out.length + 1}`, rows: tableRows(t) });
    else if (kind.name === 'presentation')
      for (const page of elements(kind, 'page')) out.push(odpSlide(page, out.length + 1, titles));
    else out.push({ kind: 'html', html: blocks(kind, titles) });
  }
  return { parts: out, meta };
}

/** The automatic styles that are a kind of `Title` (a title paragraph given its own look). */
function titleStyles(styles: XmlElement | undefined): Set<string> {
  const out = new Set(['Title']);
  for (const s of styles ? elements(styles, 'style') : [])
    if (attr(s, 'style:parent-style-name') === 'Title') out.add(attr(s, 'style:name') ?? 'Title');
  return out;
}

function odpSlide(page: XmlElement, n: number, titles: Set<string>): OfficePart {
  let title = '';
  const html: string[] = [];
  for (const frame of findAll(page, 'frame')) {
    const cls = attr(frame, 'presentation:class');
    if (cls === 'notes') continue;
    const box = child(frame, 'text-box');
    const table = child(frame, 'table');
    if (cls === 'title' && box && !title) title = oneLine(inline(box, false));
    else if (box) html.push(blocks(box, titles));
    else if (table) html.push(tableHtml(tableRows(table)));
  }
  return { kind: 'slide', n, title: title || (attr(page, 'draw:name') ?? ''), html: html.join('\n') };
}

/** Block elements as HTML: headings by outline level, a Title paragraph as `<h1>`, lists, tables. */
function blocks(el: XmlElement, titles: Set<string>): string {
  let out = '';
  for (const c of elements(el)) {
    if (SKIP.has(c.name)) continue;
    switch (c.name) {
      case 'h': {
        const level = Math.min(6, Math.max(1, Number(attr(c, 'text:outline-level') ?? 1) || 1));
        const text = inline(c);
        if (text.trim()) out += `<h${level}>${text}</h${level}>`;
        break;
      }
      case 'p': {
        const text = inline(c);
        if (!text.trim()) break;
        out += titles.has(attr(c, 'text:style-name') ?? '') ? `<h1>${text}</h1>` : `<p>${text}</p>`;
        break;
      }
      case 'list':
        out += `<ul>${elements(c)
          .filter((i) => i.name === 'list-item' || i.name === 'list-header')
          .map((i) => `<li>${listItem(i, titles)}</li>`)
          .join('')}</ul>`;
        break;
      case 'table':
        out += tableHtml(tableRows(c));
        break;
      default:
        out += blocks(c, titles);
    }
  }
  return out;
}

/** A list item of one paragraph (and perhaps a nested list) keeps the list tight. */
function listItem(item: XmlElement, titles: Set<string>): string {
  const kids = elements(item);
  if (kids.filter((k) => k.name === 'p' || k.name === 'h').length !== 1) return blocks(item, titles);
  return kids
    .map((k) => (k.name === 'p' || k.name === 'h' ? inline(k) : blocks({ ...item, children: [k] }, titles)))
    .join('');
}

/** A paragraph's text, as HTML or plain: spans and links as their text, `<text:s text:c="3"/>` as spaces. */
function inline(el: XmlElement, html = true): string {
  let out = '';
  for (const c of el.children as XmlNode[]) {
    if (typeof c === 'string') out += html ? escapeHtml(c.replace(/\s+/g, ' ')) : c;
    else if (SKIP.has(c.name) || c.name === 'note') continue;
    else if (c.name === 's') out += ' '.repeat(Math.min(MAX_REPEAT, Number(attr(c, 'text:c') ?? 1) || 1));
    else if (c.name === 'tab') out += ' ';
    else if (c.name === 'line-break') out += html ? '<br>' : ' ';
    else if (c.name === 'frame' || c.name === 'text-box' || c.name === 'p' || c.name === 'h')
      out += ` ${oneLine(inline(c, html))} `;
    else out += inline(c, html);
  }
  return out;
}

/** A table's rows (header rows, row groups and plain rows) of cell texts, repeats expanded. */
function tableRows(table: XmlElement): string[][] {
  const rows: string[][] = [];
  const walk = (el: XmlElement) => {
    for (const c of elements(el)) {
      if (c.name === 'table-row') {
        const cells = rowCells(c);
        const times = Number(attr(c, 'table:number-rows-repeated') ?? 1) || 1;
        if (!cells.some(Boolean)) rows.push(cells);
        else for (let i = 0; i < Math.min(times, MAX_REPEAT); i++) rows.push([...cells]);
      } else if (c.name === 'table-header-rows' || c.name === 'table-rows' || c.name === 'table-row-group') walk(c);
    }
  };
  walk(table);
  return rows;
}

function rowCells(row: XmlElement): string[] {
  const cells: string[] = [];
  for (const cell of elements(row)) {
    if (cell.name !== 'table-cell' && cell.name !== 'covered-table-cell') continue;
    const text = oneLine(inline({ ...cell, children: elements(cell).filter((p) => !SKIP.has(p.name)) }, false));
    const times = Math.min(MAX_REPEAT, Number(attr(cell, 'table:number-columns-repeated') ?? 1) || 1);
    for (let i = 0; i < times; i++) cells.push(text);
  }
  while (cells.length && !cells.at(-1)) cells.pop();
  return cells;
}
