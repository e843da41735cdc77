import { parseBlocks } from '../chunk/blocks.js';

/**
 * What a translation keeps as written: the identifiers and numbers of its code (blocks and inline
 * spans) and the addresses it links to. A text and its translation share most of these; two texts
 * on one subject share a few. Returned as short hashes, sorted, at most MAX_MARKS of them.
 */
const MAX_MARKS = 400;
const TOKEN = /[A-Za-z_$][\w$]*(?:[.-][A-Za-z_$][\w$]*)*|\d{2,}/g;
const INLINE_CODE = /`([^`\n]{1,200})`/g;
const LINK_URL = /\]\(\s*<?([^()\s>]{1,300})/g;
/** Words so common in any code that sharing them says nothing (keywords, `git`, `npm`). */
const TOO_SHORT = 3;

function hash(s: string): string {
  // FNV-1a, 32 bits: a stable short name for a token.
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

export function translationMarks(markdown: string): string[] {
  const found = new Set<string>();
  const take = (text: string) => {
    for (const m of text.matchAll(TOKEN)) if (m[0].length >= TOO_SHORT) found.add(m[0]);
  };
  const hasCode = /```|~~~|(?:^|\n)(?: {4}|\t)\S/.test(markdown);
  if (hasCode) {
    const { blocks } = parseBlocks(markdown);
    for (const b of blocks)
      if (b.kind === 'code' || b.kind === 'indentedCode')
        take(markdown.slice(b.start, b.end).replace(/^[`~]{3,}.*$/gm, ''));
  }
  for (const m of markdown.matchAll(INLINE_CODE)) take(m[1]!);
  for (const m of markdown.matchAll(LINK_URL)) found.add(m[1]!);
  return [...new Set([...found].map(hash))].sort().slice(0, MAX_MARKS);
}
