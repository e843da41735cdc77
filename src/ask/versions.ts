import { hasTraditional } from '../text/fold.js';
import { HAN } from '../text/script.js';
import type { EntryRow } from '../store/store.js';

/** How a reader reads a text: English (no Han character), or Chinese in Simplified or Traditional script. */
export type Reading = 'en' | 'zh-Hans' | 'zh-Hant';

/** The reading of a question or of an entry's title and summary. */
export function readingOf(text: string): Reading {
  if (!HAN.test(text)) return 'en';
  return hasTraditional(text) ? 'zh-Hant' : 'zh-Hans';
}

/** What ownReadingFirst reads of the store. */
export interface VersionLookup {
  linksFrom(id: string): string[];
  linksTo(id: string): string[];
  rowid(id: string): number | undefined;
  /** An entry's row (without its list of sources), for a version not found by the search. */
  entry(id: string): EntryRow | undefined;
}

/**
 * A work the wiki holds in several languages (an article and its translations: their source
 * entries list each other as versions, so each links to the other): the version a reader of the
 * question reads stands first. Of the `top` best entries, each source in another reading whose
 * version in the question's reading is known hands that version its score when higher, and ranks
 * just below it. A work with no version in the question's reading keeps its order (a question in
 * one language about notes in the other still finds them). Returns the versions that stand for
 * others (`rows` and `scores` hold them now), those of them the search had not found, and for each
 * entry that gave way, the id of its version in the question's reading.
 */
export function ownReadingFirst(
  question: string,
  scores: Map<number, number>,
  rows: Map<number, EntryRow>,
  look: VersionLookup,
  top: number,
): { standing: number[]; added: number[]; readAs: Map<number, string> } {
  const want = readingOf(question);
  const readingOfRow = (e: EntryRow) => readingOf(`${e.title} ${e.summary}`);
  const standing = new Set<number>();
  const added: number[] = [];
  const readAs = new Map<number, string>();
  const best = [...scores].sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [rowid, score] of best) {
    const e = rows.get(rowid)!;
    if (e.kind !== 'source' || readingOfRow(e) === want) continue;
    const to = new Set(look.linksTo(e.id));
    for (const id of look.linksFrom(e.id)) {
      if (!to.has(id) || !id.startsWith('source/')) continue;
      const v = look.rowid(id);
      if (v === undefined) continue;
      const row = rows.get(v) ?? look.entry(id);
      if (!row || readingOfRow(row) !== want) continue;
      rows.set(v, row);
      if (!scores.has(v)) added.push(v);
      const own = Math.max(scores.get(v) ?? 0, score);
      scores.set(v, own);
      scores.set(rowid, Math.min(scores.get(rowid)!, own * 0.99));
      readAs.set(rowid, id);
      standing.add(v);
      break;
    }
  }
  return { standing: [...standing], added, readAs };
}
