/** A list of words written as one string, split on white space. */
export function wordList(s: string): string[] {
  return s.trim().split(/\s+/);
}

/** A text as a regular expression's source that matches it literally. */
export function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A regular expression's source matching any of the words, longest first, each escaped. */
export function anyOf(words: readonly string[]): string {
  return [...words]
    .sort((a, b) => b.length - a.length)
    .map((w) => escapeRe(w).replace(/ /g, '\\s+'))
    .join('|');
}
