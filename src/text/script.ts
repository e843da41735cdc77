/** Han ideographs (CJK unified + extension A + compatibility). */
export const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/u;
export const HAN_G = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/gu;

export function isHanChar(ch: string): boolean {
  return HAN.test(ch);
}

export function hasHan(text: string): boolean {
  return HAN.test(text);
}

/** How many Han characters (of HAN's ranges) a text holds, counted without a copy of them. */
export function hanCount(text: string): number {
  let n = 0;
  // By code unit: the ranges of HAN all lie in the Basic Multilingual Plane.
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff)) n++;
  }
  return n;
}

/** Whether a piece of text reads as Chinese: a Han character weighs about three Latin letters. */
export function inChinese(s: string): boolean {
  const han = (s.match(/\p{Script=Han}/gu) ?? []).length;
  return han * 3 > (s.match(/[a-z]/gi) ?? []).length;
}

/** Dominant language by character counts: Han characters vs Latin letters. */
export function detectLang(text: string): 'en' | 'zh' | 'mixed' {
  const n = Math.min(text.length, 20000);
  let han = 0;
  let latin = 0;
  // Counted by code unit: the ranges of HAN all lie in the Basic Multilingual Plane.
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) latin++;
    else if ((c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff)) han++;
  }
  // A Han character carries about as much as a 3-4 letter word.
  const hanWeight = han * 3;
  if (hanWeight === 0 && latin === 0) return 'en';
  if (hanWeight > latin * 2) return 'zh';
  if (latin > hanWeight * 4) return 'en';
  return 'mixed';
}
