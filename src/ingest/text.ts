import type { Converted } from './types.js';

const MAX_TITLE = 80;
/** A first line ending like a sentence is prose, not a title. */
const SENTENCE_END = /[.。!?！？;；,，:：…]$/u;

/** Plain text: kept as it is (it reads fine as Markdown); the title is a short first line or the file name. */
export function convertText(text: string, fallbackTitle: string): Converted {
  return { title: textTitle(text) ?? fallbackTitle, markdown: text, meta: {} };
}

function textTitle(text: string): string | undefined {
  const first = /\S/u.exec(text);
  if (!first) return undefined;
  const end = text.indexOf('\n', first.index);
  const line = text.slice(first.index, end === -1 ? undefined : end).trim();
  // A first line this long is no title (and is not worth a pattern's time).
  if (line.length > MAX_TITLE * 8) return undefined;
  // Heading marks are not part of the title.
  const title = line.replace(/^#+\s+/, '').replace(/(?<!\s)\s+#+$/, '').trim();
  if (!title || [...title].length > MAX_TITLE || SENTENCE_END.test(title)) return undefined;
  if (!/[\p{L}\p{N}]/u.test(title)) return undefined;
  return title;
}
