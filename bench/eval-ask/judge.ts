// How an answer is judged against a question's key phrases: right when it holds every one, partly
// when it holds some, wrong when it holds none. A key phrase is a `|`-separated list of
// alternatives (`垃圾回收|garbage collect`); each matches case-insensitively, after NFKC (so
// full-width letters and digits match their ASCII forms).

import { uncited } from '../qa-set.js';
import { inChinese } from '../../src/text/script.js';

export type Verdict = 'right' | 'partly' | 'wrong';

const fold = (s: string) => s.normalize('NFKC').toLowerCase();

/** Whether `text` holds one of the key phrase's alternatives. */
export function holdsPhrase(text: string, phrase: string): boolean {
  const t = fold(text);
  return phrase
    .split('|')
    .map((a) => fold(a.trim()))
    .some((a) => a !== '' && t.includes(a));
}

/** How many of the key phrases `text` holds. */
export function phrasesHeld(text: string, gold: readonly string[]): number {
  return gold.filter((g) => holdsPhrase(text, g)).length;
}

export function verdict(answer: string, gold: readonly string[]): Verdict {
  if (!gold.length) throw new Error('Unexpected question without key phrases, expected at least one');
  const held = phrasesHeld(uncited(answer), gold);
  return held === gold.length ? 'right' : held > 0 ? 'partly' : 'wrong';
}

/** What one question's answer came to. */
export interface Judged {
  verdict: Verdict;
  /** Every key phrase is somewhere in the packed context: a wrong answer was then an extraction miss. */
  inContext: boolean;
  /** Top source entry retrieved is a gold document. */
  docHit1: boolean;
  /** A gold document among the top five source entries retrieved. */
  docHit5: boolean;
  /** The answer cites a gold document. */
  cited: boolean;
  /** The answer said no statement answers for certain and quoted the likeliest passages. */
  unsure?: boolean;
  /** For a work held in the question's language and another: whether the answer leads in the question's (leadsInAskersLanguage). */
  askersLanguage?: boolean;
}

export interface Tally {
  n: number;
  right: number;
  partly: number;
  wrong: number;
  /** Key phrases held at all (right or partly). */
  answerInAnswer: number;
  inContext: number;
  docHit1: number;
  docHit5: number;
  cited: number;
  /** Answers that said they were unsure (quoting passages), and those of them judged right. */
  unsure: number;
  unsureRight: number;
}

export function tally(judged: readonly Judged[]): Tally {
  const t: Tally = {
    n: 0,
    right: 0,
    partly: 0,
    wrong: 0,
    answerInAnswer: 0,
    inContext: 0,
    docHit1: 0,
    docHit5: 0,
    cited: 0,
    unsure: 0,
    unsureRight: 0,
  };
  for (const j of judged) {
    t.n++;
    t[j.verdict]++;
    if (j.verdict !== 'wrong') t.answerInAnswer++;
    if (j.inContext) t.inContext++;
    if (j.docHit1) t.docHit1++;
    if (j.docHit5) t.docHit5++;
    if (j.cited) t.cited++;
    if (j.unsure) t.unsure++;
    if (j.unsure && j.verdict === 'right') t.unsureRight++;
  }
  return t;
}

/** The folder of raw/ that holds the works written in a question's language. */
const FOLDER: Record<string, string> = { en: 'en', zh: 'zh', 'zh-TW': 'zh-tw' };

/**
 * For a question about a work the corpus holds in the question's language and in another (its gold
 * documents: `raw/<language>/…`), whether the answer leads in the question's language: its first
 * paragraph (after the line saying it is unsure, if any) is English for an English question and
 * Chinese for a Chinese one. Undefined where the question has no such work.
 */
export function leadsInAskersLanguage(lang: string, docs: readonly string[], answer: string): boolean | undefined {
  const mine = (d: string) => d.startsWith(`raw/${FOLDER[lang]}/`);
  if (!docs.some(mine) || docs.every(mine)) return undefined;
  const paragraphs = uncited(answer)
    .split(/\n\s*\n/)
    .map((p) => p.replace(/^>\s*/, '').trim())
    .filter(Boolean);
  const first = paragraphs.length > 1 && /[:：]$/u.test(paragraphs[0]!) ? paragraphs[1]! : (paragraphs[0] ?? '');
  return inChinese(first) === (lang !== 'en');
}
