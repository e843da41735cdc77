import type { OfficeContentNode, OfficeParserAST, SupportedFileType } from 'officeparser';
import { convertHtml } from './html.js';
import { firstHeading } from './markdown.js';
import { checkZip, DEFAULT_ZIP_LIMITS } from './zip.js';
import type { Converted, ConvertOutcome, ConvertProblem } from './types.js';

/** A sheet longer than this is cut (a table of 100,000 rows reads as noise and swamps the index). */
const MAX_SHEET_ROWS = 2000;

const ZIP_TYPES = new Set(['.docx', '.xlsx', '.pptx', '.odt', '.ods', '.odp', '.epub']);

/**
 * Office files and e-books as Markdown. Every zip-based file is checked for a zip bomb before a
 * parser unpacks it. DOCX goes through mammoth (Word styles to semantic HTML) and kb's HTML path;
 * PPTX/ODP, XLSX/ODS, ODT and EPUB through officeparser's document tree: one `## Slide N`
 * section per slide, one `## Sheet` section (a table) per sheet, the book's own chapter headings.
 */
export async function convertOffice(
  bytes: Uint8Array,
  ext: string,
  fallbackTitle: string,
  maxUnpackedBytes?: number,
): Promise<ConvertOutcome> {
  const limits = { ...DEFAULT_ZIP_LIMITS, ...(maxUnpackedBytes ? { maxUnpackedBytes } : {}) };
  if (ZIP_TYPES.has(ext)) {
    const problem = checkZip(bytes, limits);
    if (problem) return { problem };
  }
  try {
    if (ext === '.docx') return await convertDocx(bytes, fallbackTitle);
    return await convertWithOfficeParser(
      bytes,
      ext.slice(1) as SupportedFileType,
      fallbackTitle,
      limits.maxUnpackedBytes,
    );
  } catch (err) {
    return { problem: broken(ext, err) };
  }
}

async function convertDocx(bytes: Uint8Array, fallbackTitle: string): Promise<ConvertOutcome> {
  const { default: mammoth } = await import('mammoth');
  const { value: html } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) });
  const props = await coreProperties(bytes);
  const converted = convertHtml(`<html><body>${html}</body></html>`, fallbackTitle);
  if (!converted.markdown.trim()) return { problem: empty('.docx') };
  converted.title = props.title ?? firstHeading(converted.markdown) ?? fallbackTitle;
  converted.meta = { ...props.meta };
  return { converted };
}

/** Title, author and dates from `docProps/core.xml` (Dublin Core), which mammoth does not read. */
async function coreProperties(bytes: Uint8Array): Promise<{ title?: string; meta: Record<string, unknown> }> {
  const { unzipSync, strFromU8 } = await import('fflate');
  const { XMLParser } = await import('fast-xml-parser');
  const part = unzipSync(bytes, { filter: (f) => f.name === 'docProps/core.xml' && f.originalSize < 1024 * 1024 })[
    'docProps/core.xml'
  ];
  if (!part) return { meta: {} };
  const xml = new XMLParser({ removeNSPrefix: true, ignoreAttributes: true, parseTagValue: false }).parse(
    strFromU8(part),
  ) as { coreProperties?: Record<string, unknown> };
  const p = xml.coreProperties ?? {};
  const text = (v: unknown) =>
    typeof v === 'string' && v.trim()
      ? v.trim()
      : typeof v === 'object' && v && typeof (v as { '#text'?: unknown })['#text'] === 'string'
        ? String((v as { '#text': string })['#text']).trim()
        : undefined;
  const meta: Record<string, unknown> = {};
  const author = text(p['creator']);
  if (author) meta['author'] = author;
  const created = text(p['created']);
  if (created) meta['published'] = created.slice(0, 10);
  const description = text(p['description']) ?? text(p['subject']);
  if (description) meta['description'] = description;
  const title = text(p['title']);
  return title ? { title, meta } : { meta };
}

async function convertWithOfficeParser(
  bytes: Uint8Array,
  fileType: SupportedFileType,
  fallbackTitle: string,
  maxUnpackedBytes: number,
): Promise<ConvertOutcome> {
  const { OfficeParser, OfficeGenerator } = await import('officeparser');
  const ast = await OfficeParser.parseOffice(Buffer.from(bytes), {
    fileType,
    ocr: false,
    extractAttachments: false,
    ignoreComments: true,
    ignoreHeadersAndFooters: true,
    ignoreSlideMasters: true,
    decompressionLimits: {
      maxUnpackedBytes: maxUnpackedBytes,
      maxUncompressedBytes: maxUnpackedBytes,
      maxZipEntries: DEFAULT_ZIP_LIMITS.maxEntries,
    } as never,
  });
  const toMarkdown = async (content: OfficeContentNode[], headingOffset = 0): Promise<string> => {
    if (!content.length) return '';
    const { value } = await OfficeGenerator.generate({ ...ast, content } as OfficeParserAST, 'html', {
      generateIds: false,
    } as never);
    return convertHtml(String(value), '', { headingOffset }).markdown.trim();
  };
  const notes: ConvertProblem[] = [];
  const sections: string[] = [];
  let loose: OfficeContentNode[] = [];
  const flush = async () => {
    const md = await toMarkdown(loose);
    if (md) sections.push(md);
    loose = [];
  };
  for (const node of ast.content) {
    if (node.type === 'slide') {
      await flush();
      const n = (node.metadata as { slideNumber?: number } | undefined)?.slideNumber ?? sections.length + 1;
      const children = node.children ?? [];
      const titleAt = children.findIndex((c) => c.type === 'heading');
      const title = titleAt >= 0 ? oneLine(nodeText(children[titleAt]!)) : '';
      const body = await toMarkdown(
        children.filter((_, i) => i !== titleAt),
        2,
      );
      sections.push(`## Slide ${n}${title ? `: ${title}` : ''}${body ? `\n\n${body}` : ''}`);
    } else if (node.type === 'sheet') {
      await flush();
      const name = (node.metadata as { sheetName?: string } | undefined)?.sheetName ?? `Sheet ${sections.length + 1}`;
      const rows = (node.children ?? [])
        .filter((c) => c.type === 'row')
        .map(cells)
        .filter((r) => r.some((c) => c !== ''));
      const kept = rows.slice(0, MAX_SHEET_ROWS);
      if (rows.length > kept.length)
        notes.push({
          ruleId: 'ingest-sheet-cut',
          severity: 'info',
          reason: `Sheet "${name}" has ${rows.length} rows; kb keeps the first ${MAX_SHEET_ROWS}`,
          note: 'split the sheet or export the part that matters',
        });
      const table = markdownTable(kept);
      sections.push(
        `## Sheet: ${name}${table ? `\n\n${table}` : ''}${rows.length > kept.length ? `\n\n_(${rows.length - kept.length} more rows not shown)_` : ''}`,
      );
    } else loose.push(node);
  }
  await flush();
  // A workbook is tables only: a sentence on what it holds gives it a summary.
  const sheets = ast.content
    .filter((n) => n.type === 'sheet')
    .map((n) => (n.metadata as { sheetName?: string } | undefined)?.sheetName ?? '');
  if (sheets.length && sheets.length === ast.content.length)
    sections.unshift(
      `Workbook of ${sheets.length} sheet${sheets.length === 1 ? '' : 's'}: ${sheets.filter(Boolean).join(', ')}.`,
    );
  const markdown = sections.join('\n\n').trim();
  if (!markdown) return { problem: empty(`.${fileType}`) };
  const meta: Record<string, unknown> = {};
  const m = ast.metadata ?? {};
  if (typeof m.author === 'string' && m.author.trim()) meta['author'] = m.author.trim();
  if (m.created instanceof Date && !Number.isNaN(m.created.getTime()))
    meta['published'] = m.created.toISOString().slice(0, 10);
  else if (typeof m.created === 'string') meta['published'] = String(m.created).slice(0, 10);
  if (typeof m.description === 'string' && m.description.trim()) meta['description'] = m.description.trim();
  const metaTitle = typeof m.title === 'string' && m.title.trim() ? oneLine(m.title) : undefined;
  const converted: Converted = {
    title: metaTitle ?? officeTitle(markdown) ?? fallbackTitle,
    markdown: `${markdown}\n`,
    meta,
  };
  return notes.length ? { converted, notes } : { converted };
}

/** A row's cell texts by column (empty cells kept, so that columns line up). */
function cells(row: OfficeContentNode): string[] {
  const out: string[] = [];
  for (const cell of row.children ?? []) {
    if (cell.type !== 'cell') continue;
    const col = (cell.metadata as { col?: number } | undefined)?.col ?? out.length;
    while (out.length < col) out.push('');
    out[col] = oneLine(nodeText(cell));
  }
  return out;
}

/** The first row is the header: the sheet's column names, in most sheets a person keeps. */
function markdownTable(rows: string[][]): string {
  if (!rows.length) return '';
  const width = Math.max(...rows.map((r) => r.length));
  const line = (r: string[]) =>
    `| ${Array.from({ length: width }, (_, i) => (r[i] ?? '').replace(/\\/g, '\\\\').replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(rows[0]!), `|${' --- |'.repeat(width)}`, ...rows.slice(1).map(line)].join('\n');
}

function nodeText(node: OfficeContentNode): string {
  return node.children?.length ? node.children.map(nodeText).join(node.type === 'cell' ? ' ' : '') : (node.text ?? '');
}

function slideTitle(markdown: string): string | undefined {
  return /^## Slide \d+: (.+)$/m.exec(markdown)?.[1];
}

/** A document's `# ` heading, a deck's first slide title, else its first heading of any level. */
function officeTitle(markdown: string): string | undefined {
  return firstHeading(markdown, { levelOne: true }) ?? slideTitle(markdown) ?? firstHeading(markdown);
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

const NAMES: Readonly<Record<string, string>> = {
  '.docx': 'Word document',
  '.xlsx': 'Excel workbook',
  '.pptx': 'PowerPoint presentation',
  '.odt': 'OpenDocument text',
  '.ods': 'OpenDocument spreadsheet',
  '.odp': 'OpenDocument presentation',
  '.epub': 'EPUB book',
};

function broken(ext: string, err: unknown): ConvertProblem {
  const why = (err as Error).message?.split('\n')[0] ?? String(err);
  return {
    ruleId: 'ingest-document-broken',
    reason: `Unexpected unreadable ${NAMES[ext] ?? 'document'} (${why}), expected a valid ${ext.slice(1).toUpperCase()} file`,
    note: 'open it and save it again with the program that made it',
  };
}

function empty(ext: string): ConvertProblem {
  return {
    ruleId: 'ingest-empty',
    reason: `Unexpected ${NAMES[ext] ?? 'document'} without text, expected some text`,
    note: 'if it holds only pictures, export them as images into raw/ for kb to OCR',
  };
}
