import { type Block, parseBlocks } from '../chunk/blocks.js';

/** Section headings kept of one text: a book chapter has dozens, a generated page may have thousands. */
const MAX_HEADINGS = 200;
/** A heading longer than this is a sentence set as a heading, not a name. */
const MAX_HEADING_CHARS = 80;

/**
 * The heading blocks that open a text's sections: `## ` to `#### ` (a `# ` heading is the title's).
 * None, without parsing, for a text that has none.
 */
export function sectionHeadings(markdown: string): readonly Block[] {
  if (!/(?:^|\n) {0,3}#{2,4}[ \t]/.test(markdown)) return [];
  // A compile reads one text's sections in several passes (terms, subjects, where names stand): parsed once.
  if (lastHeadings?.markdown !== markdown)
    lastHeadings = {
      markdown,
      blocks: parseBlocks(markdown).blocks.filter(
        (b) => b.kind === 'heading' && b.depth && b.depth >= 2 && b.depth <= 4,
      ),
    };
  return lastHeadings.blocks;
}

/** The last text sectionHeadings parsed, and its headings. */
let lastHeadings: { markdown: string; blocks: readonly Block[] } | undefined;

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

/**
 * Each section's paragraphs (outlineSections; its blocks between blank lines, the heading first):
 * a translation keeps its original's paragraphs one for one, so where a name stands among them
 * says which name of the other version it is, more finely than its sections.
 */
export function outlineParagraphs(sections: readonly string[]): string[][] {
  return sections.map((s) =>
    s
      .split(/\n[ \t]*\n/)
      .map((p) => p.trim())
      .filter(Boolean),
  );
}

/** How many paragraphs each section of a text holds (outlineParagraphs), space-separated; empty without an outline. */
export function paragraphCounts(markdown: string): string {
  return outlineParagraphs(outlineSections(markdown))
    .map((p) => p.length)
    .join(' ');
}

/** A name's places kept at most: a name in more paragraphs than this stands everywhere. */
export const MAX_PLACES = 200;

/**
 * The paragraphs (`section.paragraph`, of outlineParagraphs) that name any of `names`, in order: a
 * Latin name as a word (tag is not in "stage"), with a plural ending or not; a Chinese one anywhere.
 * None past MAX_PLACES.
 */
export function placesNaming(
  paragraphs: readonly (readonly string[])[],
  names: readonly string[],
  /** The sections that name it (sectionsNaming): only their paragraphs are read. */
  sections: readonly number[] = paragraphs.map((_, i) => i),
): string[] {
  const lower = [...new Set(names.map((n) => n.toLowerCase()).filter(Boolean))];
  const out: string[] = [];
  for (const i of sections)
    (paragraphs[i] ?? []).forEach((p, j) => {
      if (out.length <= MAX_PLACES && lower.some((n) => namesIn(p, n))) out.push(`${i}.${j}`);
    });
  return out;
}

const LATIN_WORD = /[a-z0-9]/;

/** Whether a lowercased text names `name`: as a whole word when the name ends in a letter or digit of Latin script. */
export function namesIn(text: string, name: string): boolean {
  const latinEnds = LATIN_WORD.test(name[0]!) || LATIN_WORD.test(name.at(-1)!);
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    if (!latinEnds) return true;
    let end = at + name.length;
    // A plural: "es" only after s, x, z, ch and sh (classes, boxes, branches), never "stag" in "stages".
    if (text.startsWith('es', end) && /(?:[sxz]|ch|sh)$/.test(name)) end += 2;
    else if (text[end] === 's') end += 1;
    if (!LATIN_WORD.test(text[at - 1] ?? ' ') && !LATIN_WORD.test(text[end] ?? ' ')) return true;
  }
  return false;
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

/** Headings one outline may have that its translation lacks (or the reverse): a share of the longer… */
const MAX_GAP_SHARE = 0.1;
/** …and never fewer than this many (a translation that left out one subsection). */
const MIN_GAPS = 2;

/**
 * The headings of two outlines (outlineHeadings) that stand for each other, as pairs of indexes
 * [i of a, j of b]: a translation keeps its original's sections at the same depths, though one may
 * add or leave out a few. The outlines are aligned by depth with the fewest headings left unpaired;
 * a heading is paired only where every such alignment pairs it the same way (a subsection left out
 * of a run of subsections leaves the whole run unpaired: which one is missing cannot be told).
 * None when the outlines differ by more than a few headings.
 */
export function alignOutlines(
  a: readonly [number, string][],
  b: readonly [number, string][],
): [number, number][] | undefined {
  const [n, m] = [a.length, b.length];
  const allowed = Math.max(MIN_GAPS, Math.floor(MAX_GAP_SHARE * Math.max(n, m)));
  if (Math.abs(n - m) > allowed) return undefined;
  const same = (i: number, j: number) => a[i]![0] === b[j]![0];
  // fwd[i][j]: fewest unpaired headings aligning a[..i) with b[..j); back[i][j]: a[i..) with b[j..).
  const table = () => Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  const [fwd, back] = [table(), table()];
  for (let i = 0; i <= n; i++)
    for (let j = 0; j <= m; j++) {
      if (!i || !j) fwd[i]![j] = i + j;
      else
        fwd[i]![j] = Math.min(
          fwd[i - 1]![j]! + 1,
          fwd[i]![j - 1]! + 1,
          same(i - 1, j - 1) ? fwd[i - 1]![j - 1]! : Infinity,
        );
    }
  for (let i = n; i >= 0; i--)
    for (let j = m; j >= 0; j--) {
      if (i === n || j === m) back[i]![j] = n - i + (m - j);
      else
        back[i]![j] = Math.min(
          back[i + 1]![j]! + 1,
          back[i]![j + 1]! + 1,
          same(i, j) ? back[i + 1]![j + 1]! : Infinity,
        );
    }
  const best = fwd[n]![m]!;
  if (best > allowed) return undefined;
  // How each heading fares on the best alignments: the headings it is paired with, or left unpaired.
  const pairedA = new Map<number, Set<number>>();
  const pairedB = new Map<number, Set<number>>();
  const looseA = new Set<number>();
  const looseB = new Set<number>();
  for (let i = 0; i <= n; i++)
    for (let j = 0; j <= m; j++) {
      const before = fwd[i]![j]!;
      if (i < n && j < m && same(i, j) && before + back[i + 1]![j + 1]! === best) {
        (pairedA.get(i) ?? pairedA.set(i, new Set()).get(i)!).add(j);
        (pairedB.get(j) ?? pairedB.set(j, new Set()).get(j)!).add(i);
      }
      if (i < n && before + 1 + back[i + 1]![j]! === best) looseA.add(i);
      if (j < m && before + 1 + back[i]![j + 1]! === best) looseB.add(j);
    }
  const out: [number, number][] = [];
  for (const [i, js] of pairedA) {
    const j = [...js][0]!;
    if (js.size === 1 && pairedB.get(j)!.size === 1 && !looseA.has(i) && !looseB.has(j)) out.push([i, j]);
  }
  return out.sort((x, y) => x[0] - y[0]);
}
