/** Helpers for text that comes out of binary formats (PDF, OCR, subtitles, mail): plain text made safe as Markdown. */

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;

/** Wrapped lines of one paragraph as one line: no space between CJK characters, none after a hyphen. */
export function joinWrapped(lines: string[]): string {
  let out = '';
  for (const line of lines) {
    if (!out) out = line;
    else if (CJK.test(out.slice(-1)) || CJK.test(line[0] ?? '') || /\p{L}-$/u.test(out)) out += line;
    else out += ` ${line}`;
  }
  return out;
}

/**
 * Plain text lines that Markdown would read as syntax made literal: headings, quotes, fences,
 * HTML, setext underlines and thematic breaks (and quotes, unless `quotes`: mail quotes read well as Markdown).
 */
export function escapeLines(text: string, opts: { quotes?: boolean } = {}): string {
  const syntax = opts.quotes
    ? /^\s{0,3}(?:#|```|~~~|<|[=-]{3,}\s*$|\*{3,}\s*$|_{3,}\s*$)/
    : /^\s{0,3}(?:#|>|```|~~~|<|[=-]{3,}\s*$|\*{3,}\s*$|_{3,}\s*$)/;
  return text
    .split('\n')
    .map((l) => (syntax.test(l) ? l.replace(/^(\s*)/, '$1\\') : l))
    .join('\n');
}
