/**
 * A line of code in a plain-text file: punctuation that prose does not use, a `key: value` line of
 * YAML (`pattern: inversion`) or a shell command (`git checkout -b heal/…`).
 */
export const CODE_LINE =
  /[{};=]\s*$|^\s*(?:const|let|var|function|def|class|import|from|return|if|for|while|async|await|export|SELECT|INSERT|UPDATE|CREATE)\b|=>|\)\s*\{|^\s*[}\])]|^\s*[a-z_][\w.-]*:(?:\s+[\w./-]*)?\s*$|^\s*(?:git|npm|npx|pnpm|yarn|pip|docker|curl|cd|mkdir|python3?|node)\s+[a-z-]/;

/** A line of code, or one with a code comment (`version: number; // 每次 Heal 递增`): no sentence to quote. */
export function isCodeLine(line: string): boolean {
  return CODE_LINE.test(line) || /;\s*\/\/|\s\/\/\s/.test(line);
}
