/**
 * Obsidian tags kb gives an entry: its kind (`kb/source`, `kb/concept`, `kb/answer`) and its
 * topics (`topic/<concept>`, the concepts it is about; a concept page carries its own). Tags a
 * person added stay; kb's own are replaced on each write.
 */

const OWN = /^(kb|topic)\//;
const MAX_TOPICS = 5;

/** `Vector Database` → `topic/vector-database`; `检索增强生成` → `topic/检索增强生成`. Undefined when nothing is left. */
export function topicTag(name: string): string | undefined {
  const t = name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_-]+/gu, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  // Obsidian needs a tag to hold something besides digits.
  if (!t || /^[\d_-]+$/.test(t)) return undefined;
  return `topic/${Array.from(t).slice(0, 60).join('')}`;
}

export function entryTags(kind: string, topics: readonly string[], old?: unknown): string[] {
  const own = [
    `kb/${kind}`,
    ...topics
      .map(topicTag)
      .filter((t): t is string => Boolean(t))
      .slice(0, MAX_TOPICS),
  ];
  const kept = Array.isArray(old)
    ? old.filter((t): t is string => typeof t === 'string' && !OWN.test(t) && /^[^\s#,]+$/.test(t))
    : [];
  return [...new Set([...own, ...kept])];
}
