import { escapeLines, joinWrapped } from './plain.js';
import type { Converted, ConvertOutcome } from './types.js';

/** Emit page progress this often on long documents. */
const PROGRESS_EVERY = 10;

interface TextItem {
  str: string;
  hasEOL: boolean;
  transform: number[];
  height: number;
}

/**
 * A PDF's text in reading order (the content stream's order, which is the reading order for
 * nearly every PDF a person keeps), one `## p. N` section per page so that every chunk and every
 * citation knows its page. The title comes from the metadata unless it is a placeholder, else from
 * the first line of the first page. Pages are read one at a time and released: memory stays
 * bounded by one page, whatever the page count.
 */
export async function convertPdf(
  bytes: Uint8Array,
  fallbackTitle: string,
  onProgress?: (done: number, total: number) => void,
): Promise<ConvertOutcome> {
  const { getDocumentProxy } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, stopAtErrors: false });
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name === 'PasswordException') {
      return {
        problem: {
          ruleId: 'ingest-pdf-encrypted',
          reason: 'Unexpected password-protected PDF, expected one kb can open',
          note: 'save a copy without the password (Print > Save as PDF) into raw/',
        },
      };
    }
    return {
      problem: {
        ruleId: 'ingest-pdf-broken',
        reason: `Unexpected broken PDF (${(err as Error).message}), expected a readable PDF`,
        note: 'open and save it again with a PDF viewer, or export it again',
      },
    };
  }
  try {
    const meta = await pdf.getMetadata().catch(() => undefined);
    const info = (meta?.info ?? {}) as Record<string, unknown>;
    const pages: string[] = [];
    let textChars = 0;
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const text = pageText(content.items as TextItem[]);
      textChars += text.replace(/\s/g, '').length;
      pages.push(text);
      page.cleanup();
      if (onProgress && (n % PROGRESS_EVERY === 0 || n === pdf.numPages)) onProgress(n, pdf.numPages);
    }
    if (textChars === 0) {
      return {
        problem: {
          ruleId: 'ingest-pdf-no-text',
          reason: `Unexpected PDF of ${pdf.numPages} page${pdf.numPages === 1 ? '' : 's'} without a text layer (scanned?), expected text`,
          note: 'run it through OCR first (e.g. `ocrmypdf`), or save the pages as images in raw/ for kb to OCR',
        },
      };
    }
    const title = pdfTitle(info, pages[0] ?? '') ?? fallbackTitle;
    const body = pages.map((text, i) => `## p. ${i + 1}\n\n${text || '_(no text on this page)_'}`).join('\n\n');
    const converted: Converted = { title, markdown: `${body}\n`, meta: pdfMeta(info, pdf.numPages) };
    return { converted };
  } finally {
    await pdf.destroy();
  }
}

/**
 * Lines from positioned text items: a new line at an end-of-line mark or when the baseline moves;
 * a blank line (new paragraph) where the gap between baselines is clearly larger than the usual.
 */
export function pageText(items: TextItem[]): string {
  const lines: { text: string; y: number; h: number }[] = [];
  let cur: { text: string; y: number; h: number } | undefined;
  for (const it of items) {
    const y = it.transform[5] ?? 0;
    const h = Math.abs(it.height || it.transform[3] || 0);
    if (cur && it.str && Math.abs(cur.y - y) > Math.max(2, h * 0.5) && cur.text.trim()) {
      lines.push(cur);
      cur = undefined;
    }
    if (it.str) {
      if (!cur) cur = { text: '', y, h };
      cur.text += it.str;
      cur.h = Math.max(cur.h, h);
    }
    if (it.hasEOL && cur) {
      lines.push(cur);
      cur = undefined;
    }
  }
  if (cur) lines.push(cur);
  const kept = lines.map((l) => ({ ...l, text: l.text.replace(/\s+/g, ' ').trim() })).filter((l) => l.text);
  if (!kept.length) return '';
  const gaps = kept
    .slice(1)
    .map((l, i) => Math.abs((kept[i] as { y: number }).y - l.y))
    .filter((g) => g > 0)
    .sort((a, b) => a - b);
  const usual = gaps[Math.floor(gaps.length / 2)] ?? 0;
  const paragraphs: string[][] = [[]];
  kept.forEach((l, i) => {
    const prev = kept[i - 1];
    const gap = prev ? Math.abs(prev.y - l.y) : 0;
    const resized = prev && prev.h > 0 && l.h > 0 && Math.max(prev.h, l.h) / Math.min(prev.h, l.h) > 1.25;
    if (prev && ((usual > 0 && gap > usual * 1.45) || resized)) paragraphs.push([]);
    (paragraphs[paragraphs.length - 1] as string[]).push(l.text);
  });
  return paragraphs
    .filter((p) => p.length)
    .map((p) => escapeLines(joinWrapped(p)))
    .join('\n\n');
}

/** Metadata titles that name the tool or a temp file, not the work. */
const PLACEHOLDER_TITLE =
  /^(?:untitled|document\d*|microsoft (?:word|powerpoint) - .*|slide \d+|.*\.(?:docx?|pptx?|tex|dvi|pdf|indd|qxd))$/i;

function pdfTitle(info: Record<string, unknown>, firstPage: string): string | undefined {
  const t = typeof info['Title'] === 'string' ? info['Title'].replace(/\s+/g, ' ').trim() : '';
  if (t && !PLACEHOLDER_TITLE.test(t) && /[\p{L}\p{N}]/u.test(t)) return t;
  const first = firstPage
    .split('\n')
    .map((l) => l.trim())
    .find((l) => /[\p{L}\p{N}]/u.test(l));
  if (first && [...first].length <= 120) return first.replace(/^\\/, '');
  return undefined;
}

function pdfMeta(info: Record<string, unknown>, pages: number): Record<string, unknown> {
  const meta: Record<string, unknown> = { pages };
  if (typeof info['Author'] === 'string' && info['Author'].trim()) meta['author'] = info['Author'].trim();
  if (typeof info['Subject'] === 'string' && info['Subject'].trim()) meta['description'] = info['Subject'].trim();
  if (typeof info['Keywords'] === 'string' && info['Keywords'].trim()) meta['keywords'] = info['Keywords'].trim();
  const created = pdfDate(info['CreationDate']);
  if (created) meta['published'] = created;
  return meta;
}

/** `D:20240131120000+08'00'` → `2024-01-31`. */
function pdfDate(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^D:(\d{4})(\d{2})?(\d{2})?/.exec(v);
  if (!m) return undefined;
  return [m[1], m[2] ?? '01', m[3] ?? '01'].join('-');
}
