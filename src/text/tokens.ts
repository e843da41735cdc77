import { HAN_G } from './script.js';

/**
 * Estimated model tokens of a text, right for Chinese as well as English.
 * Claude's tokenizer spends about one token per Han character (often a little more) and about one
 * token per 4 characters of English; whitespace-separated punctuation costs a token each.
 * Counting Han characters separately keeps Chinese from being undercounted by 3-4x,
 * which is what a "words / 0.75" rule does.
 */
export function countTokens(text: string): number {
  if (!text) return 0;
  const han = (text.match(HAN_G) ?? []).length;
  const rest = han ? text.replace(HAN_G, ' ') : text;
  let tokens = han * 1.1;
  // Latin words, numbers: ~4 characters per token, at least one per word.
  for (const w of rest.match(/[\p{L}\p{N}_]+/gu) ?? []) tokens += Math.max(1, Math.ceil(w.length / 4));
  // Punctuation and symbols: about one token per run of up to 2.
  for (const p of rest.match(/[^\p{L}\p{N}_\s]+/gu) ?? []) tokens += Math.ceil(p.length / 2);
  return Math.ceil(tokens);
}
