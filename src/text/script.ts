/** Han ideographs (CJK unified + extension A + compatibility). */
export const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/u;
export const HAN_G = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/gu;

export function isHanChar(ch: string): boolean {
  return HAN.test(ch);
}

export function hasHan(text: string): boolean {
  return HAN.test(text);
}

/** Dominant language by character counts: Han characters vs Latin letters. */
export function detectLang(text: string): 'en' | 'zh' | 'mixed' {
  const sample = text.length > 20000 ? text.slice(0, 20000) : text;
  const han = (sample.match(HAN_G) ?? []).length;
  const latin = (sample.match(/[A-Za-z]/g) ?? []).length;
  // A Han character carries about as much as a 3-4 letter word.
  const hanWeight = han * 3;
  if (hanWeight === 0 && latin === 0) return 'en';
  if (hanWeight > latin * 2) return 'zh';
  if (latin > hanWeight * 4) return 'en';
  return 'mixed';
}
