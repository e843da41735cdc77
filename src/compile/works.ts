import { entityKey, makeEntryId } from '../entry/names.js';
import type { DocumentRow } from '../store/store.js';
import type { EntryId, RawDocument } from '../types.js';
import { sha256 } from '../util/hash.js';

/**
 * The identity of the work a document holds: its title and its text, both normalised (case,
 * width, spacing). One post saved in two feed exports, or an article clipped twice, is one work;
 * two documents that only share a title ("Notes") are two. Images and other attachments are their
 * own files: never merged. Empty when the document has no text to compare.
 */
export function workKeyOf(doc: Pick<RawDocument, 'title' | 'markdown' | 'type'>): string {
  if (doc.type === 'attachment') return '';
  const text = doc.markdown
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\u200b-\u200d\ufeff]+/g, '');
  if (!text) return '';
  return `${entityKey(doc.title)}\n${sha256(text).slice(0, 32)}`;
}

/** Documents in raw-path order (code points, as SQLite sorts them): the first copy of a work is its entry's own. */
export function byRawPath(a: Pick<DocumentRow, 'raw_path'>, b: Pick<DocumentRow, 'raw_path'>): number {
  return a.raw_path < b.raw_path ? -1 : a.raw_path > b.raw_path ? 1 : 0;
}

/**
 * The source entry of every document, so that copies of one work share one entry: the entry id
 * a copy already has, an unchanged copy's first (so an edit that makes one copy differ gives the
 * edited copy a new entry, and the other keeps its name), else the first copy's by raw path.
 * Returns the documents whose entry changes, with their new entry id; `taken` gets new ids.
 */
export function unifyWorks(
  docs: readonly DocumentRow[],
  fresh: ReadonlySet<string>,
  taken: Set<string>,
): Map<string, EntryId> {
  const groups = new Map<string, DocumentRow[]>();
  for (const d of docs) {
    if (!d.entry_id || (d.status !== 'ok' && d.status !== 'pending')) continue;
    const k = d.work ? `work:${d.work}` : `doc:${d.raw_path}`;
    (groups.get(k) ?? groups.set(k, []).get(k)!).push(d);
  }
  const unchanged = (d: DocumentRow) => !fresh.has(d.raw_path);
  const order = (a: DocumentRow, b: DocumentRow) => Number(unchanged(b)) - Number(unchanged(a)) || byRawPath(a, b);
  const list = [...groups.values()].map((g) => g.sort(order));
  // Groups holding an unchanged document choose first: they keep the entry they had.
  list.sort((a, b) => order(a[0]!, b[0]!));
  const given = new Set<string>();
  const out = new Map<string, EntryId>();
  for (const g of list) {
    let id = g.map((d) => d.entry_id!).find((x) => !given.has(x)) as EntryId | undefined;
    if (!id) {
      id = makeEntryId('source', g[0]!.title, (x) => taken.has(x) || given.has(x));
      taken.add(id);
    }
    given.add(id);
    for (const d of g) if (d.entry_id !== id) out.set(d.raw_path, id);
  }
  return out;
}
