/** The text with every `<!-- … -->` replaced by `by` (a space unless told); an unclosed one stays as it is. Linear, where a lazy pattern rescans the rest of the text for every unclosed `<!--`. */
export function cutComments(text: string, by = ' '): string {
  let at = text.indexOf('<!--');
  if (at < 0) return text;
  let out = '';
  let last = 0;
  while (at >= 0) {
    const end = text.indexOf('-->', at + 4);
    if (end < 0) break;
    out += text.slice(last, at) + by;
    last = end + 3;
    at = text.indexOf('<!--', last);
  }
  return out + text.slice(last);
}
