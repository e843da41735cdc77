import { createRequire } from 'node:module';

/**
 * Folding for search: Traditional Chinese to Simplified (OpenCC's phrases and characters, from
 * opencc-js) and NFKC (full-width letters and digits, compatibility ideographs),
 * applied the same way to what is indexed and to questions, so either script finds the other.
 * Spelling only, not vocabulary: OpenCC's Taiwan-to-Mainland word table would also turn the
 * Mainland 向量 into 矢量. The conversion runs only on a text that holds a Traditional character.
 */
type Converter = (s: string) => string;
interface OpenCC {
  ConverterFactory: (...groups: unknown[]) => Converter;
  Locale: { from: Record<string, string[][]>; to: Record<string, string[][]> };
}

const require = createRequire(import.meta.url);
let opencc: OpenCC | undefined;
let convert: Converter | undefined;
/** Code points that start a Traditional (or Taiwan-only) spelling in OpenCC's tables. */
let traditional: Set<number> | undefined;

function tables(): OpenCC {
  opencc ??= require('opencc-js/t2cn') as OpenCC;
  return opencc;
}

function traditionalStarts(): Set<number> {
  if (!traditional) {
    const { Locale } = tables();
    traditional = new Set();
    // Characters only: a phrase table entry starts with a character that may be Simplified too.
    for (const dict of [Locale.to['cn']![0]![1]!])
      for (const pair of dict.split('|')) {
        const [from, to] = pair.split(' ');
        if (from && to && Array.from(from).length === 1 && from !== to) traditional.add(from.codePointAt(0)!);
      }
  }
  return traditional;
}

const HAN_ANY = /[\u3400-\u9fff\uf900-\ufaff\u{20000}-\u{2ffff}]/u;
const NEEDS_NFKC = /[\uf900-\ufaff\uff01-\uff5e\u3000\u2f00-\u2fdf]/;

/** Whether the text holds a character that OpenCC writes differently in Simplified Chinese. */
export function hasTraditional(text: string): boolean {
  if (!HAN_ANY.test(text)) return false;
  const set = traditionalStarts();
  for (const ch of text) if (set.has(ch.codePointAt(0)!)) return true;
  return false;
}

/** Traditional → Simplified, NFKC; other text unchanged. */
export function foldText(text: string): string {
  if (NEEDS_NFKC.test(text)) text = text.normalize('NFKC');
  if (!hasTraditional(text)) return text;
  if (!convert) {
    const { ConverterFactory, Locale } = tables();
    convert = ConverterFactory(Locale.to['cn']);
  }
  return convert(text);
}

let toMainland: Converter | undefined;
let variants: Converter | undefined;

/**
 * A word as Mainland Chinese writes it. A word holding a Traditional character goes through OpenCC's
 * Taiwan phrases and then its characters (程式碼 → 代码, 開源專案 → 开源项目, 智慧體 → 智能体,
 * 上下文視窗 → 上下文窗口); any other only through Taiwan's character variants (意味著 → 意味着:
 * 著 is a Simplified character too, so the word reads as Simplified).
 * For telling everyday words and one idea's two spellings, never for keys or search: the phrase
 * table is vocabulary, and would turn the Simplified 向量 into 矢量 (so it is not run on one).
 */
export function mainlandWord(word: string, opts: { taiwan?: boolean } = {}): string {
  if (!HAN_ANY.test(word)) return word;
  const { ConverterFactory, Locale } = tables();
  // A word a text in Traditional script writes (伺服器, 命令列: no Traditional character) is Taiwan's too.
  if (!hasTraditional(word) && !opts.taiwan) {
    variants ??= ConverterFactory(Locale.from['tw'], Locale.to['cn']);
    return variants(word);
  }
  toMainland ??= ConverterFactory(Locale.from['twp'], Locale.to['cn']);
  return toMainland(word.normalize('NFKC'));
}
