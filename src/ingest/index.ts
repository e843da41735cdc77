import { message, type KbMessage } from '../diagnostics/message.js';
import { cleanTitle } from '../entry/names.js';
import { detectLang } from '../text/script.js';
import type { ContentHash, RawDocument, RawType } from '../types.js';
import { convertAttachment, formatBytes } from './attachment.js';
import { cached } from './cache.js';
import { serially } from './serial.js';
import { convertCode } from './code.js';
import { decodeGuessing, decodeText } from './decode.js';
import { detectType, extension, fileName, maxBytesFor, OCR_MIME, stem } from './detect.js';
import { convertHtml, convertWebPage, declaredCharset, loadHtml } from './html.js';
import { convertMarkdown } from './markdown.js';
import { convertText } from './text.js';
import type { Converted, ConvertOutcome, ConvertProblem, IngestOptions, IngestResult, RawFile } from './types.js';
import { convertUrl, urlFromShortcut, urlFromWebloc } from './url.js';

export type { Converted, IngestOptions, IngestResult, RawFile, WalkResult } from './types.js';
export { walkRaw, compileIgnore, rawFileFinder } from './walk.js';
export { detectType, INGEST_VERSION, isHeavy, maxBytesFor, PLACE_HEADING, readsText } from './detect.js';
export { convertHtml } from './html.js';

/** Bump when PDF or Office conversion would give other Markdown for the same file (cached by it). */
const PDF_VERSION = 'doc-v1';
const OFFICE_VERSION = 'office-v2';

const TYPE_NAMES: Readonly<Record<RawType, string>> = {
  markdown: 'Markdown file',
  text: 'text file',
  html: 'HTML file',
  code: 'code file',
  url: 'link file',
  attachment: 'attachment',
  document: 'document',
  subtitle: 'subtitle file',
  mail: 'mail file',
  feed: 'feed',
};

/** Longest title kept, in characters: a heading that runs on for a page is not a title. */
export const MAX_TITLE = 200;

/** A title cut to `MAX_TITLE` characters, at a space when there is one near the end, marked with `…`. */
export function boundedTitle(title: string): string {
  if (title.length <= MAX_TITLE) return title;
  const chars = Array.from(title.slice(0, 4 * MAX_TITLE));
  if (chars.length <= MAX_TITLE && title.length <= 4 * MAX_TITLE) return title;
  let cut = chars.slice(0, MAX_TITLE - 1).join('');
  const space = cut.lastIndexOf(' ');
  if (space > MAX_TITLE / 2) cut = cut.slice(0, space);
  return `${cut.trimEnd()}…`;
}

/** The diagnostic for a file over its size limit (`maxBytesFor`), or undefined when it fits. */
function tooLarge(path: string, size: number, opts: IngestOptions, shown: string): IngestResult | undefined {
  const limit = maxBytesFor(path, {
    maxFileBytes: opts.maxFileBytes,
    maxDocumentBytes: opts.maxDocumentBytes ?? opts.maxFileBytes,
  });
  if (size <= limit) return undefined;
  const key = limit === opts.maxFileBytes ? 'maxFileBytes' : 'maxDocumentBytes';
  return {
    messages: [
      message(
        shown,
        'ingest-too-large',
        `Unexpected file of ${formatBytes(size)}, expected at most ${formatBytes(limit)}`,
        {
          note: `raise \`ingest.${key}\` in kb.config.json, or move the file out of raw/`,
        },
      ),
    ],
  };
}

/** The RawDocument of one converted file. */
function documentOf(
  file: RawFile,
  detected: ReturnType<typeof detectType>,
  hash: ContentHash,
  size: number,
  c: Converted,
  type: RawType,
  encoding?: string,
): RawDocument {
  const d: RawDocument = {
    path: file.path,
    absPath: file.absPath,
    type,
    hash,
    size,
    // A title becomes a file name and a link: no right-to-left override or other invisible character.
    title: boundedTitle(cleanTitle(c.title) || stem(file.path)),
    markdown: c.markdown,
    meta: c.meta,
    lang: detectLang(c.markdown),
  };
  if (c.url) d.url = c.url;
  if (encoding) d.encoding = encoding;
  if (detected.language) d.language = detected.language;
  if (detected.mime) d.mime = detected.mime;
  return d;
}

/**
 * Turn the bytes of one raw file into a RawDocument (Markdown text), or diagnostics saying why
 * not. Never throws: anything unexpected becomes an `ingest-failed` diagnostic. For a file larger
 * than its limit (`maxBytesFor`) the caller may pass empty `bytes` without reading it.
 */
export async function ingestFile(
  file: RawFile,
  bytes: Buffer,
  hash: ContentHash,
  opts: IngestOptions,
): Promise<IngestResult> {
  const shown = `raw/${file.path}`;
  try {
    return await ingest(file, bytes, hash, opts, shown);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return {
      messages: [
        message(shown, 'ingest-failed', `Unexpected error while ingesting (${why}), expected a readable document`, {
          note: 'kb skips this file; please report it if the file looks fine',
        }),
      ],
    };
  }
}

/**
 * `ingestFile` without its slow readers, for findsDocument. Text, Markdown, HTML (kb's own reading,
 * once loadHtml has loaded it), code and links come out as `ingestFile` makes them, in UTF-8 or a
 * declared charset; what needs an asynchronous reader (PDF, Office, OCR, mail, subtitles, feeds,
 * guessed encodings) is described as an attachment or read as plain text.
 */
function ingestFileSync(file: RawFile, bytes: Buffer, hash: ContentHash, opts: IngestOptions): IngestResult {
  const shown = `raw/${file.path}`;
  const size = Math.max(file.size, bytes.length);
  const messages: KbMessage[] = [];
  const tooBig = tooLarge(file.path, size, opts, shown);
  if (tooBig) return tooBig;
  const detected = detectType(file.path, bytes);
  const doc = (c: Converted, type: RawType = detected.type): IngestResult => ({
    doc: documentOf(file, detected, hash, size, c, type),
    messages,
  });
  try {
    if (detected.type === 'attachment' || detected.type === 'document' || extension(file.path) === '.webloc') {
      return doc(
        convertAttachment(fileName(file.path), file.path, detected.mime ?? 'application/octet-stream', size, bytes),
        'attachment',
      );
    }
    const decoded = decodeText(bytes, detected.type === 'html' ? declaredCharset(bytes) : undefined);
    if (!decoded.ok)
      return {
        messages: [
          message(shown, `ingest-${decoded.problem}`, `Unexpected ${decoded.problem} content, expected text`, {
            note: 'run `kb compile` for the details',
          }),
        ],
      };
    const text = decoded.text;
    if (detected.type === 'markdown') return doc(convertMarkdown(text, shown, stem(file.path)).converted);
    if (detected.type === 'html') {
      const c = convertHtml(text, stem(file.path));
      return c.markdown ? doc(c) : { messages };
    }
    if (detected.type === 'code') return doc(convertCode(text, fileName(file.path), detected.language ?? ''));
    return doc(convertText(text, stem(file.path)));
  } catch (err) {
    return {
      messages: [
        message(
          shown,
          'ingest-failed',
          `Unexpected error while ingesting (${(err as Error).message}), expected a readable document`,
          { note: 'kb skips this file' },
        ),
      ],
    };
  }
}

/**
 * Whether ingest finds a document in a file, read as ingestFileSync reads it (no PDF, OCR or Office
 * reader started): for the rare file the store recorded as empty (lint's input rule, compile's check).
 */
export async function findsDocument(
  file: RawFile,
  bytes: Buffer,
  hash: ContentHash,
  opts: IngestOptions,
): Promise<boolean> {
  await loadHtml();
  return Boolean(ingestFileSync(file, bytes, hash, opts).doc);
}

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one case per document format: the dispatch reads best as a single table from file type to reader
async function ingest(
  file: RawFile,
  bytes: Buffer,
  hash: ContentHash,
  opts: IngestOptions,
  shown: string,
): Promise<IngestResult> {
  const size = Math.max(file.size, bytes.length);
  const tooBig = tooLarge(file.path, size, opts, shown);
  if (tooBig) return tooBig;
  const detected = detectType(file.path, bytes);
  const messages: KbMessage[] = [];
  const doc = (c: Converted, encoding?: string, type: RawType = detected.type): IngestResult => ({
    doc: documentOf(file, detected, hash, size, c, type, encoding),
    messages,
  });
  const fail = (ruleId: string, reason: string, note: string): IngestResult => ({
    messages: [...messages, message(shown, ruleId, reason, { note })],
  });
  const what = TYPE_NAMES[detected.type];
  const note = (p: ConvertProblem) =>
    message(shown, p.ruleId, p.reason, { note: p.note, ...(p.severity ? { severity: p.severity } : {}) });
  const outcome = (o: ConvertOutcome, encoding?: string): IngestResult => {
    messages.push(...(o.notes ?? []).map(note));
    if (o.converted) return doc(o.converted, encoding);
    return { messages: [...messages, ...(o.problem ? [note(o.problem)] : [])] };
  };
  const ext = extension(file.path);

  if (detected.type === 'attachment') {
    const described = convertAttachment(
      fileName(file.path),
      file.path,
      detected.mime ?? 'application/octet-stream',
      size,
      bytes,
    );
    if (!OCR_MIME.has(detected.mime ?? '') || bytes.length === 0) return doc(described);
    const { OCR_VERSION, ocrImage } = await import('./ocr.js');
    const read = await cached(opts.cacheDir, hash, OCR_VERSION, () => serially(() => ocrImage(bytes)));
    if ('problem' in read) {
      messages.push(note(read.problem));
      return doc(described);
    }
    // An image without text (a photo, a diagram of shapes) stays the plain attachment entry it was.
    if (!read.text.trim()) return doc(described);
    return doc({
      ...described,
      markdown: `${described.markdown}\n## Text in the image\n\n${read.text}\n`,
      meta: { ...described.meta, ocr: { engine: OCR_VERSION, lines: read.lines } },
    });
  }
  if (detected.type === 'document') {
    if (bytes.length === 0)
      return fail('ingest-empty', `Unexpected empty ${what}, expected some text`, 'write something in it or delete it');
    const version = detected.mime === 'application/pdf' ? PDF_VERSION : OFFICE_VERSION;
    const converted = await cached(opts.cacheDir, hash, version, () =>
      serially(async () => {
        if (detected.mime === 'application/pdf')
          return (await import('./pdf.js')).convertPdf(bytes, stem(file.path), opts.onProgress);
        return (await import('./office.js')).convertOffice(bytes, ext, stem(file.path), opts.maxUnpackedBytes);
      }),
    );
    if (converted.converted) return outcome(converted);
    // Unreadable (a password, no text layer, a zip bomb): the diagnostic says why, and the file
    // keeps the entry an attachment has, as before kb read documents — nothing a person kept is dropped.
    messages.push(...(converted.problem ? [note(converted.problem)] : []));
    return doc(
      convertAttachment(fileName(file.path), file.path, detected.mime ?? 'application/octet-stream', size, bytes),
      undefined,
      'attachment',
    );
  }
  if (detected.type === 'mail') {
    if (bytes.length === 0)
      return fail('ingest-empty', `Unexpected empty ${what}, expected some text`, 'write something in it or delete it');
    return outcome(await (await import('./mail.js')).convertMail(bytes, ext, stem(file.path)));
  }
  if (detected.type === 'url' && extension(file.path) === '.webloc') {
    if (bytes.length === 0)
      return fail('ingest-empty', `Unexpected empty ${what}, expected some text`, 'write something in it or delete it');
    const url = urlFromWebloc(bytes);
    if (!url)
      return fail(
        'ingest-url',
        'Unexpected link file without a URL, expected `<key>URL</key><string>https://…</string>`',
        'save the link again from the browser',
      );
    return doc(convertUrl(url, stem(file.path)));
  }

  const decoded = await decodeGuessing(bytes, detected.type === 'html' ? declaredCharset(bytes) : undefined);
  if (!decoded.ok) {
    if (decoded.problem === 'empty')
      return fail('ingest-empty', `Unexpected empty ${what}, expected some text`, 'write something in it or delete it');
    if (decoded.problem === 'binary') {
      return fail(
        'ingest-binary',
        `Unexpected binary content in a ${what}, expected text`,
        'if it is not text, give it its real extension (e.g. `.pdf`) so kb files it as an attachment',
      );
    }
    const byte = (bytes[decoded.offset] ?? 0).toString(16).toUpperCase().padStart(2, '0');
    messages.push(
      message(
        shown,
        'ingest-encoding',
        `Unexpected byte 0x${byte} that is neither UTF-8 nor an encoding kb could recognise, expected text`,
        {
          place: decoded.place,
          note: 're-save the file as UTF-8',
        },
      ),
    );
    return { messages };
  }
  const text = decoded.text;
  const encoding = decoded.encoding;

  switch (detected.type) {
    case 'markdown': {
      const { converted, messages: found } = convertMarkdown(text, shown, stem(file.path));
      messages.push(...found);
      return doc(converted, encoding);
    }
    case 'html': {
      const converted = await convertWebPage(text, stem(file.path));
      if (!converted.markdown)
        return fail(
          'ingest-empty',
          'Unexpected HTML page without readable text, expected an article or body with text',
          'save the page again with its content (e.g. "Save Page As… > Web Page, Complete")',
        );
      return doc(converted, encoding);
    }
    case 'code':
      return doc(convertCode(text, fileName(file.path), detected.language ?? ''), encoding);
    case 'url': {
      const url = urlFromShortcut(text);
      if (!url)
        return fail(
          'ingest-url',
          'Unexpected link file without a URL, expected a `URL=https://…` line',
          'add the URL line or delete the file',
        );
      return doc(convertUrl(url, stem(file.path)));
    }
    case 'subtitle':
      return outcome(await (await import('./subtitle.js')).convertSubtitle(text, ext, stem(file.path)), encoding);
    case 'feed':
      return outcome(await (await import('./feed.js')).convertFeed(text, stem(file.path)), encoding);
    default:
      return doc(convertText(text, stem(file.path)), encoding);
  }
}
