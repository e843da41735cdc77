/**
 * Top-level block structure of a Markdown document, found by a line scanner that follows the
 * CommonMark + GFM block rules that matter for chunking: ATX and setext headings, fenced and
 * indented code, block quotes, lists, tables, HTML blocks, thematic breaks, paragraphs and YAML
 * front matter.
 *
 * Why not remark-parse: micromark tokenises every character, inline content included; on this
 * machine it needs 6–15 s for 1,000 documents of 5 KB (0.3–0.8 MB/s), far over the chunker's
 * budget. Chunking only needs top-level block boundaries, which are line-based. `blocks.test.ts`
 * checks the scanner against remark-parse + remark-gfm on a table of documents.
 */

import { withoutAttributes } from '../text/layout.js';

export type BlockKind =
  | 'frontmatter'
  | 'heading'
  | 'code'
  | 'indentedCode'
  | 'paragraph'
  | 'list'
  | 'quote'
  | 'table'
  | 'html'
  | 'thematicBreak';

export interface Fence {
  /** The opening line as written, indentation included (e.g. "```ts title=a.ts"). */
  open: string;
  /** The fence characters only (e.g. "```" or "~~~~"). */
  marker: string;
  /** Leading spaces of the opening fence. */
  indent: number;
  /** Info string (language and attributes), trimmed. */
  info: string;
  /** False when the document ends before the closing fence. */
  closed: boolean;
}

export interface Block {
  kind: BlockKind;
  /** Offset of the first character of the block's first line. */
  start: number;
  /** Offset just past the last character of the block's last line (line ending excluded). */
  end: number;
  /** 0-based index of the first line. */
  firstLine: number;
  /** 0-based index of the last line (inclusive). */
  lastLine: number;
  /** Headings: level 1–6 and the plain text. */
  depth?: number;
  title?: string;
  /** Fenced code. */
  fence?: Fence;
  /** Lists: 0-based line index where each item starts. */
  items?: number[];
}

/** Lines of a document with their offsets; `\r\n` and `\r`-free views for matching. */
export class Lines {
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  readonly text: string[] = [];

  constructor(readonly source: string) {
    let pos = 0;
    const n = source.length;
    while (pos <= n) {
      let nl = source.indexOf('\n', pos);
      if (nl === -1) nl = n;
      const end = nl > pos && source.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      this.starts.push(pos);
      this.ends.push(end);
      this.text.push(source.slice(pos, end));
      if (nl === n) break;
      pos = nl + 1;
    }
  }

  get length(): number {
    return this.text.length;
  }

  line(i: number): string {
    return this.text[i] ?? '';
  }

  start(i: number): number {
    return this.starts[i] ?? this.source.length;
  }

  end(i: number): number {
    return this.ends[i] ?? this.source.length;
  }

  /** 0-based line index of an offset (binary search). */
  lineAt(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

const BLANK = /^[ \t]*$/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+|$)(.*)$/;
const FENCE_OPEN = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const THEMATIC = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const QUOTE = /^ {0,3}>/;
const DEFINITION = /^ {0,3}\[(?:[^\]\\]|\\.)+\]:[ \t]*\S/;
export const LIST_ITEM = /^( {0,3})([-+*]|(\d{1,9})[.)])([ \t]+|$)/;
const TABLE_DELIM = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

const HTML_BLOCK_TAGS = new Set(
  (
    'address article aside base basefont blockquote body caption center col colgroup dd details dialog dir ' +
    'div dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html ' +
    'iframe legend li link main menu menuitem nav noframes ol optgroup option p param search section summary ' +
    'table tbody td tfoot th thead title tr track ul'
  ).split(' '),
);
const HTML_RAW = /^ {0,3}<(script|pre|style|textarea)(?:[ \t>]|$)/i;
const HTML_TAG6 = /^ {0,3}<\/?([A-Za-z][A-Za-z0-9-]*)(?:[ \t>]|\/>|$)/;
const HTML_TAG7 =
  /^ {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:[ \t]+[A-Za-z_:][\w.:-]*(?:[ \t]*=[ \t]*(?:[^ \t"'=<>`]+|'[^']*'|"[^"]*"))?)*[ \t]*\/?>|<\/[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*$/;

/** Width of the leading whitespace (tabs to the next multiple of 4). */
function indentWidth(line: string): number {
  let w = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 32) w++;
    else if (c === 9) w += 4 - (w % 4);
    else break;
  }
  return w;
}

/** Remove `width` columns of leading whitespace. */
export function dedent(line: string, width: number): string {
  let w = 0;
  let i = 0;
  while (i < line.length && w < width) {
    const c = line.charCodeAt(i);
    if (c === 32) w++;
    else if (c === 9) w += 4 - (w % 4);
    else break;
    i++;
  }
  return line.slice(i);
}

export interface FenceOpen {
  indent: number;
  marker: string;
  info: string;
}

export function matchFenceOpen(line: string): FenceOpen | undefined {
  const m = FENCE_OPEN.exec(line);
  if (!m) return undefined;
  const marker = m[2] ?? '';
  const info = m[3] ?? '';
  if (marker.charCodeAt(0) === 96 && info.includes('`')) return undefined;
  return { indent: (m[1] ?? '').length, marker, info: info.trim() };
}

export function isFenceClose(line: string, open: { marker: string }): boolean {
  const t = line.trimEnd();
  const i = indentWidth(t);
  if (i > 3) return false;
  const rest = t.trimStart();
  const ch = open.marker.charAt(0);
  if (rest.length < open.marker.length) return false;
  for (let k = 0; k < rest.length; k++) if (rest.charAt(k) !== ch) return false;
  return true;
}

/** Kind of HTML block a line starts (CommonMark types 1–7), 0 if none. */
function htmlStart(line: string): number {
  if (line.charCodeAt(indentWidth(line)) !== 60 /* < */) return 0;
  if (HTML_RAW.test(line)) return 1;
  const t = line.trimStart();
  if (t.startsWith('<!--')) return 2;
  if (t.startsWith('<?')) return 3;
  if (t.startsWith('<![CDATA[')) return 5;
  if (/^<![A-Za-z]/.test(t)) return 4;
  const m = HTML_TAG6.exec(line);
  if (m && HTML_BLOCK_TAGS.has((m[1] ?? '').toLowerCase())) return 6;
  if (HTML_TAG7.test(line)) return 7;
  return 0;
}

function htmlEnds(kind: number, line: string): boolean {
  switch (kind) {
    case 1:
      return /<\/(?:script|pre|style|textarea)>/i.test(line);
    case 2:
      return line.includes('-->');
    case 3:
      return line.includes('?>');
    case 4:
      return line.includes('>');
    case 5:
      return line.includes(']]>');
    default:
      return false;
  }
}

function tableCells(line: string): number {
  let t = line.trim();
  if (t.startsWith('|')) t = t.slice(1);
  if (t.endsWith('|') && !t.endsWith('\\|')) t = t.slice(0, -1);
  let n = 1;
  for (let i = 0; i < t.length; i++) {
    if (t.charCodeAt(i) === 92) i++;
    else if (t.charCodeAt(i) === 124) n++;
  }
  return n;
}

/** Whether line `i` is a table header: it has a pipe and line `i + 1` is a matching delimiter row. */
function isTableStart(lines: Lines, i: number): boolean {
  const head = lines.line(i);
  if (!head.includes('|') || indentWidth(head) > 3) return false;
  const delim = lines.line(i + 1);
  if (!TABLE_DELIM.test(delim)) return false;
  // A delimiter row without any pipe is a setext underline unless the header has one cell only.
  if (!delim.includes('|') && !delim.includes(':')) {
    if (tableCells(head) !== 1) return false;
  }
  return tableCells(head) === tableCells(delim);
}

export interface ListMarker {
  ordered: boolean;
  /** Bullet character or ordered delimiter ('.' or ')'). */
  type: string;
  /** Column where the item's content starts. */
  contentIndent: number;
  /** Text after the marker. */
  content: string;
  start: number;
}

export function matchListItem(line: string): ListMarker | undefined {
  const m = LIST_ITEM.exec(line);
  if (!m) return undefined;
  const indent = (m[1] ?? '').length;
  const marker = m[2] ?? '';
  const ordered = m[3] !== undefined;
  const type = ordered ? marker.slice(-1) : marker;
  const spaces = (m[4] ?? '').length;
  const content = line.slice(m[0].length);
  // Content starting with 5+ spaces is indented code: the content column is one past the marker.
  const pad = content === '' || spaces > 4 ? 1 : spaces;
  return {
    ordered,
    type,
    contentIndent: indent + marker.length + pad,
    content,
    start: ordered ? Number(m[3]) : 1,
  };
}

/** Lines that interrupt a paragraph (CommonMark "can interrupt a paragraph"). */
function interruptsParagraph(lines: Lines, i: number, tables = true): boolean {
  const line = lines.line(i);
  if (indentWidth(line) > 3) return false;
  if (ATX.test(line) || THEMATIC.test(line) || QUOTE.test(line) || matchFenceOpen(line)) return true;
  const html = htmlStart(line);
  if (html >= 1 && html <= 6) return true;
  const item = matchListItem(line);
  if (item && item.content.trim() !== '' && (!item.ordered || item.start === 1)) return true;
  return tables && isTableStart(lines, i);
}

/** Plain text of a heading: closing #s, emphasis, code ticks and link syntax removed. */
export function headingText(heading: string): string {
  const raw = withoutAttributes(heading);
  if (!/[#*`_[\]~\\]|\s\s/.test(raw)) return raw.trim();
  return (
    raw
      // Lookbehinds and bracket classes without their opener keep each pattern linear on a long heading.
      .replace(/(?:^|(?<![ \t])[ \t]+)#+[ \t]*$/, '')
      .replace(/!?\[\[([^[\]|]+)\|([^[\]]+)\]\]/g, '$2')
      .replace(/!?\[\[([^[\]]+)\]\]/g, '$1')
      .replace(/!?\[([^[\]]*)\]\((?:[^()\n]|\([^()\n]*\))*\)/g, '$1')
      .replace(/(^|[^\\])[*`]+/g, '$1')
      .replace(/(^|\s)_+|(?<!_)_+(?=\s|$)/g, '$1')
      .replace(/~~/g, '')
      .replace(/\\([!-/:-@[-`{-~])/g, '$1')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** Split a Markdown document into its top-level blocks, in order. */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a line scanner: one state machine with a branch per Markdown block kind
export function scanBlocks(lines: Lines): Block[] {
  const blocks: Block[] = [];
  const n = lines.length;
  const push = (kind: BlockKind, first: number, last: number, extra?: Partial<Block>): void => {
    blocks.push({ kind, start: lines.start(first), end: lines.end(last), firstLine: first, lastLine: last, ...extra });
  };
  let i = 0;

  // YAML front matter: only at the very start, closed by --- or ...
  if (lines.line(0) === '---') {
    for (let j = 1; j < n; j++) {
      const l = lines.line(j);
      if (l === '---' || l === '...') {
        push('frontmatter', 0, j);
        i = j + 1;
        break;
      }
    }
  }

  while (i < n) {
    const line = lines.line(i);
    if (BLANK.test(line)) {
      i++;
      continue;
    }
    const indent = indentWidth(line);

    if (indent >= 4) {
      let last = i;
      let j = i + 1;
      for (; j < n; j++) {
        const l = lines.line(j);
        if (BLANK.test(l)) continue;
        if (indentWidth(l) < 4) break;
        last = j;
      }
      push('indentedCode', i, last);
      i = last + 1;
      continue;
    }

    const fence = matchFenceOpen(line);
    if (fence) {
      let j = i + 1;
      while (j < n && !isFenceClose(lines.line(j), fence)) j++;
      const closed = j < n;
      const last = closed ? j : n - 1;
      push('code', i, last, {
        fence: { open: line, marker: fence.marker, indent: fence.indent, info: fence.info, closed },
      });
      i = last + 1;
      continue;
    }

    const atx = ATX.exec(line);
    if (atx) {
      push('heading', i, i, { depth: (atx[1] ?? '#').length, title: headingText(atx[2] ?? '') });
      i++;
      continue;
    }

    if (THEMATIC.test(line)) {
      push('thematicBreak', i, i);
      i++;
      continue;
    }

    if (QUOTE.test(line)) {
      i = scanQuote(lines, i, push);
      continue;
    }

    const html = htmlStart(line);
    if (html) {
      let j = i;
      if (html <= 5) {
        while (j < n && !htmlEnds(html, lines.line(j))) j++;
        if (j >= n) j = n - 1;
      } else {
        while (j + 1 < n && !BLANK.test(lines.line(j + 1))) j++;
      }
      push('html', i, j);
      i = j + 1;
      continue;
    }

    const item = matchListItem(line);
    if (item) {
      i = scanList(lines, i, item, push);
      continue;
    }

    if (isTableStart(lines, i)) {
      let j = i + 2;
      while (j < n && !BLANK.test(lines.line(j)) && !interruptsTable(lines, j)) j++;
      push('table', i, j - 1);
      i = j;
      continue;
    }

    // Paragraph, possibly turned into a setext heading by an underline.
    let j = i + 1;
    let setext = 0;
    for (; j < n; j++) {
      const l = lines.line(j);
      if (BLANK.test(l)) break;
      const u = indentWidth(l) <= 3 ? SETEXT.exec(l) : null;
      if (u && lines.text.slice(i, j).every((d) => DEFINITION.test(d))) {
        // Link reference definitions are not a paragraph: no setext heading.
        if ((u[1] ?? '').startsWith('-')) break;
        continue;
      }
      if (u) {
        setext = (u[1] ?? '=').startsWith('=') ? 1 : 2;
        break;
      }
      if (interruptsParagraph(lines, j)) break;
    }
    if (setext) {
      const title = headingText(
        lines.text
          .slice(i, j)
          .map((l) => l.trim())
          .join(' '),
      );
      push('heading', i, j, { depth: setext, title });
      i = j + 1;
    } else {
      push('paragraph', i, j - 1);
      i = j;
    }
  }
  return blocks;
}

function interruptsTable(lines: Lines, i: number): boolean {
  const line = lines.line(i);
  if (indentWidth(line) > 3) return true;
  return (
    ATX.test(line) ||
    QUOTE.test(line) ||
    THEMATIC.test(line) ||
    matchFenceOpen(line) !== undefined ||
    htmlStart(line) >= 1 ||
    matchListItem(line) !== undefined
  );
}

type Push = (kind: BlockKind, first: number, last: number, extra?: Partial<Block>) => void;

/** Whether a line inside a container leaves an open paragraph (which a lazy line may continue). */
function leavesParagraph(inner: string, inParagraph: boolean): boolean {
  if (BLANK.test(inner)) return false;
  if (!inParagraph && indentWidth(inner) >= 4) return false;
  return !(ATX.test(inner) || THEMATIC.test(inner) || htmlStart(inner) > 0 || (inParagraph && SETEXT.test(inner)));
}

/** A line that ends a container instead of continuing its paragraph lazily. */
function endsLazy(lines: Lines, i: number): boolean {
  return interruptsParagraph(lines, i, false) || matchListItem(lines.line(i)) !== undefined;
}

/** A block quote, with lazy continuation lines; never ends inside a nested fence it can see. */
function scanQuote(lines: Lines, i: number, push: Push): number {
  const n = lines.length;
  let j = i;
  let fence: FenceOpen | undefined;
  let inParagraph = false;
  for (; j < n; j++) {
    const l = lines.line(j);
    if (QUOTE.test(l)) {
      const inner = l.replace(/^ {0,3}> ?/, '');
      if (fence) {
        if (isFenceClose(inner, fence)) fence = undefined;
        inParagraph = false;
        continue;
      }
      fence = inParagraph || indentWidth(inner) < 4 ? matchFenceOpen(inner) : undefined;
      inParagraph = !fence && leavesParagraph(inner, inParagraph);
      continue;
    }
    if (BLANK.test(l) || fence || !inParagraph || endsLazy(lines, j)) break;
  }
  push('quote', i, j - 1);
  return j;
}

/** A list: items of the same marker type, their indented content, blank lines between them. */
function scanList(lines: Lines, i: number, first: ListMarker, push: Push): number {
  const n = lines.length;
  let contentIndent = first.contentIndent;
  let fence = matchFenceOpen(first.content);
  let last = i;
  let prevBlank = false;
  let inParagraph = !fence && leavesParagraph(first.content.replace(/^[ \t]/, ''), false);
  // An item that starts with a blank line must have content on the next line.
  let emptyStart = first.content.trim() === '';
  const items = [i];
  let j = i + 1;
  for (; j < n; j++) {
    const l = lines.line(j);
    const blank = BLANK.test(l);
    const indent = indentWidth(l);
    if (fence) {
      if (blank || indent >= contentIndent) {
        if (!blank && isFenceClose(dedent(l, contentIndent), fence)) fence = undefined;
        if (!blank) last = j;
        continue;
      }
      fence = undefined;
    }
    if (blank) {
      // An item that starts empty ends at a blank line; only a next item continues the list.
      if (emptyStart) contentIndent = Number.POSITIVE_INFINITY;
      emptyStart = false;
      prevBlank = true;
      inParagraph = false;
      continue;
    }
    emptyStart = false;
    if (indent >= contentIndent) {
      const inner = dedent(l, contentIndent);
      fence = inParagraph || indentWidth(inner) < 4 ? matchFenceOpen(inner) : undefined;
      inParagraph = !fence && leavesParagraph(inner, inParagraph);
      last = j;
      prevBlank = false;
      continue;
    }
    const item = THEMATIC.test(l) ? undefined : matchListItem(l);
    if (item) {
      if (item.ordered !== first.ordered || item.type !== first.type) break;
      contentIndent = item.contentIndent;
      fence = matchFenceOpen(item.content);
      inParagraph = !fence && leavesParagraph(item.content.replace(/^[ \t]/, ''), false);
      emptyStart = item.content.trim() === '';
      items.push(j);
      last = j;
      prevBlank = false;
      continue;
    }
    if (!prevBlank && inParagraph && !endsLazy(lines, j)) {
      last = j;
      continue;
    }
    break;
  }
  push('list', i, last, { items });
  return last + 1;
}

/** Blocks of a document. */
export function parseBlocks(markdown: string): { lines: Lines; blocks: Block[] } {
  const lines = new Lines(markdown);
  return { lines, blocks: scanBlocks(lines) };
}
