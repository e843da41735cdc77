/**
 * ICU ends a sentence after a quoted question (`将“这个设计好吗？”等主观判断…`) and leaves an
 * opening quote on the sentence before it (`…彼此靠近。"怎么…`): the pieces are put back together.
 */
export function mendQuotes(list: string[]): string[] {
  const out: string[] = [];
  for (const s of list) {
    const prev = out[out.length - 1];
    // A quoted question that opens an English sentence (`“Is this design beautiful?” is hard to…`) goes on in lower case.
    const opensSentence = prev !== undefined && /[?!][”"’]$/u.test(prev) && /^[a-z]/.test(s);
    if (prev !== undefined && (opensSentence || quotedInside(prev)) && /^[\p{Script=Han}a-z，、,]/u.test(s)) {
      out[out.length - 1] = /\p{Script=Han}/u.test(s[0]!) || /^[，、]/.test(s) ? prev + s : `${prev} ${s}`;
      continue;
    }
    // An ASCII quote left over after the end mark opens the next sentence.
    if (prev !== undefined && /[。！？.!?]"$/u.test(prev) && (prev.match(/"/g) ?? []).length % 2 === 1) {
      out[out.length - 1] = prev.slice(0, -1);
      out.push(`"${s}`);
      continue;
    }
    out.push(s);
  }
  return out;
}

/** The sentence ends with a question or exclamation quoted in the middle of it (not a reply after "说：" or a comma). */
function quotedInside(s: string): boolean {
  // The end of the sentence only: linear however long it is.
  const tail = s.slice(-300);
  const m = /[“「『"]([^“”「」『』"]*)[？！?!][”」』"]$/u.exec(tail);
  if (!m) return false;
  const before = s.slice(0, s.length - tail.length + m.index).trimEnd();
  return before !== '' && !/[：:，,。！？.!?；;]$/u.test(before);
}
