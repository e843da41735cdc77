import * as EN from './lang/en.js';
import { anyOf, escapeRe } from './lang/words.js';
import * as ZH from './lang/zh.js';

/** Any of the names, as a pattern: spaces inside a name may be left out or doubled. */
export function anyName(names: readonly string[]): string {
  return `(?:${names.map((n) => escapeRe(n).replace(/\s+/g, '\\s*')).join('|')})`;
}

/**
 * A sentence that opens with one of `names` and says what kind of thing it is: "A module is a
 * collection of…", "Sharding is a way to…", "向量数据库是一种…" (each language's genus copulas).
 */
export function genusSentence(names: readonly string[]): RegExp {
  const any = anyName(names);
  return new RegExp(
    `^[\\s\\p{P}\\p{S}]{0,2}(?:an?\\s+|the\\s+)?${any}(?:e?s)?\\s+(?:${anyOf(EN.GENUS_COPULAS)})\\s+(?:${anyOf(EN.GENUS_ARTICLES)})\\s|^[\\s\\p{P}]{0,2}${any}\\s*(?:${anyOf(ZH.GENUS_COPULAS)})`,
    'iu',
  );
}
