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

/** NUL bytes, or more than 5% control characters in the first 8 KB (ESC is allowed: ANSI colours in logs). */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, SAMPLE);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i] as number;
    if (b === 0) return true;
    if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x0b && b !== 0x1b) || b === 0x7f) control++;
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
