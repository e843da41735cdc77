/**
 * Cut a block that is over the token budget into pieces ("units") that fit: lists at items, quotes
 * and HTML at lines, prose at sentences, then words, then characters; code at lines, each piece
 * re-fenced; tables at rows, each piece with the header repeated. Units are later packed into chunks.
 */
import { countTokens } from '../text/tokens.js';
import { segmentWords, sentences } from '../text/segment.js';
import { type Block, type Lines, dedent, isFenceClose, matchFenceOpen, matchListItem } from './blocks.js';

export type UnitKind = 'heading' | 'text' | 'code' | 'table' | 'html';

export interface Unit {
  kind: UnitKind;
  /** Range of the original Markdown this unit stands for. */
  start: number;
  end: number;
  tokens: number;
  /** Text that differs from `source.slice(start, end)`: a re-fenced code piece or a table piece with its header. */
  text?: string;
  /** Prose whose sentences can be repeated as overlap at the start of the next chunk. */
  prose: boolean;
  /** The unit is one sentence or less (overlap takes it whole without segmenting it again). */
  sentence?: boolean;
}

export interface Span {
  start: number;
  end: number;
}

/** A code block is kept whole up to this many times the budget. */
export const CODE_SLACK = 2;

/** Units of one block, each within `budget` tokens unless it cannot be cut (a line of code, a table row). */
export function splitBlock(lines: Lines, block: Block, budget: number, tokens: number): Unit[] {
  const src = lines.source;
  const whole = (kind: UnitKind, prose: boolean): Unit[] => [
    { kind, start: block.start, end: block.end, tokens, prose },
  ];
  switch (block.kind) {
    case 'heading':
      return whole('heading', false);
    case 'code':
    case 'indentedCode':
      if (tokens <= budget * CODE_SLACK) return whole('code', false);
      return block.fence ? splitFencedCode(lines, block, budget) : splitCodeLines(lines, block, budget);
    case 'table':
      return tokens <= budget ? whole('table', false) : splitTable(lines, block, budget);
    case 'html':
      return tokens <= budget
        ? whole('html', false)
        : splitLineAtoms(lines, block.firstLine, block.lastLine, budget, 'html', () => '');
    case 'list':
      return tokens <= budget ? whole('text', true) : splitList(lines, block, budget);
    case 'quote':
      return tokens <= budget
        ? whole('text', true)
        : splitLineAtoms(lines, block.firstLine, block.lastLine, budget, 'text', (l) => l.replace(/^ {0,3}> ?/, ''));
    default:
      return tokens <= budget ? whole('text', true) : splitProse(src, block.start, block.end, budget);
  }
}

/** Prose at sentence boundaries (Chinese 。！？ as well as . ! ?); over-long sentences at words. */
export function splitProse(src: string, start: number, end: number, budget: number): Unit[] {
  const units: Unit[] = [];
  for (const s of sentenceSpans(src, start, end)) {
    const t = countTokens(src.slice(s.start, s.end));
    if (t <= budget) units.push({ kind: 'text', start: s.start, end: s.end, tokens: t, prose: true, sentence: true });
    else for (const w of splitWords(src, s.start, s.end, budget)) units.push(w);
  }
  return units;
}

/**
 * Intl.Segmenter gets very slow on long strings in Node 20 (80,000 characters of Chinese take
 * seconds, not milliseconds), so long text is segmented through windows of this many characters.
 */
const WINDOW = 2000;
const MAX_WINDOW = 16_000;

/**
 * Sentences of `src[start, end)` with their offsets. Soft line breaks inside a paragraph are read as
 * spaces (same length, so offsets hold), so a hard-wrapped sentence is not cut at each line.
 */
export function sentenceSpans(src: string, start: number, end: number): Span[] {
  const spans: Span[] = [];
  let pos = start;
  while (pos < end) {
    const stop = Math.min(end, pos + WINDOW);
    const found = sentencesIn(src, pos, stop);
    if (stop === end) {
      for (const s of found) spans.push(s);
      break;
    }
    // The window may end inside a sentence: keep the others and segment again from its start.
    const last = found[found.length - 1];
    if (found.length >= 2 && last) {
      for (const s of found.slice(0, -1)) spans.push(s);
      pos = last.start;
      continue;
    }
    // One sentence longer than the window: cut it at the window's last space, if it has one.
    const from = found[0]?.start ?? pos;
    // Searched within the window only: a search back from `stop` would rescan the whole line each time.
    const half = from + WINDOW / 2;
    const space = stop - 1 > half ? src.slice(half + 1, stop).lastIndexOf(' ') : -1;
    const cut = space >= 0 ? half + 1 + space : stop;
    if (src.slice(from, cut).trim()) spans.push({ start: from, end: from + src.slice(from, cut).trimEnd().length });
    pos = cut;
  }
  return spans;
}

function sentencesIn(src: string, start: number, end: number): Span[] {
  const text = src.slice(start, end).replace(/\r?\n(?=[^\n])/g, (m) => ' '.repeat(m.length));
  const spans: Span[] = [];
  let cursor = 0;
  for (const s of sentences(text)) {
    const at = text.indexOf(s, cursor);
    if (at === -1) continue;
    spans.push({ start: start + at, end: start + at + s.length });
    cursor = at + s.length;
  }
  return spans;
}

/**
 * Cut `src[start, end)` into pieces of at most `budget` tokens at word boundaries (ICU words, so a
 * Chinese run is cut between words), or at characters when a single "word" is over the budget.
 */
export function splitWords(src: string, start: number, end: number, budget: number): Unit[] {
  const text = src.slice(start, end);
  const n = text.length;
  const units: Unit[] = [];
  let from = 0;
  while (from < n) {
    // Segment only a window that holds the next piece: grow it while all of it fits the budget.
    let width = Math.min(MAX_WINDOW, Math.max(64, budget * 2));
    let stop = Math.min(n, from + width);
    while (stop < n && width < MAX_WINDOW && countTokens(text.slice(from, stop)) <= budget) {
      width *= 2;
      stop = Math.min(n, from + width);
    }
    const cuts: number[] = [];
    for (const w of segmentWords(text.slice(from, stop))) if (w.index > 0) cuts.push(from + w.index);
    // The window's end is a word boundary only at the end of the text.
    if (stop === n) cuts.push(n);
    let to = largestFitting(text, from, cuts, 0, budget);
    if (to === undefined) to = charCut(text, from, budget);
    const piece = text.slice(from, to);
    const lead = piece.length - piece.trimStart().length;
    const trimmed = piece.trim();
    if (trimmed) {
      const s = start + from + lead;
      units.push({
        kind: 'text',
        start: s,
        end: s + trimmed.length,
        tokens: countTokens(trimmed),
        prose: true,
        sentence: true,
      });
    }
    from = to;
  }
  return units;
}

/** The largest cut in `cuts[ci..]` such that `text[from, cut)` fits the budget (token counts grow with length). */
function largestFitting(text: string, from: number, cuts: number[], ci: number, budget: number): number | undefined {
  if (ci >= cuts.length) return undefined;
  // A token is rarely more than 16 characters: only cuts within that reach are candidates.
  const reach = from + budget * 16;
  let lo = ci;
  let hi = cuts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((cuts[mid] ?? 0) <= reach) lo = mid;
    else hi = mid - 1;
  }
  hi = lo;
  lo = ci;
  let best: number | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const cut = cuts[mid] ?? text.length;
    if (countTokens(text.slice(from, cut)) <= budget) {
      best = cut;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

/** Last resort: the longest run of code points from `from` that fits (at least one). */
function charCut(text: string, from: number, budget: number): number {
  let lo = from + 1;
  let hi = Math.min(text.length, from + budget * 16);
  let best = from + 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (countTokens(text.slice(from, mid)) <= budget) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  const c = text.charCodeAt(best - 1);
  if (c >= 0xd800 && c <= 0xdbff) best = best - 1 > from ? best - 1 : best + 1;
  return Math.min(best, text.length);
}

/** A fenced code block over the slack: lines packed to the budget, each piece in its own fence. */
function splitFencedCode(lines: Lines, block: Block, budget: number): Unit[] {
  const fence = block.fence;
  if (!fence) return [];
  const open = fence.open;
  const close = ' '.repeat(fence.indent) + fence.marker;
  const bodyFirst = block.firstLine + 1;
  const bodyLast = fence.closed ? block.lastLine - 1 : block.lastLine;
  const room = Math.max(1, budget - countTokens(`${open}\n${close}`));
  const units: Unit[] = [];
  const emit = (first: number, last: number, body: string): void => {
    const text = `${open}\n${body}\n${close}`;
    const start = first === bodyFirst ? block.start : lines.start(first);
    const end = last === bodyLast ? block.end : lines.end(last);
    units.push({ kind: 'code', start, end, tokens: countTokens(text), text, prose: false });
  };
  let first = bodyFirst;
  let acc = 0;
  for (let i = bodyFirst; i <= bodyLast; i++) {
    const line = lines.line(i);
    const t = countTokens(line);
    if (acc > 0 && acc + t > room) {
      emit(first, i - 1, lines.text.slice(first, i).join('\n'));
      first = i;
      acc = 0;
    }
    if (t > room) {
      // One line longer than the budget (minified code, data): cut it, each part in its own fence.
      for (const part of splitWords(line, 0, line.length, room)) emit(i, i, line.slice(part.start, part.end));
      first = i + 1;
      continue;
    }
    acc += t;
  }
  if (first <= bodyLast) emit(first, bodyLast, lines.text.slice(first, bodyLast + 1).join('\n'));
  if (units.length === 0)
    return [
      {
        kind: 'code',
        start: block.start,
        end: block.end,
        tokens: countTokens(lines.source.slice(block.start, block.end)),
        prose: false,
      },
    ];
  return units;
}

/** Indented code over the slack: cut at lines (every piece stays indented, so it stays code). */
function splitCodeLines(lines: Lines, block: Block, budget: number): Unit[] {
  const units: Unit[] = [];
  let first = block.firstLine;
  let acc = 0;
  const emit = (a: number, b: number): void => {
    while (b > a && lines.line(b).trim() === '') b--;
    const start = lines.start(a);
    const end = lines.end(b);
    units.push({ kind: 'code', start, end, tokens: countTokens(lines.source.slice(start, end)), prose: false });
  };
  for (let i = block.firstLine; i <= block.lastLine; i++) {
    const t = countTokens(lines.line(i));
    if (acc > 0 && acc + t > budget) {
      emit(first, i - 1);
      first = i;
      acc = 0;
    }
    acc += t;
  }
  emit(first, block.lastLine);
  return units;
}

/** A table over the budget: rows packed to the budget, the header and delimiter row repeated in each piece. */
function splitTable(lines: Lines, block: Block, budget: number): Unit[] {
  const header = `${lines.line(block.firstLine)}\n${lines.line(block.firstLine + 1)}`;
  const room = Math.max(1, budget - countTokens(header));
  const units: Unit[] = [];
  const emit = (a: number, b: number): void => {
    const rows = lines.text.slice(a, b + 1).join('\n');
    const first = a === block.firstLine + 2;
    const text = `${header}\n${rows}`;
    const unit: Unit = {
      kind: 'table',
      start: first ? block.start : lines.start(a),
      end: lines.end(b),
      tokens: countTokens(text),
      prose: false,
    };
    if (!first) unit.text = text;
    units.push(unit);
  };
  let first = block.firstLine + 2;
  let acc = 0;
  for (let i = first; i <= block.lastLine; i++) {
    const t = countTokens(lines.line(i));
    if (acc > 0 && acc + t > room) {
      emit(first, i - 1);
      first = i;
      acc = 0;
    }
    acc += t;
  }
  if (first <= block.lastLine) emit(first, block.lastLine);
  return units;
}

/** A list over the budget: whole items where they fit, else the item's lines (never inside a nested fence). */
function splitList(lines: Lines, block: Block, budget: number): Unit[] {
  const items = block.items ?? [block.firstLine];
  const units: Unit[] = [];
  for (let k = 0; k < items.length; k++) {
    const a = items[k] ?? block.firstLine;
    let b = k + 1 < items.length ? (items[k + 1] ?? block.lastLine + 1) - 1 : block.lastLine;
    while (b > a && lines.line(b).trim() === '') b--;
    const start = lines.start(a);
    const end = lines.end(b);
    const tokens = countTokens(lines.source.slice(start, end));
    if (tokens <= budget) {
      units.push({ kind: 'text', start, end, tokens, prose: true });
      continue;
    }
    const indent = matchListItem(lines.line(a))?.contentIndent ?? 2;
    for (const u of splitLineAtoms(lines, a, b, budget, 'text', (l, i) =>
      i === a ? (matchListItem(l)?.content ?? l) : dedent(l, indent),
    )) {
      units.push(u);
    }
  }
  return units;
}

/**
 * Lines `first..last` as units, except that a fenced block nested inside (seen through `inner`,
 * which strips the container's prefix) stays in one unit with its fences. A line over the budget
 * is cut at sentences.
 */
function splitLineAtoms(
  lines: Lines,
  first: number,
  last: number,
  budget: number,
  kind: UnitKind,
  inner: (line: string, index: number) => string,
): Unit[] {
  const src = lines.source;
  const units: Unit[] = [];
  let i = first;
  while (i <= last) {
    const line = lines.line(i);
    if (line.trim() === '') {
      i++;
      continue;
    }
    const fence = kind === 'html' ? undefined : matchFenceOpen(inner(line, i));
    if (fence) {
      let j = i + 1;
      while (j <= last && !isFenceClose(inner(lines.line(j), j), fence)) j++;
      const end = Math.min(j, last);
      const s = lines.start(i);
      const e = lines.end(end);
      units.push({ kind: 'code', start: s, end: e, tokens: countTokens(src.slice(s, e)), prose: false });
      i = end + 1;
      continue;
    }
    const s = lines.start(i);
    const e = lines.end(i);
    const t = countTokens(line);
    if (t <= budget) units.push({ kind, start: s, end: e, tokens: t, prose: kind === 'text' });
    else for (const u of splitProse(src, s, e, budget)) units.push(kind === 'text' ? u : { ...u, kind, prose: false });
    i++;
  }
  return units;
}
