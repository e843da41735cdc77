import { cleanTitle } from '../entry/names.js';
import type { EntryRow } from '../store/store.js';
import { normalizeQuestion } from './cache.js';

/** The title of a filed answer: the question on one line, without invisible characters, bounded. */
export function answerTitle(question: string): string {
  const chars = Array.from(cleanTitle(question));
  return chars.length > 120 ? `${chars.slice(0, 119).join('').trim()}…` : chars.join('');
}

/** Two titles ask the same question when they differ only in case, spacing or the final `?`. */
export function questionKey(title: string): string {
  return normalizeQuestion(answerTitle(title));
}

/** The answer entry filed for this question, if any: the one a new `--save` would replace. */
export function filedAnswerFor<T extends Pick<EntryRow, 'kind' | 'title'>>(
  entries: Iterable<T>,
  question: string,
): T | undefined {
  const title = answerTitle(question);
  const key = normalizeQuestion(title);
  let near: T | undefined;
  for (const e of entries) {
    if (e.kind !== 'answer') continue;
    if (e.title === title) return e;
    if (!near && questionKey(e.title) === key) near = e;
  }
  return near;
}
