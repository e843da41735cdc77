import type { Dictionary } from './concepts.js';
import { baseForm } from '../text/lexicon.js';

/** "master branch", "master 分支", "root component 檔案": a Latin name (one or two words) and a kind word after it. */
const NAME_AND_KIND = /^([a-z][a-z0-9.-]*(?: [a-z][a-z0-9.-]*)?) (?:([a-z]{3,})|([\u3400-\u9fff]{2,4}))$/;
const HAN_NAME = /^[\u3400-\u9fff]{3,12}$/;

/**
 * "X <kind>" and X, where the texts already call X a <kind>: one of the Chinese names X's concept
 * has ends in the kind's word (master is 主干分支, so "master branch" and "master 分支" are master).
 * Without that, "X <kind>" is a thing of its own: a remote branch is no remote, Subversion 分支 no
 * Subversion, a root component 檔案 (file) no root component. `rootOf` gives each name's concept so
 * far; both names must be the knowledge base's own.
 */
export function calledByKind(
  keys: readonly string[],
  rootOf: (key: string) => string,
  dict: Dictionary,
): [string, string][] {
  const known = new Set(keys);
  const hanOf = new Map<string, string[]>();
  for (const k of keys) {
    if (!HAN_NAME.test(k)) continue;
    const root = rootOf(k);
    (hanOf.get(root) ?? hanOf.set(root, []).get(root)!).push(k);
  }
  // The last dictionary word of each Chinese name (主干/分支: 分支), cut once however many names ask.
  const lastWords = new Map<string, string | undefined>();
  const lastWord = (h: string) => {
    if (!lastWords.has(h)) {
      const words = dict.words(h);
      lastWords.set(h, words.length >= 2 ? words[words.length - 1] : undefined);
    }
    return lastWords.get(h);
  };
  const out: [string, string][] = [];
  for (const k of keys) {
    const m = NAME_AND_KIND.exec(k);
    if (!m || !known.has(m[1]!) || rootOf(m[1]!) === rootOf(k)) continue;
    const [, name, english, han] = m;
    // The kind as the last dictionary word of a Chinese name: 主干/分支 ends in 分支 ("branch").
    const isKind = (word: string) =>
      han ? word === han : dict.english(word).some((g) => baseForm(g) === baseForm(english!));
    const called = (hanOf.get(rootOf(name!)) ?? []).some((h) => {
      const last = lastWord(h);
      return last !== undefined && isKind(last);
    });
    if (called) out.push([name!, k]);
  }
  return out;
}
