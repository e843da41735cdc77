import { HAN } from './script.js';

const wordSegmenter = new Intl.Segmenter('zh', { granularity: 'word' });
const sentenceSegmenter = new Intl.Segmenter('zh', { granularity: 'sentence' });

export interface Word {
  text: string;
  index: number;
  /** The segment is a word (not punctuation or space). */
  isWord: boolean;
}

/** Word segmentation for mixed Chinese/English text (ICU dictionary for Chinese). */
export function segmentWords(text: string): Word[] {
  const out: Word[] = [];
  for (const s of wordSegmenter.segment(text)) {
    out.push({ text: s.segment, index: s.index, isWord: s.isWordLike === true });
  }
  return out;
}

/** Just the word-like segments. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const s of wordSegmenter.segment(text)) if (s.isWordLike) out.push(s.segment);
  return out;
}

/**
 * Sentences for both scripts. ICU's sentence rules handle `。！？` as well as `. ! ?`;
 * we trim and drop empty pieces, and also break on newlines (lists, headings).
 */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    for (const s of sentenceSegmenter.segment(line)) {
      const t = s.segment.trim();
      if (t) out.push(t);
    }
  }
  return out;
}

export function isHanWord(w: string): boolean {
  return HAN.test(w);
}
