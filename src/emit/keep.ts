import type { EntryId } from '../types.js';
import type { LoadedEntry, WikiScan } from '../entry/wiki.js';
import { withoutBacklinks } from '../entry/backlinks.js';
import { extractWikiLinks } from '../parse/links.js';
import { resolveLinks } from './linker.js';
import type { LinkContext } from './link-table.js';
import type { ConceptPlan, Final, Finals, NamePlan, SourcePlan } from './types.js';

export interface KeepInput {
  sources: readonly SourcePlan[];
  concepts: readonly ConceptPlan[];
  scan: WikiScan;
  /** What the store knows of the entries: their links are read from there while a file is as kb wrote it. */
  stored: { entryHashes(): { id: string; content_hash: string }[]; linksFrom(id: string): string[] };
}

/**
 * Every entry not rendered this run keeps its content (in `finals`, after the rendered ones);
 * links in it to entries that are gone or moved are rewritten, links to nothing become plain text.
 * Returns the entries that are no longer planned (removed by the write step unless a person edited them).
 */
export function keepRest(
  input: KeepInput,
  finals: Finals,
  names: NamePlan,
  links: LinkContext,
): { deleted: LoadedEntry[] } {
  const deleted: LoadedEntry[] = [];
  const liveIds = new Set<string>([...input.sources.map((p) => p.id), ...input.concepts.map((g) => g.id)]);
  // Read once for all entries (one query each instead of two per entry).
  const hashes = new Map(input.stored.entryHashes().map((r) => [r.id, r.content_hash]));
  for (const e of input.scan.entries) {
    if (finals.has(e.fm.id)) continue;
    const stays = liveIds.has(e.fm.id) || e.fm.kind === 'answer' || e.humanEdited;
    if (!stays) {
      deleted.push(e);
      continue;
    }
    const hash = hashes.get(e.fm.id);
    let ids: string[];
    // One entry's links at a time: all of them at once held every link of a large wiki in memory.
    if (hash !== undefined && hash === e.fm.content_hash && !e.humanEdited) ids = input.stored.linksFrom(e.fm.id);
    else ids = linkIds(e.body, links);
    finals.set(e.fm.id, keptFinal(e, names.pathOf.get(e.fm.id) ?? e.path, ids));
  }
  const goneIds = new Set<string>(deleted.filter((e) => !e.humanEdited).map((e) => e.fm.id));
  // Entries whose file moved (a new title): links to them are rewritten to the new name.
  const movedIds = new Set<string>([...finals.values()].filter((f) => f.old && f.old.path !== f.path).map((f) => f.id));
  for (const f of finals.values()) {
    if (f.rendered || f.humanEdited) continue;
    if ([...f.links].some((l) => goneIds.has(l) || movedIds.has(l) || !finals.has(l))) {
      const { text, links: ids } = resolveLinks(f.body, links.lookup, links.attachments);
      f.body = text;
      f.links = new Set(ids);
    }
  }
  return { deleted };
}

/** Ids of the entries a body links to, outside its Backlinks section. */
export function linkIds(body: string, links: LinkContext): string[] {
  return extractWikiLinks(withoutBacklinks(body))
    .map((l) => links.lookup(l.target)?.id)
    .filter((x): x is string => Boolean(x));
}

/** An entry kept as it is; its body is read from disk only if this run changes it. */
function keptFinal(e: LoadedEntry, path: string, links: string[]): Final {
  let body: string | undefined;
  const f = {
    id: e.fm.id as EntryId,
    kind: e.fm.kind,
    title: e.fm.title,
    path,
    fm: { ...e.fm },
    links: new Set(links),
    humanEdited: e.humanEdited,
    rendered: false,
    old: e,
  } as Final;
  Object.defineProperty(f, 'body', {
    get: () => body ?? e.body,
    set: (v: string) => {
      body = v;
      f.touched = true;
    },
    enumerable: true,
  });
  return f;
}
