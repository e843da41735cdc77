import { convertHtml, loadHtml } from './html.js';
import { firstHeading } from './markdown.js';
import { type OfficeDoc, type OfficeMeta, oneLine } from './office-xml.js';
import { checkZip, DEFAULT_ZIP_LIMITS } from './zip.js';
import type { Converted, ConvertOutcome, ConvertProblem } from './types.js';

/** A sheet longer than this is cut (a table of 100,000 rows reads as noise and swamps the index). */
const MAX_SHEET_ROWS = 2000;

const ZIP_TYPES = new Set(['.docx', '.xlsx', '.pptx', '.odt', '.ods', '.odp', '.epub']);

/**
 * Office files and e-books as Markdown. Every zip-based file is checked for a zip bomb before a
 * parser unpacks it. DOCX goes through mammoth (Word styles to semantic HTML) and kb's HTML path;
 * PPTX/ODP, XLSX/ODS, ODT and EPUB are read from their XML (ooxml.ts, odf.ts, epub.ts): one
 * `## Slide N` section per slide, one `## Sheet` section (a table) per sheet, the book's own
 * chapter headings.
 */
export async function convertOffice(
  bytes: Uint8Array,
  ext: string,
  fallbackTitle: string,
  maxUnpackedBytes?: number,
): Promise<ConvertOutcome> {
  await loadHtml();
  const limits = { ...DEFAULT_ZIP_LIMITS, ...(maxUnpackedBytes ? { maxUnpackedBytes } : {}) };
  if (ZIP_TYPES.has(ext)) {
    const problem = checkZip(bytes, limits);
    if (problem) return { problem };
  }
  try {
    if (ext === '.docx') return await convertDocx(bytes, fallbackTitle);
    return convertParts(await readDocument(bytes, ext), ext, fallbackTitle);
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
  const { dublinCore, parseXml, path, readZip } = await import('./office-xml.js');
  const core = readZip(bytes, (n) => n === 'docProps/core.xml').get('docProps/core.xml');
  const props = dublinCore(path(parseXml(core), 'coreProperties'));
  return props.title ? { title: props.title, meta: metaFields(props) } : { meta: metaFields(props) };
}

/** The entry's `author`, `published` (a date) and `description` from a document's properties. */
function metaFields({ author, created, description }: OfficeMeta): Record<string, unknown> {
  const meta: Record<string, unknown> = {};
  if (author) meta['author'] = author;
  if (created && /^\d{4}-\d\d-\d\d/.test(created)) meta['published'] = created.slice(0, 10);
  if (description) meta['description'] = description;
  return meta;
}

async function readDocument(bytes: Uint8Array, ext: string): Promise<OfficeDoc> {
  if (ext === '.pptx') return (await import('./ooxml.js')).readPptx(bytes);
  if (ext === '.xlsx') return (await import('./ooxml.js')).readXlsx(bytes);
  if (ext === '.epub') return (await import('./epub.js')).readEpub(bytes);
  return (await import('./odf.js')).readOdf(bytes);
}

/** A document's parts as Markdown: flowing text, `## Slide N: title` sections, `## Sheet: name` tables. */
function convertParts(doc: OfficeDoc, ext: string, fallbackTitle: string): ConvertOutcome {
  const notes: ConvertProblem[] = [];
  const sections: string[] = [];
  for (const part of doc.parts) {
    if (part.kind === 'html') {
      const md = convertHtml(`<html><body>${part.html}</body></html>`, '').markdown.trim();
      if (md) sections.push(md);
    } else if (part.kind === 'slide') {
      const body = convertHtml(`<html><body>${part.html}</body></html>`, '', { headingOffset: 2 }).markdown.trim();
      sections.push(`## Slide ${part.n}${part.title ? `: ${part.title}` : ''}${body ? `\n\n${body}` : ''}`);
    } else {
      const rows = part.rows.filter((r) => r.some((c) => c !== ''));
      const kept = rows.slice(0, MAX_SHEET_ROWS);
      if (rows.length > kept.length)
        notes.push({
          ruleId: 'ingest-sheet-cut',
          severity: 'info',
          reason: `Sheet "${part.name}" has ${rows.length} rows; kb keeps the first ${MAX_SHEET_ROWS}`,
          note: 'split the sheet or export the part that matters',
        });
      const table = markdownTable(kept);
      sections.push(
        `## Sheet: ${part.name}${table ? `\n\n${table}` : ''}${rows.length > kept.length ? `\n\n_(${rows.length - kept.length} more rows not shown)_` : ''}`,
      );
    }
  }
  // A workbook is tables only: a sentence on what it holds gives it a summary.
  const sheets = doc.parts.flatMap((p) => (p.kind === 'sheet' ? [p.name] : []));
  if (sheets.length && sheets.length === doc.parts.length)
    sections.unshift(
      `Workbook of ${sheets.length} sheet${sheets.length === 1 ? '' : 's'}: ${sheets.filter(Boolean).join(', ')}.`,
    );
  const markdown = sections.join('\n\n').trim();
  if (!markdown) return { problem: empty(ext) };
  const converted: Converted = {
    title: (doc.meta.title && oneLine(doc.meta.title)) || officeTitle(markdown) || fallbackTitle,
    markdown: `${markdown}\n`,
    meta: metaFields(doc.meta),
  };
  return notes.length ? { converted, notes } : { converted };
}

/** The first row is the header: the sheet's column names, in most sheets a person keeps. */
function markdownTable(rows: string[][]): string {
  if (!rows.length) return '';
  const width = Math.max(...rows.map((r) => r.length));
  const line = (r: string[]) =>
    `| ${Array.from({ length: width }, (_, i) => (r[i] ?? '').replace(/\\/g, '\\\\').replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(rows[0]!), `|${' --- |'.repeat(width)}`, ...rows.slice(1).map(line)].join('\n');
}

function slideTitle(markdown: string): string | undefined {
  return /^## Slide \d+: (.+)$/m.exec(markdown)?.[1];
}

/** A document's `# ` heading, a deck's first slide title, else its first heading of any level. */
function officeTitle(markdown: string): string | undefined {
  return firstHeading(markdown, { levelOne: true }) ?? slideTitle(markdown) ?? firstHeading(markdown);
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
