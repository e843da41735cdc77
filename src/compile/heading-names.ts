import type { DocumentRow, EntityRow } from '../store/store.js';
import { entityKey } from '../entry/names.js';
import { HAN } from '../text/script.js';
import { namesIn } from '../text/outline.js';
import * as EN from '../text/lang/en.js';
import { baseForm } from '../text/lexicon.js';
import type { Dictionary } from './concepts.js';
import { wordForms } from './glossed-senses.js';

/** The names of `rows` a heading (as a key: entityKey) holds, without those inside a longer one it holds ("commit" in "commit history"). */
function namesHeld(key: string, rows: readonly EntityRow[], han: boolean): string[] {
  const held = rows.filter((r) => HAN.test(r.key) === han && !r.weak && namesIn(key, r.key)).map((r) => r.key);
  return [...new Set(held)].filter((k) => !held.some((o) => o !== k && o.includes(k)));
}

/** The words of a key outside one place of `name` in it: Latin words as they are, Han runs cut into dictionary words. */
function wordsOf(key: string, dict: Dictionary, name = ''): [inside: string[], outside: string[]] {
  const at = name ? key.indexOf(name) : -1;
  const cut = (s: string) =>
    (s.match(/[a-z0-9]+|[\u3400-\u9fff]+/g) ?? []).flatMap((w) => (HAN.test(w) ? dict.words(w) : [w]));
  const outside = at < 0 ? key : `${key.slice(0, at)} ${key.slice(at + name.length)}`;
  return [cut(name), cut(outside).filter((w) => !EN.STOP.has(w))];
}

/** Whether a word of one version translates a word of the other (a Latin word kept in Chinese text is itself). */
function translates(en: string, zh: string, dict: Dictionary): boolean {
  const forms = wordForms(en);
  if (!HAN.test(zh)) return forms.includes(baseForm(zh));
  return dict.english(zh).some((g) => g.split(' ').some((w) => forms.includes(baseForm(w))));
}

/**
 * Whether two names of aligned headings are one: a word of one translates a word of the other
 * ("Where embeddings fall short" and 向量检索的短板 hold embedding and 向量检索, a translator's
 * free rendering: none of their words translate each other), and no word of either name stands
 * translated in the other heading outside the other name ("Centralized Version Control Systems" and
 * 集中化的版本控制系统 hold "centralized version control system" and 版本控制系统, but 集中 translates
 * "centralized" outside the Chinese name; 跟踪远程分支 holds 远程分支, but 跟踪 is the heading's "tracking").
 */
function sameName(en: string, zh: string, headingEn: string, headingZh: string, dict: Dictionary): boolean {
  const [enIn, enOut] = wordsOf(headingEn, dict, en);
  const [zhIn, zhOut] = wordsOf(headingZh, dict, zh);
  const strays = (names: string[], others: string[], otherOut: string[], tr: (a: string, b: string) => boolean) =>
    names.some((w) => !others.some((o) => tr(w, o)) && otherOut.some((o) => tr(w, o)));
  return (
    enIn.some((e) => zhIn.some((z) => translates(e, z, dict))) &&
    !strays(enIn, zhIn, zhOut, (e, z) => translates(e, z, dict)) &&
    !strays(zhIn, enIn, enOut, (z, e) => translates(e, z, dict))
  );
}

/**
 * The one name an English heading holds and the one name its translated heading holds ("Viewing
 * the Commit History": commit history; 檢視提交的歷史記錄: 历史记录): a translated heading says what
 * the original says, so where each holds a single name of its version, the two name one thing, if
 * their words agree (sameName). A heading that holds two names, or none, pairs nothing. `pairs` are
 * the aligned headings of two versions (text/outline.ts: alignOutlines), `a` English and `b` Chinese.
 */
export function headingNamePairs(
  pairs: readonly [number, number][],
  a: readonly [number, string][],
  b: readonly [number, string][],
  rowsA: readonly EntityRow[],
  rowsB: readonly EntityRow[],
  dict: Dictionary,
): [string, string][] {
  const out: [string, string][] = [];
  for (const [i, j] of pairs) {
    const [headingEn, headingZh] = [entityKey(a[i]![1]), entityKey(b[j]![1])];
    const en = namesHeld(headingEn, rowsA, false);
    const zh = namesHeld(headingZh, rowsB, true);
    if (en.length !== 1 || zh.length !== 1) continue;
    if (sameName(en[0]!, zh[0]!, headingEn, headingZh, dict)) out.push([en[0]!, zh[0]!]);
  }
  return out;
}

/** Entity rows by document. */
export function rowsByDoc(rows: readonly EntityRow[], docs: readonly DocumentRow[]): Map<string, EntityRow[]> {
  const want = new Set(docs.map((d) => d.raw_path));
  const out = new Map<string, EntityRow[]>();
  for (const r of rows)
    if (want.has(r.raw_path)) (out.get(r.raw_path) ?? out.set(r.raw_path, []).get(r.raw_path)!).push(r);
  return out;
}
