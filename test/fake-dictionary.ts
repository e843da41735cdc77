import type { Dictionary, Translate } from '../src/compile/concepts.js';

/**
 * A dictionary of a few CC-CEDICT entries, Chinese words and their English senses, as concept
 * merging reads the real one (compile/dictionary.ts): a run is cut longest word first, a character
 * alone where no word fits (as Lexicon.words does).
 */
export function fakeDictionary(entries: Record<string, string[]>, chinese: Translate = () => undefined): Dictionary {
  const words = Object.keys(entries).sort((a, b) => b.length - a.length);
  return {
    chinese,
    english: (w) => entries[w] ?? [],
    words: (run) => {
      const out: string[] = [];
      for (let i = 0; i < run.length; ) {
        const w = words.find((x) => run.startsWith(x, i)) ?? run[i]!;
        out.push(w);
        i += w.length;
      }
      return out;
    },
  };
}
