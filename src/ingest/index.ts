import { message, type KbMessage } from '../diagnostics/message.js';
import { cleanTitle } from '../entry/names.js';
import { detectLang } from '../text/script.js';
import type { ContentHash, RawDocument, RawType } from '../types.js';
import { convertAttachment, formatBytes } from './attachment.js';
import { convertCode } from './code.js';
import { decodeText } from './decode.js';
import { detectType, extension, fileName, stem } from './detect.js';
import { convertHtml, declaredCharset } from './html.js';
import { convertMarkdown } from './markdown.js';
import { convertText } from './text.js';
import type { Converted, IngestResult, RawFile } from './types.js';
import { convertUrl, urlFromShortcut, urlFromWebloc } from './url.js';

export type { Converted, IngestResult, RawFile, WalkResult } from './types.js';
export { walkRaw, compileIgnore } from './walk.js';
export { detectType } from './detect.js';
export { convertHtml } from './html.js';

const TYPE_NAMES: Readonly<Record<RawType, string>> = {
  markdown: 'Markdown file',
  text: 'text file',
  html: 'HTML file',
  code: 'code file',
  url: 'link file',
  attachment: 'attachment',
};

/**
 * Turn the bytes of one raw file into a RawDocument (Markdown text), or diagnostics saying why
 * not. Never throws: anything unexpected becomes an `ingest-failed` diagnostic. For a file larger
 * than `maxFileBytes` the caller may pass empty `bytes` without reading it.
 */
export async function ingestFile(file: RawFile, bytes: Buffer, hash: ContentHash, opts: { maxFileBytes: number }): Promise<IngestResult> {
  return ingestFileSync(file, bytes, hash, opts);
}

/** `ingestFile` for callers that cannot wait (lint's input). */
export function ingestFileSync(file: RawFile, bytes: Buffer, hash: ContentHash, opts: { maxFileBytes: number }): IngestResult {
  const shown = `raw/${file.path}`;
  try {
    return ingest(file, bytes, hash, opts, shown);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return {
      messages: [message(shown, 'ingest-failed', `Unexpected error while ingesting (${why}), expected a readable document`, { note: 'kb skips this file; please report it if the file looks fine' })],
    };
  }
}

function ingest(file: RawFile, bytes: Buffer, hash: ContentHash, opts: { maxFileBytes: number }, shown: string): IngestResult {
  const size = Math.max(file.size, bytes.length);
  if (size > opts.maxFileBytes) {
    return {
      messages: [
        message(shown, 'ingest-too-large', `Unexpected file of ${formatBytes(size)}, expected at most ${formatBytes(opts.maxFileBytes)}`, {
          note: 'raise `ingest.maxFileBytes` in kb.config.json, or move the file out of raw/',
        }),
      ],
    };
  }

  const detected = detectType(file.path, bytes);
  const messages: KbMessage[] = [];
  const doc = (c: Converted): IngestResult => {
    const d: RawDocument = {
      path: file.path,
      absPath: file.absPath,
      type: detected.type,
      hash,
      size,
      // A title becomes a file name and a link: no right-to-left override or other invisible character.
      title: cleanTitle(c.title) || stem(file.path),
      markdown: c.markdown,
      meta: c.meta,
      lang: detectLang(c.markdown),
    };
    if (c.url) d.url = c.url;
    if (detected.language) d.language = detected.language;
    if (detected.mime) d.mime = detected.mime;
    return { doc: d, messages };
  };
  const fail = (ruleId: string, reason: string, note: string): IngestResult => ({ messages: [...messages, message(shown, ruleId, reason, { note })] });
  const what = TYPE_NAMES[detected.type];

  if (detected.type === 'attachment') {
    return doc(convertAttachment(fileName(file.path), file.path, detected.mime ?? 'application/octet-stream', size, bytes));
  }
  if (detected.type === 'url' && extension(file.path) === '.webloc') {
    if (bytes.length === 0) return fail('ingest-empty', `Unexpected empty ${what}, expected some text`, 'write something in it or delete it');
    const url = urlFromWebloc(bytes);
    if (!url) return fail('ingest-url', 'Unexpected link file without a URL, expected `<key>URL</key><string>https://…</string>`', 'save the link again from the browser');
    return doc(convertUrl(url, stem(file.path)));
  }

  const decoded = decodeText(bytes, detected.type === 'html' ? declaredCharset(bytes) : undefined);
  if (!decoded.ok) {
    if (decoded.problem === 'empty') return fail('ingest-empty', `Unexpected empty ${what}, expected some text`, 'write something in it or delete it');
    if (decoded.problem === 'binary') {
      return fail('ingest-binary', `Unexpected binary content in a ${what}, expected text`, 'if it is not text, give it its real extension (e.g. `.pdf`) so kb files it as an attachment');
    }
    const byte = (bytes[decoded.offset] ?? 0).toString(16).toUpperCase().padStart(2, '0');
    messages.push(
      message(shown, 'ingest-encoding', `Unexpected byte 0x${byte} that is not UTF-8, expected UTF-8 text`, {
        place: decoded.place,
        note: 're-save the file as UTF-8',
      }),
    );
    return { messages };
  }
  const text = decoded.text;

  switch (detected.type) {
    case 'markdown': {
      const { converted, messages: found } = convertMarkdown(text, shown, stem(file.path));
      messages.push(...found);
      return doc(converted);
    }
    case 'html': {
      const converted = convertHtml(text, stem(file.path));
      if (!converted.markdown) return fail('ingest-empty', 'Unexpected HTML page without readable text, expected an article or body with text', 'save the page again with its content (e.g. "Save Page As… > Web Page, Complete")');
      return doc(converted);
    }
    case 'code':
      return doc(convertCode(text, fileName(file.path), detected.language ?? ''));
    case 'url': {
      const url = urlFromShortcut(text);
      if (!url) return fail('ingest-url', 'Unexpected link file without a URL, expected a `URL=https://…` line', 'add the URL line or delete the file');
      return doc(convertUrl(url, stem(file.path)));
    }
    default:
      return doc(convertText(text, stem(file.path)));
  }
}
