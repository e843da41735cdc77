import type { DocumentRow, EntityRow } from '../store/store.js';
import { baseForm } from '../text/lexicon.js';
import type { Dictionary } from './concepts.js';

/** An English word's dictionary form: plural and -ing taken off (branches, branching → branch). */
export function wordForms(w: string): string[] {
  const base = baseForm(w);
  const out = [base];
  if (w.length > 6 && w.endsWith('ing')) out.push(w.slice(0, -3), `${w.slice(0, -3)}e`);
  return out;
}

const HAN_WORD = /^[\u3400-\u9fff]{2,}$/u;
const LATIN_PHRASE = /^[A-Za-z][A-Za-z-]*(?: [A-Za-z][A-Za-z-]*){0,3}$/;

/**
 * The senses a text's own glosses give its Chinese words where the dictionary lacks them: a
 * translator who writes 儲藏（Stashing） or 版本控制倉庫（repository） gives the term's original, and
 * the last dictionary word of the Chinese (its head: 儲藏, 倉庫) names what the English phrase's last
 * word names (stash, repository), a technical sense an everyday dictionary does not hold (倉庫:
 * depot, warehouse). Such a sense joins other compounds of the same head word by word (遠端倉庫 and
 * "remote repository"). Only where the dictionary gives the head some senses, none of them that
 * word, and no other Chinese word of the name translates it; and only where `sameWord` holds for the
 * two: the English word is a name the knowledge base uses, as often as the Chinese (usedAlike:
 * 主干分支（master） glosses a branch by its name, and 分支 is used far more often than "master").
 */
export function glossedSenses(
  entities: readonly EntityRow[],
  dict: Dictionary,
  sameWord: (zh: string, en: string) => boolean,
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const senses = (w: string) => dict.english(w).flatMap((g) => wordForms(baseForm(g)));
  for (const e of entities) {
    if (!HAN_WORD.test(e.key) || e.aliases.length !== 1 || !LATIN_PHRASE.test(e.aliases[0]!)) continue;
    const enWords = e.aliases[0]!.toLowerCase().split(/[ -]/);
    const forms = wordForms(enWords[enWords.length - 1]!);
    const words = dict.words(e.key);
    const zhHead = words[words.length - 1]!;
    if (zhHead.length < 2 || out.get(zhHead)?.has(forms[0]!)) continue;
    const headSenses = senses(zhHead);
    if (!headSenses.length || headSenses.some((s) => forms.includes(s))) continue;
    if (words.slice(0, -1).some((w) => senses(w).some((s) => forms.includes(s)))) continue;
    const en = forms.find((f) => sameWord(zhHead, f));
    if (en) (out.get(zhHead) ?? out.set(zhHead, new Set()).get(zhHead)!).add(en);
  }
  return out;
}

/** A word and its translation in two versions of one work are used at least this share as often as each other. */
const ALIKE_RATIO = 0.5;

/**
 * Whether a Chinese word and an English one are used about as often in the versions of some work
 * (compile/works.ts) that has both: a word and its translation are, in a text and its translation
 * (倉庫 66 times, "repository" 37 times in one chapter's two versions), each version's count being
 * the mean over the versions in its language.
 */
export function usedAlike(
  entities: readonly EntityRow[],
  okDocs: Map<string, DocumentRow>,
  workOf: Map<string, string>,
): (zh: string, en: string) => boolean {
  // work → key → [count in Chinese versions, count in English ones]; work → [Chinese versions, English ones].
  // Counted on the first question only: most knowledge bases glossing nothing never ask one.
  let counts: Map<string, Map<string, [number, number]>> | undefined;
  const versions = new Map<string, [Set<string>, Set<string>]>();
  const count = () => {
    const out = new Map<string, Map<string, [number, number]>>();
    for (const e of entities) {
      const work = workOf.get(e.raw_path);
      const d = okDocs.get(e.raw_path);
      if (!work || !d) continue;
      const side = d.lang === 'en' ? 1 : 0;
      const v = versions.get(work) ?? versions.set(work, [new Set(), new Set()]).get(work)!;
      v[side].add(e.raw_path);
      const byKey = out.get(work) ?? out.set(work, new Map()).get(work)!;
      const c = byKey.get(e.key) ?? byKey.set(e.key, [0, 0]).get(e.key)!;
      c[side] += e.count;
    }
    return out;
  };
  return (zh, en) => {
    counts ??= count();
    for (const [work, byKey] of counts) {
      const [zhVersions, enVersions] = versions.get(work)!;
      const a = (byKey.get(zh)?.[0] ?? 0) / (zhVersions.size || 1);
      const b = (byKey.get(en)?.[1] ?? 0) / (enVersions.size || 1);
      if (a && b && Math.min(a, b) >= ALIKE_RATIO * Math.max(a, b)) return true;
    }
    return false;
  };
}

/** The dictionary with the senses a text's glosses teach (glossedSenses) added to its own. */
export function withSenses(dict: Dictionary, senses: Map<string, Set<string>>): Dictionary {
  if (!senses.size) return dict;
  return {
    chinese: dict.chinese,
    words: dict.words,
    english: (word) => {
      const own = dict.english(word);
      const more = senses.get(word);
      return more ? [...own, ...[...more].filter((m) => !own.includes(m))] : own;
    },
  };
}
