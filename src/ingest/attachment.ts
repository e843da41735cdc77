import type { Converted } from './types.js';

export interface ImageSize {
  width: number;
  height: number;
}

/** An attachment is described, not read: name, path, type, size, and pixel size for images. */
export function convertAttachment(
  name: string,
  rawPath: string,
  mime: string,
  size: number,
  bytes: Uint8Array,
): Converted {
  const meta: Record<string, unknown> = {};
  const dims = imageSize(bytes);
  let what = `${mime}, ${formatBytes(size)}`;
  if (dims) {
    meta.width = dims.width;
    meta.height = dims.height;
    what += `, ${dims.width}×${dims.height}`;
  }
  return { title: name, markdown: `# ${name}\n\nAttachment: \`raw/${rawPath}\` (${what}).\n`, meta };
}

/** `512 B`, `12.3 KB`, `4.0 MB` (binary units, as file managers show them). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u] as string}`;
}

/** Pixel size from the header of a PNG, GIF, JPEG or WebP, whatever the file's extension says. */
export function imageSize(b: Uint8Array): ImageSize | undefined {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const at = (i: number, s: string): boolean => {
    for (let k = 0; k < s.length; k++) if (b[i + k] !== s.charCodeAt(k)) return false;
    return true;
  };
  const ok = (width: number, height: number): ImageSize | undefined =>
    width > 0 && height > 0 ? { width, height } : undefined;

  if (b.length >= 24 && at(0, '\x89PNG\r\n\x1a\n') && at(12, 'IHDR')) return ok(dv.getUint32(16), dv.getUint32(20));
  if (b.length >= 10 && (at(0, 'GIF87a') || at(0, 'GIF89a'))) return ok(dv.getUint16(6, true), dv.getUint16(8, true));
  if (b.length >= 30 && at(0, 'RIFF') && at(8, 'WEBP')) {
    if (at(12, 'VP8 ')) return ok(dv.getUint16(26, true) & 0x3fff, dv.getUint16(28, true) & 0x3fff);
    if (at(12, 'VP8L')) {
      const bits = dv.getUint32(21, true);
      return ok((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
    }
    if (at(12, 'VP8X')) return ok(uint24(b, 24) + 1, uint24(b, 27) + 1);
    return undefined;
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) return jpegSize(b, dv);
  return undefined;
}

function uint24(b: Uint8Array, i: number): number {
  return (b[i] as number) | ((b[i + 1] as number) << 8) | ((b[i + 2] as number) << 16);
}

/** Walk the JPEG segments to the first start-of-frame marker, which holds the size. */
function jpegSize(b: Uint8Array, dv: DataView): ImageSize | undefined {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1] as number;
    if (marker === 0xff) {
      i++;
      continue;
    }
    // Markers without a length: TEM, RSTn.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      const height = dv.getUint16(i + 5);
      const width = dv.getUint16(i + 7);
      return width > 0 && height > 0 ? { width, height } : undefined;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined;
    i += 2 + dv.getUint16(i + 2);
  }
  return undefined;
}
