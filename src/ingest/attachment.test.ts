import { describe, expect, it } from 'vitest';
import { formatBytes, imageSize } from './attachment.js';

function png(width: number, height: number): Buffer {
  const b = Buffer.alloc(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  return b;
}

function gif(width: number, height: number): Buffer {
  const b = Buffer.alloc(13);
  b.write('GIF89a', 0, 'latin1');
  b.writeUInt16LE(width, 6);
  b.writeUInt16LE(height, 8);
  return b;
}

/** SOI, an APP0 (JFIF) segment, then a baseline or progressive frame header. */
function jpeg(width: number, height: number, sof = 0xc0): Buffer {
  const app0 = Buffer.from([
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
  ]);
  const frame = Buffer.alloc(19);
  frame.set([0xff, sof, 0x00, 0x11, 0x08]);
  frame.writeUInt16BE(height, 5);
  frame.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, frame]);
}

function webp(kind: 'VP8 ' | 'VP8L' | 'VP8X', width: number, height: number): Buffer {
  const b = Buffer.alloc(40);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(32, 4);
  b.write('WEBP', 8, 'latin1');
  b.write(kind, 12, 'latin1');
  if (kind === 'VP8 ') {
    b.set([0x9d, 0x01, 0x2a], 23);
    b.writeUInt16LE(width, 26);
    b.writeUInt16LE(height, 28);
  } else if (kind === 'VP8L') {
    b[20] = 0x2f;
    b.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 21);
  } else {
    b.writeUIntLE(width - 1, 24, 3);
    b.writeUIntLE(height - 1, 27, 3);
  }
  return b;
}

describe('imageSize', () => {
  const cases: [string, Buffer, { width: number; height: number } | undefined][] = [
    ['png', png(640, 480), { width: 640, height: 480 }],
    ['gif', gif(32, 16), { width: 32, height: 16 }],
    ['jpeg baseline', jpeg(1920, 1080), { width: 1920, height: 1080 }],
    ['jpeg progressive', jpeg(800, 600, 0xc2), { width: 800, height: 600 }],
    ['webp lossy', webp('VP8 ', 300, 200), { width: 300, height: 200 }],
    ['webp lossless', webp('VP8L', 1024, 768), { width: 1024, height: 768 }],
    ['webp extended', webp('VP8X', 4000, 3000), { width: 4000, height: 3000 }],
    ['truncated png', png(1, 1).subarray(0, 20), undefined],
    ['truncated jpeg', jpeg(10, 10).subarray(0, 12), undefined],
    ['not an image', Buffer.from('hello world, this is text'), undefined],
    ['empty', Buffer.alloc(0), undefined],
  ];
  it.each(cases)('%s', (_name, bytes, expected) => {
    expect(imageSize(bytes)).toEqual(expected);
  });
});

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.0 KB'],
    [12_600, '12.3 KB'],
    [10 * 1024 * 1024, '10.0 MB'],
    [3 * 1024 ** 3, '3.0 GB'],
  ])('%d → %s', (n, s) => {
    expect(formatBytes(n)).toBe(s);
  });
});
