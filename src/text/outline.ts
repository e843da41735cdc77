import { type Block, parseBlocks } from '../chunk/blocks.js';

/** Section headings kept of one text: a book chapter has dozens, a generated page may have thousands. */
const MAX_HEADINGS = 200;
/** A heading longer than this is a sentence set as a heading, not a name. */
const MAX_HEADING_CHARS = 80;

/**
 * The heading blocks that open a text's sections: `## ` to `#### ` (a `# ` heading is the title's).
 * None, without parsing, for a text that has none.
 */
export function sectionHeadings(markdown: string): Block[] {
  if (!/(?:^|\n) {0,3}#{2,4}[ \t]/.test(markdown)) return [];
  return parseBlocks(markdown).blocks.filter((b) => b.kind === 'heading' && b.depth && b.depth >= 2 && b.depth <= 4);
}

/**
 * A text's section headings (`## ` to `#### `, as read: without anchors and marks), in order, each
 * with its depth: `2 Topic Branches\n3 …`. A text and its translation have the same outline, so
 * their headings pair up one by one (compile/concepts.ts). Empty when the text has no sections.
 */
export function headingOutline(markdown: string): string {
  return sectionHeadings(markdown)
    .slice(0, MAX_HEADINGS)
    .map((b) => {
      const title = (b.title ?? '').replace(/\s+/g, ' ').trim();
      return `${b.depth} ${title.length > MAX_HEADING_CHARS ? '' : title}`;
    })
    .join('\n');
}

/** The outline's headings as [depth, text]. */
export function outlineHeadings(outline: string): [number, string][] {
  if (!outline) return [];
  return outline.split('\n').map((l) => [Number(l[0]), l.slice(2)]);
}

/** Sections a text needs before where a name stands in it says anything. */
export const MIN_ALIGNED_SECTIONS = 4;

/**
 * The text split where its outline's headings stand (headingOutline): section 0 before the first,
 * section i after the i-th. Lowercased, for finding where names are mentioned. None for a text with
 * fewer than MIN_ALIGNED_SECTIONS headings.
 */
export function outlineSections(markdown: string): string[] {
  const starts = sectionHeadings(markdown)
    .slice(0, MAX_HEADINGS)
    .map((b) => b.start);
  if (starts.length < MIN_ALIGNED_SECTIONS) return [];
  return [0, ...starts].map((s, i) => markdown.slice(s, starts[i] ?? markdown.length).toLowerCase());
}

/** The sections (outlineSections) that name any of `names`, in order. */
export function sectionsNaming(sections: readonly string[], names: readonly string[]): number[] {
  const lower = [...new Set(names.map((n) => n.toLowerCase()).filter(Boolean))];
  const out: number[] = [];
  sections.forEach((s, i) => {
    if (lower.some((n) => s.includes(n))) out.push(i);
  });
  return out;
}
