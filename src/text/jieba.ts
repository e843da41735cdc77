import { mainlandWord } from './fold.js';
import { HAN } from './script.js';
import { createRequire } from 'node:module';
import type { Jieba as JiebaT, TaggedWord, TfIdf as TfIdfT } from '@node-rs/jieba';

/**
 * jieba (jieba-rs through @node-rs/jieba) for Chinese words and their parts of speech, loaded once
 * per process on first use: building its dictionary takes a few hundred milliseconds, so text
 * without a Han character never pays for it.
 */
const require = createRequire(import.meta.url);
let jieba: JiebaT | undefined;
let tfidf: TfIdfT | undefined;
let idfMap: Map<string, number> | undefined;

function load(): JiebaT {
  if (!jieba) {
    const { Jieba } = require('@node-rs/jieba') as typeof import('@node-rs/jieba');
    const { dict } = require('@node-rs/jieba/dict') as { dict: Uint8Array };
    jieba = Jieba.withDict(dict);
  }
  return jieba;
}

/** Builds jieba's dictionary now (a long-running process, while idle), not on first use. */
export function warmJieba(): void {
  load();
}

/** Whether this process has built jieba's dictionary. */
export function jiebaLoaded(): boolean {
  return jieba !== undefined;
}

/** Words with their part of speech (jieba's ICTCLAS tags: n noun, v verb, eng Latin word, x other). */
export function tagZh(text: string): TaggedWord[] {
  return load().tag(text, true);
}

/** Words only, as jieba cuts them (dictionary plus HMM for new words). */
export function cutZh(text: string): string[] {
  return load().cut(text, true);
}

/** Keywords by TF-IDF against jieba's corpus, limited to the given parts of speech. */
export function zhKeywords(text: string, topK: number, pos: string[]): { keyword: string; weight: number }[] {
  const j = load();
  if (!tfidf) {
    const { TfIdf } = require('@node-rs/jieba') as typeof import('@node-rs/jieba');
    const { idf } = require('@node-rs/jieba/dict') as { idf: Uint8Array };
    tfidf = TfIdf.withDict(idf);
  }
  return tfidf.extractKeywords(j, text, topK, pos);
}

/**
 * Each line of one of jieba's tables (`word value…`) without splitting the whole table: its start,
 * its first space (only when on that line) and its end.
 */
function eachLine(text: string, fn: (at: number, sp: number, end: number) => void): void {
  for (let at = 0; at < text.length; ) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    const sp = text.indexOf(' ', at);
    if (sp > at && sp < end) fn(at, sp, end);
    at = end + 1;
  }
}

/**
 * Inverse document frequency of a word in jieba's corpus when it is below 9 (a word in everyday
 * use: 模型 6.8, 受到 4.9); undefined for rarer words and words jieba has not seen.
 */
export function idfOf(word: string): number | undefined {
  // The table's words below 9 are all Chinese (jieba.test.ts): a Latin name asks without reading it.
  if (!HAN.test(word)) return undefined;
  if (!idfMap) {
    const { idf } = require('@node-rs/jieba/dict') as { idf: Uint8Array };
    idfMap = new Map();
    const text = Buffer.from(idf).toString('utf8');
    // Values below 9 (one digit before the point) are kept; the rare words, most of the table, are skipped.
    eachLine(text, (at, sp, end) => {
      if (text.charCodeAt(sp + 2) === 46 && text.charCodeAt(sp + 1) < 57)
        idfMap!.set(text.slice(at, sp), Number(text.slice(sp + 1, end)));
    });
  }
  return idfMap.get(word);
}

let everyday: Set<string> | undefined;
let everydayAsked = 0;
/** A dictionary word counted this often in jieba's (general, newspaper) corpus is in everyday use. */
const EVERYDAY_FREQ = 100;
/**
 * Words looked up in the table itself before the whole table is read into a set: a question asks
 * about a few words (each found in the table's bytes in a millisecond or two, where reading the
 * table takes ~100 ms), a compile about thousands.
 */
const LOOKUPS_BEFORE_SET = 24;

/**
 * A word of everyday Chinese by jieba's dictionary counts (上下文 111, 入场券 110, 新世界 144, against
 * 知识库 34, 脚手架 27, 评估器 3): a word anyone writes, a term only where a text stresses it.
 */
export function isEverydayWord(word: string): boolean {
  // Traditional and Taiwan spellings are judged as Mainland ones (程式碼 as 代码): the table is Simplified.
  word = mainlandWord(word);
  if (!everyday && ++everydayAsked <= LOOKUPS_BEFORE_SET) return everydayInTable(word);
  if (!everyday) {
    const { dict } = require('@node-rs/jieba/dict') as { dict: Uint8Array };
    everyday = new Set();
    const text = Buffer.from(dict).toString('utf8');
    // Only multi-character words with a three-digit count or more: most of the table is skipped unparsed.
    eachLine(text, (at, sp, end) => {
      if (sp <= at + 1) return;
      if (everydayCount(text, sp, end)) everyday!.add(text.slice(at, sp));
    });
  }
  return everyday.has(word);
}

/** Whether the count after a table line's first space (at `sp`, the line ending at `end`) is an everyday word's. */
function everydayCount(text: string, sp: number, end: number): boolean {
  const sp2 = text.indexOf(' ', sp + 1);
  const digits = (sp2 < 0 || sp2 > end ? end : sp2) - sp - 1;
  return digits >= 3 && Number(text.slice(sp + 1, sp + 1 + digits)) >= EVERYDAY_FREQ;
}

/** isEverydayWord for one (Mainland) word, found in the table's bytes (a line `word count tag`), as the set would answer. */
export function everydayInTable(word: string): boolean {
  if (word.length < 2 || /\s/.test(word)) return false;
  const { dict } = require('@node-rs/jieba/dict') as { dict: Uint8Array };
  const table = Buffer.from(dict.buffer, dict.byteOffset, dict.byteLength);
  const line = Buffer.from(`${word} `);
  const first = table.subarray(0, line.length).equals(line);
  let at = first ? 0 : table.indexOf(Buffer.from(`\n${word} `));
  if (at < 0) return false;
  if (!first) at += 1;
  const nl = table.indexOf(10, at);
  const end = nl < 0 ? table.length : nl;
  const text = table.subarray(at, end).toString('utf8');
  return everydayCount(text, text.indexOf(' '), text.length);
}
