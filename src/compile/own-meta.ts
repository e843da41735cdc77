import type { SourceDraft } from './types.js';

/**
 * What a person wrote in a raw note's frontmatter and text that is theirs, carried into its source
 * entry whoever drafted it: their aliases, their tags (as Obsidian tags), the date the work gives
 * (`date`, `published`, `created`), and the `[[links]]` they made, listed where the draft has none
 * of them.
 */
export function withOwnMeta(draft: SourceDraft, meta: Record<string, unknown>, markdown: string): SourceDraft {
  const aliases = [...new Set([...draft.aliases, ...strings(meta['aliases'] ?? meta['alias'])])];
  const tags = strings(meta['tags'] ?? meta['tag'])
    .map((t) => t.replace(/^#/, '').replace(/[\s,#]+/g, '-'))
    .filter((t) => t && !/^(?:kb|topic)\//.test(t));
  const date = dateOf(meta);
  const links = ownLinks(markdown).filter((l) => !draft.body.includes(`[[${l}`));
  const list = `## Links\n\n${links.map((l) => `- [[${l}]]`).join('\n')}\n`;
  const at = draft.body.indexOf('## Source\n');
  const body = !links.length
    ? draft.body
    : at >= 0
      ? `${draft.body.slice(0, at)}${list}\n${draft.body.slice(at)}`
      : `${draft.body.trimEnd()}\n\n${list}`;
  return {
    ...draft,
    aliases,
    body,
    ...(tags.length ? { tags: [...new Set(tags)] } : {}),
    ...(date ? { date } : {}),
  };
}

/** A frontmatter value as a list of strings: `[a, b]`, `a, b` or `a`. */
function strings(v: unknown): string[] {
  const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [];
  return list
    .filter((x): x is string => typeof x === 'string')
    .map((x) => x.trim())
    .filter(Boolean);
}

/** The date a note gives for itself, as `YYYY-MM-DD`. */
function dateOf(meta: Record<string, unknown>): string | undefined {
  for (const key of ['date', 'published', 'created', 'pubDate']) {
    const v = meta[key];
    const m = typeof v === 'string' ? /^(\d{4}-\d{2}-\d{2})/.exec(v.trim()) : undefined;
    if (m) return m[1];
  }
  return undefined;
}

/** Most links kept from one note. */
const MAX_LINKS = 40;

/** The targets of a note's own `[[links]]`, outside code, in order, each once (not embeds). */
export function ownLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```|~~~[\s\S]*?~~~|`[^`\n]*`/g, ' ');
  const out = new Set<string>();
  for (const m of prose.matchAll(/(?<!!)\[\[([^[\]|#\n]{1,200})(?:#[^[\]|\n]*)?(?:\|[^[\]\n]*)?\]\]/g)) {
    // In a table the pipe before the shown text is escaped (`[[Permalinks\|Permalinks]]`): no part of the name.
    const t = m[1]!.replace(/\\$/, '').trim();
    if (t) out.add(t);
    if (out.size === MAX_LINKS) break;
  }
  return [...out];
}
