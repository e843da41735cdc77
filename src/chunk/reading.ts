/**
 * A text read as a person reads it, from the blocks the chunker finds (blocks.ts): each block's
 * lines as the statements they hold. A paragraph hard-wrapped over lines reads as one line; a list
 * item is one line whatever its continuation lines; a table row reads with its header
 * (`header: cell; header: cell`); a quote reads as the blocks inside it; code, HTML and front
 * matter hold no statement. Plain text with no Markdown reads as paragraphs of its lines.
 */

import { matchFenceOpen, matchListItem, parseBlocks } from './blocks.js';
import { RUNS_ON } from '../text/lang/en.js';

export type ReadKind = 'heading' | 'paragraph' | 'item' | 'row';

export interface ReadBlock {
  kind: ReadKind;
  /** The block's lines, wrapped lines joined; for a table, one line a row; for a list, one an item. */
  lines: string[];
  /** For a list, how deep each line's item is nested (its indentation; 0 at the top). */
  depths?: number[];
}

/** A line that closes what it says: a wrapped line never ends so. */
const CLOSED = /[。.!?！？:：;；」』”)）]$/u;
/** A line that gives a field (`Date: …`, `Attendees: …`) or a speaker's words (`Gary: …`): never the rest of a wrap. */
const FIELD = /^[\p{L}\p{N} _-]{1,24}[:：]\s/u;
/** A line that opens a block of its own: an item, a heading, a quote, a row. */
const STARTS_BLOCK = /^(?:[-*+•]\s|\d{1,9}[.)]\s|#{1,6}\s|[>|])/u;
/** A line of a drawing (`├── index.json`). */
const DRAWING = /^[\u2500-\u257f]/u;
const HAN_END = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef]$/u;
const HAN_START = /^[\p{Script=Han}\u3000-\u303f\uff00-\uffef]/u;

/** How long a line must be for a writer to have wrapped it (a shorter one ends where it was meant to). */
function wrapWidth(line: string): number {
  return HAN_END.test(line) ? 20 : 40;
}

/**
 * Whether `next` goes on with the sentence `prev` left open: `prev` is as long as a wrapped line,
 * with no closing mark and no hard break, and `next` gives no field and does not open with a
 * capital (unless `prev` stops at a comma).
 */
export function continues(prev: string, next: string): boolean {
  return joinKind(prev, next) !== undefined;
}

/**
 * How `next` goes on with `prev`: `sentence` where `prev` stops mid-sentence, at a word no sentence
 * ends in ("A module is a collection of"), or `running` (the line before went on so) and `next` goes
 * on in lowercase — one clause a line; `wrap` where `prev` is as long as a wrapped line (continues);
 * undefined where it does not go on.
 */
function joinKind(prev: string, next: string, running = false): 'sentence' | 'wrap' | undefined {
  const p = prev.trimEnd();
  const n = next.trim();
  // A link's closing parenthesis closes the link, not the sentence ("[Go packages](/ref/spec)").
  const said = p.replace(LINK_AT_END, ']');
  if (!p || !n || CLOSED.test(said) || /\\$| {2}$/.test(prev) || FIELD.test(n) || STARTS_BLOCK.test(n))
    return undefined;
  if (DRAWING.test(p) || DRAWING.test(n)) return undefined;
  const word = /([A-Za-z]+)$/.exec(said)?.[1]?.toLowerCase();
  if ((running || (word !== undefined && RUNS_ON.has(word))) && !/^[A-Z]/.test(n)) return 'sentence';
  return Array.from(p).length >= wrapWidth(p) && (!/^[A-Z]/.test(n) || /[,，、]$/u.test(p)) ? 'wrap' : undefined;
}

/** A Markdown link that ends a line: `[text](target)`. */
const LINK_AT_END = /\]\([^()\s]*\)$/;

/** A Latin line that runs on: it ends in a word, a number, a comma or a closing mark of a span (`_`, `*`, `` ` ``, `)`). */
const LATIN_RUNS_ON = /[A-Za-z0-9,_*`'")\]]$/;

/**
 * Lines joined where they wrap: with a space, or nothing between two Chinese ones. `latinOnly`:
 * only a Latin line that runs on into a Latin one (Chinese is not wrapped by hand: its short lines
 * are items or headings of their own, and a line ending in code punctuation, `{` or `;`, is code).
 */
export function joinWrapped(lines: readonly string[], opts: { latinOnly?: boolean } = {}): string[] {
  const out: string[] = [];
  let last = '';
  // The last line was joined to the one before it because the sentence ran on (not for its length).
  let running = false;
  for (const raw of lines) {
    const line = raw.trim();
    if (!line) continue;
    const latin = !opts.latinOnly || (LATIN_RUNS_ON.test(last.trimEnd()) && !HAN_START.test(line));
    const kind: 'sentence' | 'wrap' | undefined = out.length && latin ? joinKind(last, raw, running) : undefined;
    if (kind) {
      const prev = out[out.length - 1]!;
      out[out.length - 1] = `${prev}${HAN_END.test(prev) && HAN_START.test(line) ? '' : ' '}${line}`;
      running = kind === 'sentence';
    } else {
      out.push(line);
      running = false;
    }
    last = raw;
  }
  return out;
}

const cellsOf = (row: string): string[] =>
  row
    .trim()
    .replace(/^\||(?<!\\)\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());

/**
 * A row as what it says: the cell that names it, then each other cell after its column's header
 * (`hard deprecations — Edition N: warn then deny; Edition N+1: deny`; `——`, `：`, `；` in Chinese).
 */
export function rowText(header: readonly string[] | undefined, row: readonly string[]): string | undefined {
  const cells = row.map((c, k) => ({ c, h: header?.[k] ?? '' })).filter((x) => x.c);
  if (!cells.length) return undefined;
  if (cells.length === 1) return cells[0]!.c;
  const han = /\p{Script=Han}/u.test(cells.map((x) => x.c).join(''));
  const [dash, colon, semi] = han ? ['——', '：', '；'] : [' — ', ': ', '; '];
  const said = (x: { c: string; h: string }) => (x.h && x.h !== x.c ? `${x.h}${colon}${x.c}` : x.c);
  const [first, ...rest] = cells;
  return `${first!.c}${dash}${rest.map(said).join(semi)}`;
}

/** Rows typed with tabs (`a\tb\tc`): the first a header when every line has as many cells. */
function tabRows(lines: string[]): ReadBlock | undefined {
  if (lines.length < 2 || !lines.every((l) => /\S\t+\S/.test(l.trim()))) return undefined;
  const [head, ...rows] = lines.map((l) => l.trim().split(/\t+/));
  const out = rows.map((r) => rowText(head, r)).filter((x): x is string => Boolean(x));
  return { kind: 'row', lines: out };
}

/** The items of a list: each from its marker to the next, its own lines joined where they wrap; nested items are items. */
function listItems(lines: string[]): { lines: string[]; depths: number[] } {
  const items: { lines: string[]; depth: number }[] = [];
  let fence: string | undefined;
  for (const line of lines) {
    const t = line.trim();
    const open = matchFenceOpen(t);
    if (fence !== undefined) {
      if (t.startsWith(fence)) fence = undefined;
      continue;
    }
    if (open) {
      fence = open.marker;
      continue;
    }
    // A nested item, or one inside a quote inside an item (`\t\t> - **链接笔记** - …`), at any depth.
    const item = matchListItem(t.replace(/^(?:>\s?)+/, ''));
    if (item) items.push({ lines: [item.content], depth: depthOf(line) });
    else if (items.length) items[items.length - 1]!.lines.push(line);
    else items.push({ lines: [line], depth: 0 });
  }
  const out = { lines: [] as string[], depths: [] as number[] };
  for (const it of items)
    for (const l of joinWrapped(it.lines)) {
      out.lines.push(l);
      out.depths.push(it.depth);
    }
  return out;
}

/** How far a line is indented, a tab as four columns and a quote mark as two: the depth of the item it opens. */
function depthOf(line: string): number {
  let w = 0;
  for (const ch of line) {
    if (ch === ' ') w++;
    else if (ch === '\t') w += 4 - (w % 4);
    else if (ch === '>') w += 2;
    else break;
  }
  return w;
}

/** Lines that are all YAML fields (`key: value`, `key:`) or their list items, two at least. */
function isMetadata(lines: string[]): boolean {
  return lines.length >= 2 && lines.every((l) => /^[a-z_][\w-]*:(?:\s|$)|^\s+-\s/.test(l)) && /^[a-z_]/.test(lines[0]!);
}

/** A link reference definition (`[label]: https://…`): where a link points, no statement. */
const DEFINITION = /^\[[^\]]+\]:\s*\S+(?:\s+["'(].*)?$/;

/** The blocks of a text, in order, as their lines read. */
export function readBlocks(text: string): ReadBlock[] {
  const { lines, blocks } = parseBlocks(text);
  const out: ReadBlock[] = [];
  const linesOf = (b: { firstLine: number; lastLine: number }) =>
    lines.text.slice(b.firstLine, b.lastLine + 1).filter((l) => l.trim());
  for (const b of blocks) {
    const own = linesOf(b);
    switch (b.kind) {
      case 'heading':
        out.push({ kind: 'heading', lines: [b.title ?? own.join(' ')] });
        break;
      case 'paragraph':
        // Front matter a chunk cut from the top of its document (`title: "…"`, `tags:`, `  - clippings`).
        if (isMetadata(own)) break;
        out.push(
          tabRows(own) ?? { kind: 'paragraph', lines: joinWrapped(own.filter((l) => !DEFINITION.test(l.trim()))) },
        );
        break;
      case 'list':
        out.push({ kind: 'item', ...listItems(own) });
        break;
      case 'table': {
        const [head, , ...rows] = own;
        const header = head === undefined ? undefined : cellsOf(head);
        const said = rows.map((r) => rowText(header, cellsOf(r))).filter((x): x is string => Boolean(x));
        out.push({ kind: 'row', lines: said });
        break;
      }
      case 'quote':
        out.push(...readBlocks(own.map((l) => l.replace(/^\s{0,3}> ?/, '')).join('\n')));
        break;
      default:
        // Code, HTML, front matter and rules say nothing to quote.
        break;
    }
  }
  return out;
}

/**
 * The text with each paragraph's hard-wrapped Latin lines joined (joinWrapped, Latin only), every
 * other block as written: a term or an emphasis wrapped over two lines
 * (`_background page cache\neviction_`) reads whole.
 */
export function unwrapParagraphs(text: string): string {
  const { lines, blocks } = parseBlocks(text);
  let out = '';
  let pos = 0;
  for (const b of blocks) {
    if (b.kind !== 'paragraph' || b.lastLine === b.firstLine) continue;
    const own = lines.text.slice(b.firstLine, b.lastLine + 1).filter((l) => l.trim());
    if (isMetadata(own) || own.some((l) => DEFINITION.test(l.trim()) || /\S\t/.test(l))) continue;
    const joined = joinWrapped(own, { latinOnly: true });
    if (joined.length === own.length) continue;
    out += text.slice(pos, b.start) + joined.join('\n');
    pos = b.end;
  }
  return pos ? out + text.slice(pos) : text;
}
