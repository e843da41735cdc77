import type { Converted } from './types.js';

const MAX_TITLE = 80;
/** A first line ending like a sentence is prose, not a title. */
const SENTENCE_END = /[.。!?！？;；,，:：…]$/u;
/** A header line that gives a date, not a title: `官方文章 · 发布日期：2026年3月24日`, `Published: 2026-03-24`. */
const DATE_LABEL =
  /(发布日期|发布时间|發佈日期|發佈時間|发表于|日期|published|posted on|date)\s*[:：]|^\s*\d{4}[-/年]\d{1,2}[-/月]\d{1,2}日?\s*$/iu;
/** A header line that only announces the header (`原文信息`, `Original`). */
const HEADER_LABEL = /^(原文信息|原文|文章信息|source info|original)\s*[:：]?\s*$/iu;
/** A title named in a header line: `src: https://… (English title)`, `原文：https://…（标题）`. */
const NAMED_IN_LINK =
  /^\s*(?:src|source|url|link|原文|原文链接|来源|出处)\s*[:：]\s*<?https?:\/\/[^\s()（）<>]+>?\s*[(（]([^()（）]{3,200})[)）]\s*$/iu;
/** `标题：…`, `Title: …`. */
const NAMED_TITLE = /^\s*(?:title|标题|標題)\s*[:：]\s*(.{2,200}?)\s*$/iu;

/**
 * Plain text: kept as it is (it reads fine as Markdown). The title is a short first line, unless
 * that line is a date or a header label; then a title named in the header lines; then the file name.
 */
export function convertText(text: string, fallbackTitle: string): Converted {
  return { title: textTitle(text) ?? fallbackTitle, markdown: text, meta: {} };
}

export function textTitle(text: string): string | undefined {
  const head = text
    .split('\n', 40)
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, 8);
  const first = head[0];
  if (!first) return undefined;
  const firstTitle = DATE_LABEL.test(first) || HEADER_LABEL.test(first) ? undefined : titleLine(first);
  if (firstTitle) return firstTitle;
  for (const line of head) {
    const named = NAMED_IN_LINK.exec(line)?.[1] ?? NAMED_TITLE.exec(line)?.[1];
    if (named?.trim()) return named.trim();
  }
  for (const line of head.slice(1)) {
    if (
      DATE_LABEL.test(line) ||
      HEADER_LABEL.test(line) ||
      /https?:\/\//.test(line) ||
      /^[^:：]{1,12}[:：]/u.test(line)
    )
      continue;
    return titleLine(line);
  }
  return undefined;
}

function titleLine(line: string): string | undefined {
  // A first line this long is no title (and is not worth a pattern's time).
  if (line.length > MAX_TITLE * 8) return undefined;
  // Heading marks are not part of the title.
  const title = line
    .replace(/^#+\s+/, '')
    .replace(/(?<!\s)\s+#+$/, '')
    .trim();
  if (!title || [...title].length > MAX_TITLE || SENTENCE_END.test(title)) return undefined;
  if (!/[\p{L}\p{N}]/u.test(title)) return undefined;
  return title;
}
