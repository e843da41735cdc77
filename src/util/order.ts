/**
 * Strings in the order SQLite's BINARY collation gives them (their UTF-8 bytes, that is their code
 * points): JavaScript compares UTF-16 units, which put a character beyond U+FFFF (a surrogate pair)
 * before one from U+E000 to U+FFFF.
 */
export function byCodePoint(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return unitRank(x) - unitRank(y);
  }
  return a.length - b.length;
}

/** A UTF-16 unit's place in code point order: surrogates after every other unit. */
function unitRank(u: number): number {
  if (u >= 0xd800 && u <= 0xdfff) return u + 0x2000;
  return u >= 0xe000 ? u - 0x800 : u;
}
