import { splitTarget, type WikiLinkRef } from './link-ref.js';

/*
 * Wiki links of a document written in the plain Markdown kb writes, found without building a syntax
 * tree (remark takes seconds on a large concept entry). Anything that could make `[[` mean something
 * else (fences, indented code, HTML, escapes, tabs, blockquotes, Markdown links, `![[`, a code span
 * that may run over a line) is not handled here: the answer is then undefined and the caller parses
 * the document with remark. test/plain-links.test.ts checks the two agree.
 */

/**
 * `[[target]]` or `[[target|alias]]` as remark-wiki-link reads them, minus `[` inside (not handled
 * here). remark wants a character other than a space in each part: checked after the match.
 */
const LINK = /\[\[([^[\]|\n]+)(?:\|([^[\]\n]+))?\]\]/g;
export const BLANK = /^ *$/;

/** A line holding only an HTML comment: an HTML block that ends on the same line (kb's section markers). */
export const COMMENT_LINE = /^<!--[^<>[\]`\n]*-->$/;
/** Blockquote or fence, also inside list items (`- > x`, `1. ~~~`). */
const UNSAFE_LINE = /^(?: {0,3}(?:[-+*]|\d{1,9}[.)])(?= |$) *)* {0,3}(?:```|~~~|>)/;

/** The wiki links of `markdown`, or undefined when it holds anything but plain text, lists and headings. */
export function plainWikiLinks(markdown: string): WikiLinkRef[] | undefined {
  if (!markdown.includes('[')) return [];
  if (/[\r\t\\\0]/.test(markdown)) return undefined;
  const out: WikiLinkRef[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (UNSAFE_LINE.test(line)) return undefined;
    if (line.includes('<')) {
      if (COMMENT_LINE.test(line)) continue;
      return undefined;
    }
    const found = lineLinks(line, i + 1, out);
    if (!found) return undefined;
  }
  return out;
}

/** Links of one line into `out`; false when the line needs the full parser. */
function lineLinks(line: string, lineNo: number, out: WikiLinkRef[]): boolean {
  const spans = codeSpans(line);
  if (spans === undefined) return false;
  let text = line;
  for (const [a, b] of spans) text = text.slice(0, a) + 'x'.repeat(b - a) + text.slice(b);
  if (!text.includes('[')) return true;
  // Four spaces before the first link may open indented code (also after a list marker: `-     [[x]]`).
  if (text.slice(0, text.indexOf('[')).includes('    ')) return false;
  let links = 0;
  LINK.lastIndex = 0;
  for (let m = LINK.exec(text); m; m = LINK.exec(text)) {
    const at = m.index;
    const end = at + m[0].length;
    const alias = m[2];
    if (BLANK.test(m[1]!) || (alias !== undefined && BLANK.test(alias))) return false;
    if (text[at - 1] === '!' || spans.some(([a, b]) => a < end && b > at)) return false;
    links++;
    const ref = splitTarget(m[1]!) as WikiLinkRef;
    ref.line = lineNo;
    ref.column = at + 1;
    ref.embed = false;
    if (alias !== undefined && alias !== m[1]) ref.alias = alias;
    out.push(ref);
  }
  // Any other bracket may open or close a Markdown link around or inside these.
  return count(text, '[') === 2 * links && count(text, ']') === 2 * links;
}

function count(text: string, c: string): number {
  let n = 0;
  for (let i = text.indexOf(c); i >= 0; i = text.indexOf(c, i + 1)) n++;
  return n;
}

/**
 * Code spans of a line as [start, end) offsets, each opening run of backticks closed by the next run
 * of the same length; undefined when a run is not closed on the line (it may close on the next).
 */
function codeSpans(line: string): [number, number][] | undefined {
  if (!line.includes('`')) return [];
  const runs = [...line.matchAll(/`+/g)].map((m) => [m.index ?? 0, m[0].length] as const);
  const out: [number, number][] = [];
  for (let r = 0; r < runs.length; r++) {
    const [start, len] = runs[r]!;
    let close = r + 1;
    while (close < runs.length && runs[close]![1] !== len) close++;
    if (close >= runs.length) return undefined;
    out.push([start, runs[close]![0] + len]);
    r = close;
  }
  return out;
}
