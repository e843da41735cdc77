// A shared QA set (../shared/bench/README.md): a folder with raw/ and questions.jsonl, read the same
// way by the retrieval benchmark and the answer eval.
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

export interface QaQuestion {
  q: string;
  answers: string[];
  /** The path under raw/ of the document that answers. */
  doc: string;
  docs?: string[];
  type?: string;
}

export function readQaQuestions(dataset: string, limit?: number): QaQuestion[] {
  const all = readFileSync(join(dataset, 'questions.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as QaQuestion);
  return limit === undefined ? all : all.slice(0, limit);
}

/** The set's test: one of the gold strings appears as it is. */
export const hasAnswer = (text: string, answers: string[]) => answers.some((a) => a !== '' && text.includes(a));

/** An answer without its `[[citations]]`, whose page titles would otherwise count as its words. */
export const uncited = (answer: string) => answer.replace(/\s*\[\[[^\]]*\]\]/g, '');

export const goldDocs = (q: QaQuestion) => new Set(q.docs?.length ? q.docs : [q.doc]);

/** A knowledge base folder for the set: its raw/ is a symlink to the set's, never a copy. */
export function linkRaw(dataset: string, root: string): void {
  if (existsSync(join(root, 'raw'))) return;
  mkdirSync(root, { recursive: true });
  symlinkSync(join(dataset, 'raw'), join(root, 'raw'), 'dir');
}

/** `n` questions spread evenly over the set (a set's file groups its questions by document). */
export function spread<T>(questions: readonly T[], n: number): T[] {
  if (n <= 0 || n >= questions.length) return [...questions];
  return Array.from({ length: n }, (_, i) => questions[Math.floor((i * questions.length) / n)]!);
}
