import * as EN from './lang/en.js';
import { anyOf } from './lang/words.js';
import * as ZH from './lang/zh.js';
/**
 * Lines of a document that are its layout, not its statements: header labels and plain-text
 * headings. Shared by the offline compiler, the checks on the model's output and offline answers.
 */

/** A header line: who wrote it, where it came from, when (`作者：…`, `原文链接：…`, `Source: …`). */
export const HEADER_LABEL = new RegExp(`^\\s*(?:${anyOf([...ZH.HEADER_LABELS, ...EN.HEADER_LABELS])})\\s*[:：]`, 'iu');

/**
 * A heading: Markdown's, or in plain text a short line standing alone between blank lines (or the
 * ends of the text) without sentence punctuation (`四、工程核心：Lint + Heal 自动化闭环`) — not a
 * bold label with its value after it (`**equiv** _[[x]]_`: a field of a layout).
 */
export function isHeadingLine(lines: string[], i: number): boolean {
  const t = lines[i]!.trim();
  if (/^#{1,6}\s/.test(t)) return true;
  const alone = !lines[i - 1]?.trim() && !lines[i + 1]?.trim() && t.length >= 4 && t.length <= 40 && !/\t/.test(t);
  return alone && !/[。.!?！？；;，,：:]$|[，。；]/.test(t) && !/^(\*\*|__)[^*_]+\1[ \t]*\S/.test(t);
}

/** A heading without the attribute block docs toolchains put after it (`Title {#anchor}`, `{: .class}`, `{.unnumbered}`, an MDX comment as anchor). */
export function withoutAttributes(heading: string): string {
  // Anchored at the last `{`, so a long run of spaces is not rescanned from every position.
  const open = heading.lastIndexOf('{');
  if (open < 0 || !/^\{(?:[:#.][^{}\n]{0,200}|\/\*[^{}\n]{0,200}\*\/)\}[ \t]*$/.test(heading.slice(open)))
    return heading;
  return heading.slice(0, open).trimEnd();
}

/**
 * A line of links and images alone (`[English Version](README_en.md)`, a row of badges, a language
 * switch `*[Čeština](README-cs.md) ∙ [Deutsch](README-de.md)*`): the page's navigation, no text of it.
 * What is left between the links is no letter or digit (separators, emphasis marks, an emoji).
 */
export function isLinksLine(line: string): boolean {
  const rest = line.replace(/!\[[^[\]\n]*\]\([^()\n]*\)/g, '').replace(/\[[^[\]\n]*\]\([^()\n]*\)/g, '');
  return rest !== line && /^[^\p{L}\p{N}]*$/u.test(rest);
}
