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
  relationships,
  tableHtml,
  textOf,
  type XmlElement,
} from './office-xml.js';

/** A PowerPoint deck: its slides in the deck's order, each with its title and its text and tables. */
export function readPptx(bytes: Uint8Array): OfficeDoc {
  const parts = readZip(bytes, (n) => n.endsWith('.xml') || n.endsWith('.rels'));
  const rels = relationships(parts, 'ppt/presentation.xml');
  const listed = elements(
    path(parseXml(parts.get('ppt/presentation.xml')), 'presentation', 'sldIdLst') ?? blank(),
    'sldId',
  )
    .map((s) => rels.get(attr(s, 'r:id') ?? ''))
    .filter((p): p is string => !!p && parts.has(p));
  const slides = listed.length
    ? listed
    : [...parts.keys()]
        .filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n))
        .sort((a, b) => slideNumber(a) - slideNumber(b));
  const out: OfficePart[] = slides.map((p, i) => slide(parseXml(parts.get(p)), i + 1));
  return { parts: out, meta: dublinCore(path(parseXml(parts.get('docProps/core.xml')), 'coreProperties')) };
}

function blank(): XmlElement {
  return { name: '', attrs: {}, children: [] };
}

function slideNumber(p: string): number {
  return Number(/(\d+)\.xml$/.exec(p)?.[1] ?? 0);
}

function slide(doc: XmlElement, n: number): OfficePart {
  const tree = path(doc, 'sld', 'cSld', 'spTree');
  let title = '';
  const html: string[] = [];
  const walk = (group: XmlElement) => {
    for (const el of elements(group)) {
      if (el.name === 'grpSp') walk(el);
      else if (el.name === 'sp') {
        const ph = path(el, 'nvSpPr', 'nvPr', 'ph');
        const type = attr(ph, 'type');
        const body = child(el, 'txBody');
        if (!body) continue;
        if ((type === 'title' || type === 'ctrTitle') && !title) title = oneLine(textOf(body));
        else html.push(textBody(body, !!ph && (type === undefined || type === 'body' || type === 'obj')));
      } else if (el.name === 'graphicFrame') for (const t of findAll(el, 'tbl')) html.push(drawingTable(t));
    }
  };
  if (tree) walk(tree);
  return { kind: 'slide', n, title, html: html.join('\n') };
}

/**
 * A shape's paragraphs: a bulleted paragraph (a bullet set on it, or a body placeholder's default
 * that it does not turn off) is a list item at its level, any other a paragraph.
 */
function textBody(body: XmlElement, bulletsByDefault: boolean): string {
  const out: string[] = [];
  let items: ListItem[] = [];
  for (const p of elements(body, 'p')) {
    const pPr = child(p, 'pPr');
    const inline = runs(p);
    if (!inline.trim()) continue;
    const bullet = !!(child(pPr, 'buChar') || child(pPr, 'buAutoNum')) || (bulletsByDefault && !child(pPr, 'buNone'));
    if (bullet) items.push({ level: Math.min(8, Number(attr(pPr, 'lvl') ?? 0) || 0) + 1, html: inline });
    else {
      if (items.length) out.push(listHtml(items));
      items = [];
      out.push(`<p>${inline}</p>`);
    }
  }
  if (items.length) out.push(listHtml(items));
  return out.join('');
}

interface ListItem {
  /** 1 for the outermost list. */
  level: number;
  html: string;
}

/** Items with their levels as nested lists; a deeper item goes inside the item before it. */
function listHtml(items: ListItem[]): string {
  let out = '';
  let depth = 0;
  for (const it of items) {
    if (it.level > depth) for (; depth < it.level; depth++) out += '<ul><li>';
    else {
      for (; depth > it.level; depth--) out += '</li></ul>';
      out += '</li><li>';
    }
    out += it.html;
  }
  for (; depth > 0; depth--) out += '</li></ul>';
  return out;
}

/** A paragraph's runs, fields and line breaks; a wholly bold paragraph stays bold. */
function runs(p: XmlElement): string {
  let text = '';
  let bold = true;
  for (const r of elements(p)) {
    if (r.name === 'br') text += '<br>';
    else if (r.name === 'r' || r.name === 'fld') {
      const t = textOf(child(r, 't'));
      if (!t.trim()) {
        text += escapeHtml(t);
        continue;
      }
      const b = attr(child(r, 'rPr'), 'b');
      if (b !== '1' && b !== 'true') bold = false;
      text += escapeHtml(t);
    }
  }
  return bold && text.trim() ? `<strong>${text}</strong>` : text;
}

function drawingTable(tbl: XmlElement): string {
  return tableHtml(
    elements(tbl, 'tr').map((tr) =>
      elements(tr, 'tc').map((tc) =>
        oneLine(
          elements(child(tc, 'txBody') ?? blank(), 'p')
            .map(textOf)
            .join(' '),
        ),
      ),
    ),
  );
}

/** An Excel workbook: one sheet of cell texts per worksheet, in the workbook's order. */
export function readXlsx(bytes: Uint8Array): OfficeDoc {
  const parts = readZip(bytes, (n) => n.endsWith('.xml') || n.endsWith('.rels'));
  const rels = relationships(parts, 'xl/workbook.xml');
  const shared = elements(path(parseXml(parts.get('xl/sharedStrings.xml')), 'sst') ?? blank(), 'si').map(richText);
  const sheets: OfficePart[] = [];
  for (const s of elements(path(parseXml(parts.get('xl/workbook.xml')), 'workbook', 'sheets') ?? blank(), 'sheet')) {
    const target = rels.get(attr(s, 'r:id') ?? '');
    if (!target || !parts.has(target)) continue;
    const name = attr(s, 'name') ?? `Sheet ${sheets.length + 1}`;
    sheets.push({ kind: 'sheet', name, rows: sheetRows(parseXml(parts.get(target)), shared) });
  }
  return { parts: sheets, meta: dublinCore(path(parseXml(parts.get('docProps/core.xml')), 'coreProperties')) };
}

/** A shared or inline string: its text runs, without the phonetic guides (`rPh`). */
function richText(si: XmlElement): string {
  return elements(si)
    .map((e) => (e.name === 't' ? textOf(e) : e.name === 'r' ? textOf(child(e, 't')) : ''))
    .join('');
}

function sheetRows(doc: XmlElement, shared: string[]): string[][] {
  const rows: string[][] = [];
  for (const row of elements(path(doc, 'worksheet', 'sheetData') ?? blank(), 'row')) {
    const out: string[] = [];
    for (const c of elements(row, 'c')) {
      const col = columnIndex(attr(c, 'r')) ?? out.length;
      if (col > 16_384) continue;
      while (out.length < col) out.push('');
      out[col] = oneLine(cellText(c, shared));
    }
    rows.push(out);
  }
  return rows;
}

function cellText(c: XmlElement, shared: string[]): string {
  const v = textOf(child(c, 'v'));
  switch (attr(c, 't')) {
    case 's':
      return shared[Number(v)] ?? '';
    case 'inlineStr':
      return richText(child(c, 'is') ?? blank());
    case 'b':
      return v === '1' ? 'TRUE' : v === '0' ? 'FALSE' : v;
    default:
      return v;
  }
}

/** `C7` → 2. */
function columnIndex(ref: string | undefined): number | undefined {
  const letters = ref && /^([A-Z]{1,3})\d*$/i.exec(ref)?.[1];
  if (!letters) return undefined;
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}
