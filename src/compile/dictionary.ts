import type { EntityRow } from '../store/store.js';
import { lexiconFor } from '../text/lexicon.js';
import type { Dictionary } from './concepts.js';

/**
 * CC-CEDICT (src/text/lexicon.ts), built once per user when missing (seconds of work), whenever a
 * name in Han script may need it: what compile writes depends on raw/, config and kb's version
 * only, never on whether some earlier command happened to build the lexicon.
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
    chinese: (key) => {
      const best = lex.chinese(key)[0];
      return best && best.weight === 1 && Array.from(best.term).length >= 2 ? best.term : undefined;
    },
    english: (word) => lex.english(word).map((t) => t.term),
    words: (run) => lex.words(run),
  });
}
