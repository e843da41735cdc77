import type { Point } from '../diagnostics/message.js';

export type Decoded =
  | { ok: true; text: string }
  | { ok: false; problem: 'empty' }
  | { ok: false; problem: 'binary' }
  | { ok: false; problem: 'encoding'; offset: number; place: Point };

const utf8 = new TextDecoder('utf-8', { fatal: true });
const SAMPLE = 8192;

/**
 * Bytes to text with LF line ends, or why not: empty (or only whitespace), binary (NUL bytes or
 * many control characters), or not UTF-8. A UTF-8 BOM is dropped; a UTF-16 BOM (Windows Notepad)
 * is honoured. `charset` is tried when the bytes are not UTF-8 (an HTML page's declared charset).
 */
export function decodeText(bytes: Uint8Array, charset?: string): Decoded {
  if (bytes.length === 0) return { ok: false, problem: 'empty' };
  const utf16 = decodeUtf16(bytes);
  if (utf16 !== undefined) return finish(utf16);
  if (looksBinary(bytes)) return { ok: false, problem: 'binary' };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    const other = charset && !/^utf-?8$/i.test(charset) ? charset : undefined;
    const fallback = other ? decodeAs(bytes, other) : undefined;
    if (fallback === undefined) {
      const offset = firstInvalidUtf8(bytes);
      return { ok: false, problem: 'encoding', offset, place: placeOf(bytes, offset) };
    }
    text = fallback;
  }
  return finish(text);
}

export type Guessed = Decoded & { encoding?: string };

/** Guesses are made on the first bytes only: enough for a detector, and fast on a large file. */
const GUESS_SAMPLE = 64 * 1024;

/**
 * `decodeText`, and when the bytes are neither UTF-8 nor the declared charset: the encoding
 * chardet guesses (GB18030, Big5, Shift_JIS, EUC-KR, UTF-16 without a BOM, Windows-1252, …),
 * tried in order of confidence with a strict TextDecoder. chardet loads only for such files.
 */
export async function decodeGuessing(bytes: Uint8Array, charset?: string): Promise<Guessed> {
  const first = decodeText(bytes, charset);
  if (first.ok || first.problem === 'empty') return first;
  if (first.problem === 'binary') {
    const utf16 = maybeUtf16(bytes);
    const text = utf16 ? decodeAs(bytes, utf16, true) : undefined;
    const done = text === undefined ? undefined : finish(text);
    return done?.ok && looksLikeText(done.text) ? { ...done, encoding: utf16!.toUpperCase() } : first;
  }
  const { analyse } = await import('chardet');
  const sample = bytes.length > GUESS_SAMPLE ? bytes.subarray(0, GUESS_SAMPLE) : bytes;
  const top = analyse(sample)[0];
  const attempt = (name: string): Guessed | undefined => {
    const text = decodeAs(bytes, name, true);
    const done = text === undefined ? undefined : finish(text);
    if (!done?.ok || !looksLikeText(done.text)) return undefined;
    if (CJK_ENCODINGS.includes(name) && !commonCjk(done.text)) return undefined;
    return { ...done, encoding: name };
  };
  // Chinese, Japanese or Korean first when the bytes decode to common characters standing in runs
  // (detectors are unsure on short texts with few non-ASCII bytes), chardet's choice first among
  // them. A single-byte code page decodes any bytes at all: taken only when chardet is sure.
  const order =
    top && CJK_ENCODINGS.includes(top.name)
      ? [top.name, ...CJK_ENCODINGS.filter((n) => n !== top.name)]
      : CJK_ENCODINGS;
  for (const name of order) {
    const cjk = attempt(name);
    if (cjk) return cjk;
  }
  const confident = top && top.confidence >= 50 && !/^utf-8$/i.test(top.name) ? attempt(top.name) : undefined;
  return confident ?? first;
}

const CJK_ENCODINGS = ['GB18030', 'Big5', 'Shift_JIS', 'EUC-JP', 'EUC-KR'];

/** Almost every non-ASCII character is a common CJK one (ideographs, kana, hangul, CJK and full-width punctuation). */
function commonCjk(text: string): boolean {
  let other = 0;
  let cjk = 0;
  for (const ch of text.slice(0, 8192)) {
    if (ch.charCodeAt(0) < 0x80) continue;
    if (/[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff01-\uff60\u2010-\u2027\u00b7]/u.test(ch)) cjk++;
    else other++;
  }
  return cjk > 0 && other <= cjk * 0.05 && !gluedIntoWords(text);
}

/** Latin text with accents read as GBK shows lone ideographs inside words (`tr蠸 bon`); real CJK text has runs. */
function gluedIntoWords(text: string): boolean {
  const chars = [...text.slice(0, 8192)];
  const isCjk = (c: string | undefined) => c !== undefined && c.charCodeAt(0) >= 0x2e80;
  const isLetter = (c: string | undefined) => c !== undefined && /[A-Za-z]/.test(c);
  let lone = 0;
  let all = 0;
  chars.forEach((c, i) => {
    if (!isCjk(c)) return;
    all++;
    const prev = chars[i - 1];
    const next = chars[i + 1];
    if (!isCjk(prev) && !isCjk(next) && (isLetter(prev) || isLetter(next))) lone++;
  });
  return lone > all * 0.3;
}

/** Every other byte NUL in the first bytes: UTF-16 text without a byte order mark (its byte order). */
function maybeUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const n = Math.min(bytes.length, 512) & ~1;
  if (n < 4 || bytes.length % 2 !== 0) return undefined;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) even++;
    if (bytes[i + 1] === 0) odd++;
  }
  if (odd > n / 8 && even === 0) return 'utf-16le';
  if (even > n / 8 && odd === 0) return 'utf-16be';
  return undefined;
}

/** Decoded text that is not control characters in disguise (a wrong guess on binary bytes). */
function looksLikeText(text: string): boolean {
  const sample = text.slice(0, 4096);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: counting control characters is the point (binary sniffing)
  const control = sample.match(/[\u0000-\u0008\u000e-\u001a\u001c-\u001f\u007f-\u009f\ufffd]/g)?.length ?? 0;
  return control <= sample.length * 0.02;
}

/** NUL bytes, or more than 5% control characters in the first 8 KB (ESC is allowed: ANSI colours in logs). */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, SAMPLE);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i] as number;
    if (b === 0) return true;
    if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x0b && b !== 0x1b) || b === 0x7f)
      control++;
  }
  if (control > n * 0.05) return true;
  return bytes.length > SAMPLE && bytes.indexOf(0, SAMPLE) !== -1;
}

/** Valid UTF-8 without NUL bytes: what a file of unknown type must be to count as text. */
export function isText(bytes: Uint8Array): boolean {
  if (looksBinary(bytes)) return false;
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return decodeUtf16(bytes) !== undefined;
  }
}

function finish(text: string): Decoded {
  const lf = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const normalised = lf.includes('\r') ? lf.replace(/\r\n?/g, '\n') : lf;
  if (!/\S/u.test(normalised)) return { ok: false, problem: 'empty' };
  return { ok: true, text: normalised };
}

function decodeUtf16(bytes: Uint8Array): string | undefined {
  if (bytes.length < 2 || bytes.length % 2 !== 0) return undefined;
  const le = bytes[0] === 0xff && bytes[1] === 0xfe;
  const be = bytes[0] === 0xfe && bytes[1] === 0xff;
  if (!le && !be) return undefined;
  return decodeAs(bytes, le ? 'utf-16le' : 'utf-16be', true);
}

function decodeAs(bytes: Uint8Array, charset: string, fatal = false): string | undefined {
  try {
    return new TextDecoder(charset, { fatal }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return bytes.length;
}

function placeOf(bytes: Uint8Array, offset: number): Point {
  const before = Buffer.from(bytes.buffer, bytes.byteOffset, offset).toString('utf8');
  const lastLf = before.lastIndexOf('\n');
  const line = before.split('\n').length;
  return { line, column: before.length - lastLf };
}
