import type { Chunk } from '../types.js';
import { countTokens } from '../text/tokens.js';
import { cutComments } from '../text/comments.js';
import { type Block, type Lines, parseBlocks } from './blocks.js';
import { type Unit, sentenceSpans, splitBlock } from './split.js';

/**
 * Version of the chunker's output. It is part of every vector's fingerprint: bump it whenever the
 * same Markdown would give different chunks, and stored vectors are rebuilt.
 */
export const CHUNKER_VERSION = 'md-v1';

export interface ChunkOptions {
  maxTokens: number;
  overlapTokens: number;
}

/** A chunk being filled. */
interface Draft {
  units: Unit[];
  /** Tokens of the units plus any non-blank text between them. */
  tokens: number;
  /** Holds something besides headings. */
  body: boolean;
  headings: string[];
}

/** How far past the overlap budget a single last sentence may go and still be repeated. */
const OVERLAP_SLACK = 1.5;

/**
 * Split a Markdown document into chunks by heading structure, then blocks, to a token budget with
 * overlap.
 *
 * - A chunk never spans two sections; it records the heading path it sits under and the line where
 *   its text starts. A heading stays in the text of its section's first chunk; a heading with no
 *   body goes along into the next section's first chunk; trailing headings with no body are dropped.
 * - Consecutive blocks are packed up to `maxTokens`. A bigger block is cut: prose at sentences (then
 *   words, then characters), lists at items, quotes at lines, tables at rows (header repeated).
 * - Fenced code is never cut inside: a block up to 2 × `maxTokens` stays whole (the only chunks over
 *   the budget); a bigger one is cut at lines and every piece gets its own fences, so each chunk's
 *   Markdown is balanced.
 * - The next chunk of the same section starts with the last whole sentences (≈ `overlapTokens`) of
 *   the previous one, taken from prose only, never from code, tables or HTML.
 * - Chunk text is the document's own text (no prefix); front matter, thematic breaks and HTML
 *   comments are not chunk content, and nothing yields an empty chunk.
 */
export function chunkMarkdown(markdown: string, opts: ChunkOptions): Chunk[] {
  const max = Math.max(1, Math.floor(opts.maxTokens));
  const overlap = Math.max(0, Math.min(Math.floor(opts.overlapTokens), Math.floor(max / 2)));
  if (markdown.trim() === '') return [];
  const { lines, blocks } = parseBlocks(markdown);
  const src = markdown;
  const chunks: Chunk[] = [];
  const path: { depth: number; title: string }[] = [];
  let draft: Draft | undefined;

  const open = (): Draft => ({ units: [], tokens: 0, body: false, headings: path.map((h) => h.title) });
  const add = (d: Draft, unit: Unit): void => {
    const prev = d.units[d.units.length - 1];
    d.tokens += unit.tokens + (prev ? gapTokens(src, prev, unit) : 0);
    d.units.push(unit);
  };
  const flush = (): void => {
    if (draft?.body) chunks.push(finish(src, lines, draft, chunks.length));
    draft = undefined;
  };

  for (const block of blocks) {
    if (isSkipped(src, block)) continue;
    const tokens = countTokens(src.slice(block.start, block.end));
    if (block.kind === 'heading') {
      if (draft?.body) flush();
      const depth = block.depth ?? 1;
      while (path.length > 0 && (path[path.length - 1]?.depth ?? 0) >= depth) path.pop();
      if (block.title) path.push({ depth, title: block.title });
      draft ??= open();
      add(draft, { kind: 'heading', start: block.start, end: block.end, tokens, prose: false });
      draft.headings = path.map((h) => h.title);
      continue;
    }
    // Headings waiting for this block take room: cut the block smaller rather than drop them.
    let budget = max;
    if (draft && !draft.body && draft.tokens + tokens > max)
      budget = Math.max(Math.ceil(max / 2), max - draft.tokens - 1);
    for (const unit of splitBlock(lines, block, budget, tokens)) {
      draft ??= open();
      const last = draft.units[draft.units.length - 1];
      const gap = last ? gapTokens(src, last, unit) : 0;
      if (draft.body && draft.tokens + gap + unit.tokens > max) {
        const tail = overlap > 0 ? overlapOf(src, draft, overlap) : undefined;
        flush();
        draft = open();
        if (tail && tail.tokens + gapTokens(src, tail, unit) + unit.tokens <= max) add(draft, tail);
      }
      add(draft, unit);
      draft.body = true;
    }
  }
  flush();
  return chunks;
}

/** Blocks that are not chunk content: they appear in a chunk only between two blocks that are. */
function isSkipped(src: string, block: Block): boolean {
  if (block.kind === 'frontmatter' || block.kind === 'thematicBreak') return true;
  return block.kind === 'html' && cutComments(src.slice(block.start, block.end), '').trim() === '';
}

/** What goes between two units of a chunk: the original text, or a blank line next to a rewritten piece. */
function gapText(src: string, a: Unit, b: Unit): string {
  const gap = src.slice(a.end, b.start);
  if ((a.text !== undefined || b.text !== undefined) && !/\n[ \t]*\n/.test(gap)) return '\n\n';
  return gap;
}

function gapTokens(src: string, a: Unit, b: Unit): number {
  const gap = gapText(src, a, b);
  return /\S/.test(gap) ? countTokens(gap) : 0;
}

function finish(src: string, lines: Lines, draft: Draft, ord: number): Chunk {
  const first = draft.units[0];
  let text = '';
  let prev: Unit | undefined;
  for (const u of draft.units) {
    if (prev) text += gapText(src, prev, u);
    text += u.text ?? src.slice(u.start, u.end);
    prev = u;
  }
  if (first?.kind !== 'code') text = text.replace(/^[ \t]+/, '');
  text = text.trimEnd();
  return { ord, headings: draft.headings, text, tokens: countTokens(text), line: lines.lineAt(first?.start ?? 0) + 1 };
}

/**
 * The tail of a chunk to repeat at the start of the next one: whole sentences from its last prose
 * units, about `limit` tokens, as one unit of original text. Undefined when the chunk ends in code,
 * a table or HTML, or when the tail would be the whole chunk.
 */
function overlapOf(src: string, draft: Draft, limit: number): Unit | undefined {
  const units = draft.units;
  const lastUnit = units[units.length - 1];
  if (!lastUnit) return undefined;
  let start: number | undefined;
  let taken = 0;
  let next: Unit | undefined;
  outer: for (let k = units.length - 1; k >= 0; k--) {
    const u = units[k];
    if (!u?.prose || u.text !== undefined) break;
    if (next && /\S/.test(src.slice(u.end, next.start))) break;
    const spans = u.sentence ? [{ start: u.start, end: u.end, tokens: u.tokens }] : tailSentences(src, u, limit);
    for (let j = spans.length - 1; j >= 0; j--) {
      const s = spans[j];
      if (!s) continue;
      if (taken + s.tokens > limit) {
        if (taken === 0 && s.tokens <= limit * OVERLAP_SLACK) start = s.start;
        break outer;
      }
      taken += s.tokens;
      start = s.start;
    }
    // Only the whole unit lets the overlap reach further back.
    if (start !== u.start) break;
    next = u;
  }
  if (start === undefined || start <= (units.find((u) => u.kind !== 'heading')?.start ?? 0)) return undefined;
  const text = src.slice(start, lastUnit.end);
  return { kind: 'text', start, end: lastUnit.end, tokens: countTokens(text), prose: true };
}

/** Sentences at the end of a unit; only a window of the tail is segmented. */
function tailSentences(src: string, u: Unit, limit: number): { start: number; end: number; tokens: number }[] {
  const from = Math.max(u.start, u.end - limit * 12);
  const spans = sentenceSpans(src, from, u.end);
  // The window may open mid-sentence.
  if (from > u.start) spans.shift();
  return spans.map((s) => ({ ...s, tokens: countTokens(src.slice(s.start, s.end)) }));
}
