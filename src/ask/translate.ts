import type { Store } from '../store/store.js';
import { baseForm, type Lexicon } from '../text/lexicon.js';

export { closeLexicons, lexiconFor } from '../text/lexicon.js';
import { foldText } from '../text/fold.js';
import * as EN from '../text/lang/en.js';
import * as ZH from '../text/lang/zh.js';

/**
 * Query-time translation for questions asked in one language about notes in the other: each word
 * of the question brings its usual translations (CC-CEDICT, src/text/lexicon.ts) and the names the
 * wiki itself pairs (an entry's Chinese and English titles and aliases, `中文（English）` pairs the
 * compiler found), each with a weight. A Chinese word becomes the search terms the index holds for
 * it: a character, a bigram, or a phrase of its bigrams.
 */
export interface TranslatedTerm {
  /** FTS5 token or phrase (bigrams separated by a space). */
  match: string;
  /** The index terms it is made of (what packing and answers look for in a sentence). */
  parts: string[];
  /** 0..1: how sure the translation is. */
  weight: number;
  /** The index terms of the question's own word it translates (编译器: 编译 译器). */
  source?: string[];
  /** The character pairs the word makes with its neighbours in the question (中文 in 中文件: 文件). */
  edges?: string[];
  /** The question's own word it translates, as the question writes it (folded). */
  from?: string;
}

const HAN_RUN = /\p{Script=Han}+/gu;
const LATIN_WORD = /(?:(?!\p{Script=Han})[\p{L}\p{M}\p{N}])+/gu;
/** Single characters too common to translate on their own. */
const ZH_STOPCHARS = new Set([...ZH.FUNCTION_CHARS, ...ZH.QUESTION_CHARS]);

function zhTerm(word: string, weight: number): TranslatedTerm {
  const chars = Array.from(word);
  if (chars.length === 1) return { match: word, parts: [word], weight: weight * 0.5 };
  const bigrams = chars.slice(1).map((c, i) => chars[i]! + c);
  return { match: bigrams.join(' '), parts: bigrams, weight };
}

/** English words of a question, a simple plural stripped ("points" → point), function words left out. */
function englishWords(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(LATIN_WORD)) {
    const w = m[0];
    if (EN.STOP.has(w) || /^\d+$/.test(w) || w.length < 2) continue;
    out.push(w);
  }
  return out;
}

function verbForms(w: string): string[] {
  if (w.includes(' ')) return [];
  if (w.length > 4 && w.endsWith('ied')) return [`${w.slice(0, -3)}y`];
  if (w.length > 4 && w.endsWith('ed'))
    return [w.slice(0, -2), w.slice(0, -1), ...(w[w.length - 3] === w[w.length - 4] ? [w.slice(0, -3)] : [])];
  if (w.length > 5 && w.endsWith('ing')) return [w.slice(0, -3), `${w.slice(0, -3)}e`];
  return [];
}

export interface NamePair {
  /** The Chinese name as the wiki writes it (folded on first use: `zhOf`). */
  zhRaw: string;
  zh?: string;
  en: string;
}

const pairCache = new WeakMap<Store, { n: number; pairs: NamePair[] }>();

/** The Chinese–English name pairs the wiki knows, cached per store while its entries stay the same in number. */
function wikiPairs(store: Store): NamePair[] {
  const n = store.entryCount();
  const hit = pairCache.get(store);
  if (hit && hit.n === n) return hit.pairs;
  const pairs: NamePair[] = [];
  for (const names of store.nameGroups()) {
    const zh = names.filter((x) => /\p{Script=Han}/u.test(x));
    if (!zh.length) continue;
    const en = names.filter((x) => !/\p{Script=Han}/u.test(x) && /[a-z]{2}/i.test(x));
    for (const z of zh) for (const e of en) pairs.push({ zhRaw: z, en: e.toLowerCase() });
  }
  pairCache.set(store, { n, pairs });
  return pairs;
}

/** A pair's Chinese name folded (Traditional → Simplified), as questions are. */
function zhOf(p: NamePair): string {
  p.zh ??= foldText(p.zhRaw);
  return p.zh;
}

/**
 * Terms in the other language for a question: Chinese words to English ones when `toEnglish`,
 * English words and two-word phrases to Chinese when `toChinese`.
 */
export function translateQuestion(
  question: string,
  lex: Lexicon,
  store: Store,
  want: { toEnglish: boolean; toChinese: boolean },
): TranslatedTerm[] {
  const q = foldText(question);
  const out = new Map<string, TranslatedTerm>();
  const add = (t: TranslatedTerm) => {
    const had = out.get(t.match);
    if (!had || had.weight < t.weight) out.set(t.match, t);
  };
  const lower = q.toLowerCase();
  const qHan = /\p{Script=Han}/u.test(q);
  for (const p of wikiPairs(store)) {
    // Every pair's Chinese name has a Han character: a question without one holds none of them.
    if (want.toEnglish && qHan && q.includes(zhOf(p)))
      for (const w of englishWords(p.en)) add({ match: w, parts: [w], weight: 1, source: zhTerm(zhOf(p), 1).parts });
    if (
      want.toChinese &&
      lower.includes(p.en) &&
      new RegExp(`(^|[^a-z])${p.en.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^a-z])`).test(lower)
    )
      add({ ...zhTerm(zhOf(p), 1), source: englishWords(p.en) });
  }
  if (want.toEnglish) {
    for (const m of q.matchAll(HAN_RUN)) {
      const run = m[0];
      let at = 0;
      for (const word of lex.words(run)) {
        const from = run.indexOf(word, at);
        at = from < 0 ? at : from + word.length;
        const edges =
          from < 0
            ? []
            : [run.slice(Math.max(0, from - 1), from + 1), run.slice(at - 1, at + 1)].filter((e) => e.length === 2);
        const single = Array.from(word).length === 1;
        if ((single && ZH_STOPCHARS.has(word)) || ZH.QUESTION_WORDS.has(word)) continue;
        for (const t of lex.english(word).slice(0, single ? 2 : 3)) {
          if (t.weight < 0.3) continue;
          add({
            match: t.term,
            parts: [t.term],
            weight: t.weight * (single ? 0.5 : 1),
            source: zhTerm(word, 1).parts,
            edges,
            from: word,
          });
        }
      }
    }
  }
  if (want.toChinese) {
    const words = englishWords(q);
    const keys: { key: string; weight: number }[] = [];
    const base = words.map(baseForm);
    for (let i = 0; i < base.length; i++) {
      if (i + 1 < base.length) keys.push({ key: `${base[i]} ${base[i + 1]}`, weight: 1 });
      keys.push({ key: base[i]!, weight: 1 });
    }
    const done = new Set<string>();
    for (const { key, weight } of keys) {
      if (done.has(key)) continue;
      done.add(key);
      // A verb as the dictionary writes it: founded → found, found(e); carrying → carry, carrye.
      const forms = [key, ...verbForms(key)];
      const found = forms.map((f) => lex.chinese(f)).find((l) => l.length) ?? [];
      for (const t of found.slice(0, 3))
        if (t.weight >= 0.3) add({ ...zhTerm(t.term, weight * t.weight), source: key.split(' ') });
    }
  }
  return [...out.values()];
}
