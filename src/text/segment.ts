import { HAN } from './script.js';

// Made on first use: ICU takes ~10 ms to make them, which a command that segments nothing (search) need not pay.
let wordSegmenterMade: Intl.Segmenter | undefined;
let sentenceSegmenterMade: Intl.Segmenter | undefined;
const wordSegmenter = () => (wordSegmenterMade ??= new Intl.Segmenter('zh', { granularity: 'word' }));
const sentenceSegmenter = () => (sentenceSegmenterMade ??= new Intl.Segmenter('zh', { granularity: 'sentence' }));

/**
 * Intl.Segmenter in Node 20 slows down more than linearly on long strings (80,000 Han characters
 * take seconds): feed it windows of at most ~2,000 characters, cut after a line break or a
 * sentence end so no word or sentence is split.
 */
const WINDOW = 2000;

function* windows(text: string): Generator<[string, number]> {
  let start = 0;
  while (text.length - start > WINDOW) {
    const slice = text.slice(start, start + WINDOW);
    let cut = Math.max(
      slice.lastIndexOf('\n'),
      ...['。', '！', '？', '. ', '! ', '? '].map((p) => slice.lastIndexOf(p)),
    );
    if (cut < WINDOW / 4) cut = Math.max(slice.lastIndexOf(' '), slice.lastIndexOf('，'));
    const end = cut < WINDOW / 4 ? WINDOW : cut + 1;
    yield [text.slice(start, start + end), start];
    start += end;
  }
  yield [text.slice(start), start];
}

export interface Word {
  text: string;
  index: number;
  /** The segment is a word (not punctuation or space). */
  isWord: boolean;
}

/** ASCII without letters, digits or `_`: ICU makes every character a segment but runs of spaces and CRLF. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII ranges start at \x00 on purpose (spaces, CR, LF are segments too)
const ASCII_PUNCT = /^[\x00-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]*$/;

/**
 * The segments ICU gives such text, without ICU: it costs microseconds per segment, which a
 * megabyte of `*[(` or `=====` turns into half a minute (a test checks both agree).
 */
export function* punctuationSegments(win: string): Generator<{ segment: string; index: number; isWordLike: boolean }> {
  let i = 0;
  while (i < win.length) {
    let j = i + 1;
    if (win[i] === ' ') while (j < win.length && win[j] === ' ') j++;
    else if (win[i] === '\r' && win[j] === '\n') j++;
    yield { segment: win.slice(i, j), index: i, isWordLike: false };
    i = j;
  }
}

function segmentsOf(win: string): Iterable<{ segment: string; index: number; isWordLike?: boolean }> {
  return ASCII_PUNCT.test(win) ? punctuationSegments(win) : wordSegmenter().segment(win);
}

/** Word segmentation for mixed Chinese/English text (ICU dictionary for Chinese). */
export function segmentWords(text: string): Word[] {
  const out: Word[] = [];
  for (const [win, offset] of windows(text)) {
    for (const s of segmentsOf(win))
      out.push({ text: s.segment, index: s.index + offset, isWord: s.isWordLike === true });
  }
  return out;
}

/** Just the word-like segments. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const [win] of windows(text))
    if (!ASCII_PUNCT.test(win)) for (const s of wordSegmenter().segment(win)) if (s.isWordLike) out.push(s.segment);
  return out;
}

/**
 * Sentences for both scripts. ICU's sentence rules handle `。！？` as well as `. ! ?`;
 * we trim and drop empty pieces, and also break on newlines (lists, headings).
 */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    for (const [win] of windows(line))
      for (const s of sentenceSegmenter().segment(win)) {
        const t = s.segment.trim();
        if (t) out.push(t);
      }
  }
  return out;
}

export function isHanWord(w: string): boolean {
  return HAN.test(w);
}

/**
 * Sentences as [start, end) offsets into `text` (trimmed of surrounding space), by line and then by
 * ICU's sentence rules: an excerpt cut from them keeps the text exactly as it was written.
 */
export function sentenceSpans(text: string): [number, number][] {
  const out: [number, number][] = [];
  let lineStart = 0;
  for (const line of text.split('\n')) {
    for (const [win, offset] of windows(line)) {
      for (const s of sentenceSegmenter().segment(win)) {
        const raw = s.segment;
        const lead = raw.length - raw.trimStart().length;
        const body = raw.trim();
        if (!body) continue;
        const start = lineStart + offset + s.index + lead;
        out.push([start, start + body.length]);
      }
    }
    lineStart += line.length + 1;
  }
  return out;
}
