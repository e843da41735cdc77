import type { EntityRow } from '../store/store.js';
import { foldText, mainlandWord } from '../text/fold.js';
import { lexiconFor } from '../text/lexicon.js';
import type { Dictionary } from './concepts.js';

/**
 * CC-CEDICT (src/text/lexicon.ts), built once per user when missing (seconds of work), whenever a
 * name in Han script may need it: what compile writes depends on raw/, config and kb's version
 * only, never on whether some earlier command happened to build the lexicon.
 *
 * The lexicon is kept in Simplified script, so a word written in Traditional script (衝突, 歸併,
 * 伺服器) is looked up as Mainland Chinese writes it (冲突, 归并, 服务器), and a Traditional run is
 * cut where its Simplified spelling is cut, the pieces given back in the text's own characters.
 */
export function withDictionary<T>(
  stateDir: string,
  entities: readonly EntityRow[],
  f: (d: Dictionary | undefined) => T,
): T {
  const han = /\p{Script=Han}/u;
  if (!entities.some((e) => han.test(e.key) || e.aliases.some((a) => han.test(a)))) return f(undefined);
  const lex = lexiconFor(stateDir);
  return f({
    chinese: (key) => usualChinese(key, lex.chinese(key), (zh) => lex.english(zh)[0]?.term),
    english: (word) => lex.english(mainlandWord(word)).map((t) => t.term),
    words: (run) => wordsOf(run, lex.words.bind(lex)),
  });
}

/** A run cut into dictionary words through its Simplified spelling, each piece in the run's own characters. */
export function wordsOf(run: string, cut: (simplified: string) => string[]): string[] {
  const folded = foldText(run);
  if (folded === run) return cut(run);
  const chars = Array.from(run);
  // OpenCC's phrases may change a word's length (a Taiwan word for a Mainland one): cut as written then.
  if (Array.from(folded).length !== chars.length) return cut(run);
  let at = 0;
  return cut(folded).map((w) => {
    const n = Array.from(w).length;
    const piece = chars.slice(at, at + n).join('');
    at += n;
    return piece;
  });
}

/**
 * The usual Chinese of an English name (a lowercase key), of its dictionary senses (best first): the
 * best, when it is a word of two characters or more. When the best is one character (patch: 补), a
 * piece of words more than a word, the next word of two or more that translates back to the name
 * first (补丁: patch) is its translation; one that translates back to another word is not.
 */
export function usualChinese(
  key: string,
  senses: readonly { term: string; weight: number }[],
  englishOf: (zh: string) => string | undefined,
): string | undefined {
  const best = senses[0];
  if (best?.weight !== 1) return undefined;
  if (Array.from(best.term).length >= 2) return best.term;
  const word = senses.find((t) => Array.from(t.term).length >= 2);
  return word && englishOf(word.term) === key ? word.term : undefined;
}
