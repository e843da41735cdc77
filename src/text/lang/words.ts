/** A list of words written as one string, split on white space. */
export function wordList(s: string): string[] {
  return s.trim().split(/\s+/);
}

/** A regular expression's source matching any of the words, longest first, each escaped. */
export function anyOf(words: readonly string[]): string {
  return [...words]
    .sort((a, b) => b.length - a.length)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'))
    .join('|');
}
