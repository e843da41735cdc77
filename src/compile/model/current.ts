import { type LoadedEntry, sourceRefs } from '../../entry/wiki.js';
import { setSection } from '../../entry/markers.js';
import type { ModelRequest } from '../../model/request.js';
import type { CurrentEntry } from '../types.js';

/** kb's own sections of a body: the lists it makes, not the text a writer wrote. */
const KB_SECTIONS = ['concepts', 'backlinks'];

/**
 * The entry a model wrote last time, as the writer is given it to update: the body without the
 * title heading kb puts first, kb's own lists and a source entry's file details (`## Source`,
 * which kb writes). Undefined for an entry the offline compiler wrote (a model writes its own text
 * rather than edit extracts) and for one without text.
 */
export function currentEntry(e: LoadedEntry | undefined): CurrentEntry | undefined {
  const by = e?.fm.compiled_by;
  if (!e || typeof by !== 'string' || !by.startsWith('model:')) return undefined;
  let text = e.body;
  for (const name of KB_SECTIONS) text = setSection(text, name, null);
  if (e.fm.kind === 'source') {
    const cut = text.search(/^## Source\s*$/m);
    if (cut >= 0) text = text.slice(0, cut);
  }
  text = text
    .replace(/^\s*# [^\n]*\n/, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (!text) return undefined;
  return { text, sources: sourceRefs(e) };
}

/**
 * The entry a source call updates, or undefined when it writes from the source: only when the
 * file changed since the entry was written (its `source_hashes` say another hash); a new compiler
 * or template asks again from the source, as does `--force`. Compile, its prefetch, `--batch` and
 * `--estimate` decide alike, so they send the same request.
 */
export function currentFor(
  existing: LoadedEntry | undefined,
  file: string,
  hash: string,
  force: boolean,
): CurrentEntry | undefined {
  const hashes = existing?.fm.source_hashes as Record<string, string> | undefined;
  const edited = hashes !== undefined && hashes[`raw/${file}`] !== hash;
  return force || !edited ? undefined : currentEntry(existing);
}

/**
 * The entry a source rendered again updates, its file unchanged but its links shifting (a concept
 * it links to is gone): the entry a model wrote, so a text the model wrote by updating it is not
 * written again from scratch; the writer sends the request that writes it from the source instead
 * when that one is cached (writer.ts), its reply being this entry. None under `--force`.
 */
export function currentOnRerender(existing: LoadedEntry | undefined, force: boolean): CurrentEntry | undefined {
  const current = force ? undefined : currentEntry(existing);
  return current && { ...current, unlessCached: true };
}

/**
 * The request that writes a source's entry: the update of `current` when given — but for an
 * entry rendered again though its source is unchanged (`current.unlessCached`), the request that
 * writes it from the source when that one is cached: the entry is its reply, which costs nothing
 * and keeps the text as it is. Not cached, the entry was written by an update (or the cache is
 * gone): asked from the source, the model would write it from scratch; so it is updated.
 * The writer sends it, and `--estimate` counts it, alike.
 */
export function updateOrCached(
  make: (current: CurrentEntry | undefined) => ModelRequest,
  current: CurrentEntry | undefined,
  isCached: (req: ModelRequest) => boolean,
): ModelRequest {
  if (!current) return make(undefined);
  if (current.unlessCached) {
    const plain = make(undefined);
    if (isCached(plain)) return plain;
  }
  return make(current);
}

/** Source entries by the raw path (without `raw/`) they are written from. */
export function entriesBySourceRef(entries: readonly LoadedEntry[]): Map<string, LoadedEntry> {
  const out = new Map<string, LoadedEntry>();
  for (const e of entries)
    if (e.fm.kind === 'source') for (const r of e.fm.source_ref ?? []) out.set(r.replace(/^raw\//, ''), e);
  return out;
}
