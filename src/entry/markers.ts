/**
 * Sections kb regenerates between `<!-- kb:name -->` and `<!-- /kb:name -->`.
 *
 * A marker counts only where kb writes one: alone on its line, at the start of the line, outside
 * fenced code. The section is the last start marker that a matching end marker closes (a later
 * start wins over an earlier unclosed one), so a stray marker in someone's text never swallows the
 * text after it. Text kb writes on behalf of a person or a model goes through `neutralizeMarkers`
 * first, so it cannot hold a marker line at all.
 */

export interface SectionSpan {
  /** Offset of the start marker line. */
  start: number;
  /** Offset just after the end marker (before its line break). */
  end: number;
  /** The text between the two marker lines. */
  inner: string;
}

const MARKER = /^<!-- (\/?)kb:([A-Za-z0-9_-]+) -->[ \t\r]*$/;
/** Anything that could be read as a marker, by kb or by a looser reader: escaped on write. */
const MARKER_LIKE = /^([ \t]{0,3})<!--(\s*\/?\s*kb\s*:)/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;

interface Line {
  text: string;
  offset: number;
  inFence: boolean;
}

/** The body's lines with their offsets, each marked when it lies inside a fenced code block. */
function lines(body: string): Line[] {
  const out: Line[] = [];
  let fence: RegExp | null = null;
  let offset = 0;
  for (const text of body.split('\n')) {
    if (fence) {
      out.push({ text, offset, inFence: true });
      if (fence.test(text)) fence = null;
    } else {
      const m = FENCE_OPEN.exec(text);
      // A backtick fence's info string may not hold a backtick (CommonMark); then it is inline code.
      if (m && !(m[1]![0] === '`' && m[2]!.includes('`'))) {
        fence = new RegExp(`^ {0,3}${m[1]![0]}{${m[1]!.length},}[ \\t\\r]*$`);
        out.push({ text, offset, inFence: true });
      } else out.push({ text, offset, inFence: false });
    }
    offset += text.length + 1;
  }
  return out;
}

/** Where kb's section `name` is in a body, or null when it has none (or only unmatched markers). */
export function findSection(body: string, name: string): SectionSpan | null {
  if (!body.includes(`kb:${name} -->`)) return null;
  let open: Line | null = null;
  let found: { open: Line; close: Line } | null = null;
  for (const l of lines(body)) {
    if (l.inFence) continue;
    const m = MARKER.exec(l.text);
    if (!m || m[2] !== name) continue;
    if (!m[1]) open = l;
    else if (open) {
      found = { open, close: l };
      open = null;
    }
  }
  if (!found) return null;
  const innerStart = found.open.offset + found.open.text.length + 1;
  const end = found.close.offset + found.close.text.length;
  return { start: found.open.offset, end, inner: body.slice(innerStart, Math.max(innerStart, found.close.offset)) };
}

/** Replace (or add, or with `null` remove) kb's section `name`; everything else stays as it was. */
export function setSection(body: string, name: string, content: string | null): string {
  const span = findSection(body, name);
  const block = content === null ? '' : `<!-- kb:${name} -->\n${content.trim()}\n<!-- /kb:${name} -->`;
  // Only blank lines around the section are kb's: the text on either side keeps every byte
  // (trailing spaces are Markdown hard breaks, leading ones indentation).
  if (span) {
    const before = dropTrailingBlankLines(body.slice(0, span.start));
    const after = dropTrailingBlankLines(body.slice(span.end).replace(/^(?:[ \t]*\r?\n)+/, ''));
    return `${[before, block, after].filter((x) => x.trim()).join('\n\n')}\n`;
  }
  if (!block) return body;
  return `${dropTrailingBlankLines(body)}\n\n${block}\n`;
}

/** `s` without the blank lines at its end; the spaces ending its last line of text stay. */
function dropTrailingBlankLines(s: string): string {
  let i = s.length;
  while (i > 0 && ' \t\r\n'.includes(s[i - 1]!)) i--;
  if (i === 0) return '';
  const nl = s.indexOf('\n', i);
  if (nl < 0) return s;
  return s.slice(0, nl > i && s[nl - 1] === '\r' ? nl - 1 : nl);
}

export function getSection(body: string, name: string): string | null {
  return findSection(body, name)?.inner.trim() ?? null;
}

/**
 * Text kb did not write itself (an answer, a note, a model's or a document's Markdown) with every
 * line that could pass for a kb marker escaped (`\<!--`: Markdown shows it as text), so it can
 * never be taken for a section later. Lines inside fenced code are left alone: they never count.
 */
export function neutralizeMarkers(text: string): string {
  if (!text.includes('kb')) return text;
  let changed = false;
  const out = lines(text).map((l) => {
    if (l.inFence || !MARKER_LIKE.test(l.text)) return l.text;
    changed = true;
    return l.text.replace(MARKER_LIKE, '$1\\<!--$2');
  });
  return changed ? out.join('\n') : text;
}

/**
 * Set a marked section in a body a person edited: every byte outside the section stays as it is
 * (trailing spaces, blank lines). Without a section one is appended (unless `append: false`);
 * `null` removes it (with the blank lines just before it).
 */
export function replaceSectionVerbatim(
  body: string,
  name: string,
  content: string | null,
  opts: { append?: boolean } = {},
): string {
  const block = content === null ? '' : `<!-- kb:${name} -->\n${content.trim()}\n<!-- /kb:${name} -->`;
  const span = findSection(body, name);
  if (span) {
    if (block) return body.slice(0, span.start) + block + body.slice(span.end);
    let start = span.start;
    while (start > 0 && body[start - 1] === '\n') start--;
    return body.slice(0, start) + body.slice(span.end);
  }
  if (!block || opts.append === false) return body;
  return `${body}${body.endsWith('\n') ? '\n' : '\n\n'}${block}\n`;
}
