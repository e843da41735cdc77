import type { WikiLinkRef } from '../../parse/link-ref.js';
import { BLANK, COMMENT_LINE } from '../../parse/plain-links.js';

/*
 * A line scan that proves, without a syntax tree, that no paragraph of an entry lacks a citation.
 * It answers true only when every line that can belong to a paragraph either holds a wiki link to a
 * source (as remark sees it: `links` come from the plain-Markdown scan, which gives up on anything
 * unusual) or is a paragraph of its own too short to count. Otherwise false, and the caller parses.
 */

const ATX = /^#{1,6}(?: |$)/;
const BULLET = /^[-*+] +\S/;

/**
 * True when no paragraph of `body` after its summary can lack a citation. `links` are the body's
 * wiki links; `isSource` says whether a link target is a source entry; `minChars` is the length
 * under which a paragraph is not checked.
 */
export function surelyCited(
  body: string,
  links: readonly WikiLinkRef[],
  isSource: (target: string) => boolean,
  minChars: number,
): boolean {
  const lines = body.split('\n');
  const cited = citedLines(lines, links, isSource);
  if (!cited) return false;
  const skip = summaryLines(lines);
  if (skip === undefined) return false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (skip.has(i) || BLANK.test(line) || ATX.test(line) || COMMENT_LINE.test(line) || cited.has(i + 1)) continue;
    if (!aloneAndShort(lines, i, minChars)) return false;
  }
  return true;
}

/** Line numbers (1-based) holding a link to a source, or undefined when the links are not plain. */
function citedLines(
  lines: readonly string[],
  links: readonly WikiLinkRef[],
  isSource: (target: string) => boolean,
): Set<number> | undefined {
  const out = new Set<number>();
  for (const l of links) {
    const line = lines[l.line - 1];
    if (line === undefined || l.embed) return undefined;
    // Only a link whose text is exactly its target, so the name looked up is the one remark gives.
    const at = l.column - 1;
    if (!line.startsWith(`[[${l.target}`, at) || !'#|]'.includes(line[at + 2 + l.target.length] ?? '')) continue;
    if (isSource(l.target)) out.add(l.line);
  }
  return out;
}

/**
 * Indexes of the summary paragraph's lines: the first block after leading H1 headings, when it is
 * plain lines that nothing can interrupt; an empty set when there is none, undefined when unsure.
 */
function summaryLines(lines: readonly string[]): Set<number> | undefined {
  let i = 0;
  while (i < lines.length && (BLANK.test(lines[i]!) || /^# /.test(lines[i]!))) i++;
  const out = new Set<number>();
  if (i >= lines.length || ATX.test(lines[i]!) || COMMENT_LINE.test(lines[i]!) || BULLET.test(lines[i]!)) return out;
  for (; i < lines.length && !BLANK.test(lines[i]!); i++) {
    // Anything that may open or end a block other than a paragraph: leave it to the parser.
    if (/^(?: |[-*+=_#>|`~<]|\d+[.)])/.test(lines[i]!)) return undefined;
    out.add(i);
  }
  return out;
}

/** A bullet line that is a whole paragraph (nothing can continue it) with fewer than `min` characters. */
function aloneAndShort(lines: readonly string[], i: number, min: number): boolean {
  const line = lines[i]!;
  if (!BULLET.test(line)) return false;
  const next = lines[i + 1];
  if (next !== undefined && !(BLANK.test(next) || ATX.test(next) || COMMENT_LINE.test(next) || BULLET.test(next))) {
    return false;
  }
  return Array.from(line.slice(2).trim()).length < min;
}
