import type { DocumentRow, EntityRow } from '../store/store.js';
import { alignOutlines, MAX_PLACES, outlineHeadings } from '../text/outline.js';
import { HAN } from '../text/script.js';

/** Two versions of one work, each with whether its names are Chinese (compile/concepts.ts: alignable). */
export type VersionSides = [[DocumentRow, boolean], [DocumentRow, boolean]];

/** Aligned paragraphs a name must stand in (and share with its translation) to be aligned by them… */
const MIN_SHARED = 3;
/** …as nearly as its translation does (Dice's overlap of the two sets of paragraphs)… */
const MIN_OVERLAP = 0.7;
/** …and in no more than this share of them (a name in most paragraphs stands everywhere, so nowhere). */
const MAX_SPREAD = 0.5;

/** A name of one version and the aligned paragraphs that name it. */
interface Placed {
  key: string;
  paragraphs: Set<string>;
}

/**
 * Names two versions of a work use in the same paragraphs: a translation keeps its original's
 * paragraphs one for one, so where the two outlines align (text/outline.ts) and an aligned section
 * holds as many paragraphs in both, the k-th paragraph of one says what the k-th of the other says,
 * and a name of one stands where its translation stands in the other ("checksum" and 雜湊值, "master
 * branch" and master 分支, plumbing and 底层命令), whatever words the translator chose. Each name takes the
 * other version's name whose paragraphs match its own best, only when it is that name's best too.
 * Names only: an everyday word (weak) stands in too many paragraphs by chance (标签 beside "HTML"),
 * and joins a concept through the names it is tied to (compile/concepts.ts: attachWeak).
 */
export function alignedByParagraphs(
  entities: readonly EntityRow[],
  versions: readonly VersionSides[],
  /** Where each name of a document stands among its paragraphs, by key (Store.placesOf). */
  placesOf: (rawPath: string) => ReadonlyMap<string, string>,
): [string, string][] {
  if (!versions.length) return [];
  const byDoc = new Map<string, EntityRow[]>();
  for (const e of entities) (byDoc.get(e.raw_path) ?? byDoc.set(e.raw_path, []).get(e.raw_path)!).push(e);
  const out: [string, string][] = [];
  for (const [[x, hanX], [y, hanY]] of versions) {
    const pairs = alignOutlines(outlineHeadings(x.headings ?? ''), outlineHeadings(y.headings ?? ''));
    const [countsX, countsY] = [counts(x), counts(y)];
    if (!pairs || !countsX.length || !countsY.length) continue;
    // Sections numbered alike in both versions (0 before the headings, k + 1 after the k-th paired
    // heading), of those that hold as many paragraphs in both.
    const [ofX, ofY] = [new Map<number, number>(), new Map<number, number>()];
    let total = 0;
    [[-1, -1] as [number, number], ...pairs].forEach(([i, j], k) => {
      const n = countsX[i + 1];
      if (n === undefined || n !== countsY[j + 1]) return;
      ofX.set(i + 1, k);
      ofY.set(j + 1, k);
      total += n;
    });
    const placed = (doc: DocumentRow, han: boolean, of: Map<number, number>): Placed[] => {
      const at = placesOf(doc.raw_path);
      return (byDoc.get(doc.raw_path) ?? [])
        .filter((r) => HAN.test(r.key) === han && !r.weak && at.has(r.key))
        .flatMap((r) => {
          const places = at.get(r.key)!.split(' ');
          if (places.length > MAX_PLACES) return [];
          const paragraphs = new Set<string>();
          for (const p of places) {
            const dot = p.indexOf('.');
            const k = of.get(Number(p.slice(0, dot)));
            if (k !== undefined) paragraphs.add(`${k}.${p.slice(dot + 1)}`);
          }
          return paragraphs.size >= MIN_SHARED && paragraphs.size <= MAX_SPREAD * total
            ? [{ key: r.key, paragraphs }]
            : [];
        });
    };
    out.push(...paragraphPairs(placed(x, hanX, ofX), placed(y, hanY, ofY)));
  }
  return out;
}

function counts(d: DocumentRow): number[] {
  return d.paragraphs ? d.paragraphs.split(' ').map(Number) : [];
}

/** Each name's best match of the other version, kept where the match is mutual and close enough. */
function paragraphPairs(xs: readonly Placed[], ys: readonly Placed[]): [string, string][] {
  const overlap = (a: Placed, b: Placed): number => {
    let shared = 0;
    for (const p of a.paragraphs) if (b.paragraphs.has(p)) shared++;
    return shared < MIN_SHARED ? 0 : (2 * shared) / (a.paragraphs.size + b.paragraphs.size);
  };
  const best = (row: Placed, others: readonly Placed[]) => clearlyBest(row, others, overlap, MIN_OVERLAP);
  const out: [string, string][] = [];
  for (const a of xs) {
    const b = best(a, ys);
    if (b && b.key !== a.key && best(b, xs) === a) out.push([a.key, b.key]);
  }
  return out;
}

/** The one of `others` that `overlap` rates highest for `row`, when it reaches `min` and no other rates as high. */
export function clearlyBest<T>(
  row: T,
  others: readonly T[],
  overlap: (a: T, b: T) => number,
  min: number,
): T | undefined {
  let top: T | undefined;
  let [first, second] = [0, 0];
  for (const o of others) {
    const d = overlap(row, o);
    if (d > first) [top, first, second] = [o, d, first];
    else if (d > second) second = d;
  }
  return top && first >= min && second < first ? top : undefined;
}
