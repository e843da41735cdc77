import { UsageError } from '../../diagnostics/errors.js';

/** `--budget`/`--limit` values: positive integers, else a usage error naming the flag. */
export function positiveInt(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new UsageError(`Unexpected ${flag} \`${value}\`, expected a positive whole number`);
  return n;
}

export function questionOf(words: string): string {
  const q = words.trim();
  if (!q) throw new UsageError('Unexpected empty question, expected some words, e.g. `kb ask "what is RAG?"`');
  return q;
}
