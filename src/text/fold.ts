import { createRequire } from 'node:module';

/**
 * Folding for search: Traditional Chinese to Simplified (OpenCC's Taiwan phrases and characters,
 * from opencc-js) and NFKC (full-width letters and digits, compatibility ideographs), applied
 * the same way to what is indexed and to questions, so either script finds the other.
 * The OpenCC tables load on the first text that holds a Traditional character: a Simplified or
 * English text costs one pass over its characters.
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
    for (const group of [...Locale.from['twp']!, ...Locale.to['cn']!])
      for (const dict of group)
        for (const pair of dict.split('|')) {
          const from = pair.slice(0, pair.indexOf(' '));
          const to = pair.slice(pair.indexOf(' ') + 1);
          const cp = from.codePointAt(0);
          // An entry that maps a spelling to itself (or only differs later on) is not a sign of Traditional text.
          if (cp !== undefined && from !== to && from.codePointAt(0) !== to.codePointAt(0)) traditional.add(cp);
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

/** Traditional → Simplified (Taiwan vocabulary → Mainland), NFKC; other text unchanged. */
export function foldText(text: string): string {
  if (NEEDS_NFKC.test(text)) text = text.normalize('NFKC');
  if (!hasTraditional(text)) return text;
  if (!convert) {
    const { ConverterFactory, Locale } = tables();
    convert = ConverterFactory(Locale.from['twp'], Locale.to['cn']);
  }
  return convert(text);
}
