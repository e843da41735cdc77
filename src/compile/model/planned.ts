import type { KbContext } from '../../kb/context.js';
import type { RawDocument } from '../../types.js';
import type { DocumentRow, EntityRow } from '../../store/store.js';
import { type LoadedEntry, scanWiki } from '../../entry/wiki.js';
import { entityKey, makeEntryId } from '../../entry/names.js';
import { readsText } from '../../ingest/index.js';
import { translationMarks } from '../../text/marks.js';
import { headingOutline, paragraphCounts } from '../../text/outline.js';
import { groupConcepts } from '../concepts.js';
import { withDictionary } from '../dictionary.js';
import { draftEntities } from '../offline/writer.js';
import { extractEntities, type FoundEntity } from '../offline/entities.js';
import { workKeyOf } from '../works.js';
import { entityRowOf } from '../ingest-changed.js';
import type { Catalog, CurrentEntry } from '../types.js';
import { fileOf } from '../../ingest/posts.js';
import { currentFor, entriesBySourceRef } from './current.js';
import { buildCatalog, documentsToCompile } from './plan.js';
import { modelReads } from './prompts.js';

/**
 * The catalog a source call sees, with the concepts this compile is about to make: the wiki's
 * entries, and the concepts the offline reading plans from every document — those compiled now
 * (read afresh) and those the store holds. On a first compile there is no concept entry yet, so
 * without them a source could link to no concept; with them each source links the ideas it shares
 * with the others. Planned concepts carry their names, not a summary (none is written yet); an
 * entry the wiki has that a planned concept names gets the planned sources among its refs.
 * The same for the same raw/ and wiki, so the prefetch, a batch and compile send the same requests.
 * `found`: what the offline reading found in a document, when the caller has read it already.
 */
export function plannedCatalog(
  ctx: KbContext,
  docs: readonly RawDocument[],
  existing: LoadedEntry[],
  base: Catalog,
  found?: (doc: RawDocument) => FoundEntity[],
): Catalog {
  const { store, config } = ctx;
  const fresh = new Set(docs.map((d) => d.path as string));
  const entities: EntityRow[] = store.allEntities().filter((e) => !fresh.has(e.raw_path));
  const rows: DocumentRow[] = store.allDocuments().filter((d) => d.status === 'ok' && !fresh.has(d.raw_path));
  for (const doc of docs) {
    if (!readsText(doc)) continue;
    rows.push(documentRow(doc));
    for (const n of draftEntities(found?.(doc) ?? extractEntities(doc.markdown, doc.title)))
      entities.push({ raw_path: doc.path, ...entityRowOf(entityKey(n.name), n) });
  }
  const { minConceptSources, maxConcepts } = config.compile;
  const planned = withDictionary(ctx.paths.state, entities, (dict) =>
    groupConcepts(entities, rows, minConceptSources, maxConcepts, existing, dict, undefined, (path) =>
      store.placesOf(path),
    ),
  );
  const entries = [...base.entries];
  const known = new Map<string, number>();
  entries.forEach((e, i) => {
    for (const n of [e.title, ...e.aliases]) if (!known.has(entityKey(n))) known.set(entityKey(n), i);
  });
  const taken = new Set(base.entries.map((e) => e.id as string));
  const added: Catalog['entries'] = [];
  for (const c of planned) {
    const at = [c.title, ...c.aliases].map((n) => known.get(entityKey(n))).find((i) => i !== undefined);
    if (at !== undefined) {
      // An entry the wiki has: the sources compiled now that name it are its sources too (a new
      // source's call then finds it among the entries related to it).
      const e = entries[at]!;
      entries[at] = { ...e, refs: [...new Set([...(e.refs ?? []), ...c.mentions.map((m) => m.rawPath)])] };
      continue;
    }
    const id = makeEntryId('concept', c.title, (x) => taken.has(x));
    taken.add(id);
    added.push({
      id,
      title: c.title,
      aliases: c.aliases,
      kind: 'concept',
      summary: '',
      refs: c.mentions.map((m) => m.rawPath),
    });
  }
  return { entries: [...entries, ...added] };
}

/** The store row a document compiled now will have, as far as planning concepts reads it. */
export function documentRow(doc: RawDocument): DocumentRow {
  return {
    raw_path: doc.path,
    hash: '',
    type: doc.type,
    title: doc.title,
    entry_id: null,
    size: doc.markdown.length,
    mtime_ms: 0,
    lang: doc.lang,
    status: 'ok',
    error: null,
    compiled_at: 0,
    compiler: '',
    work: workKeyOf(doc),
    marks: translationMarks(doc.markdown).join(' '),
    headings: headingOutline(doc.markdown),
    paragraphs: paragraphCounts(doc.markdown),
  };
}

/**
 * The sources a model compile writes (those the model reads), the catalog every source call gets,
 * and the entry each call updates (`<current_entry>`, as compile sends it: compile/model/current.ts).
 */
export interface SourceWork {
  docs: RawDocument[];
  catalog: Catalog;
  currentOf: (doc: RawDocument) => CurrentEntry | undefined;
}

/** What the next compile with this writer will send for sources: its documents, their catalog and current entries. */
export async function sourceWork(
  ctx: KbContext,
  writerName: string,
  force: boolean,
  signal?: AbortSignal,
): Promise<SourceWork> {
  const all = await documentsToCompile(ctx, writerName, force, signal);
  const scan = scanWiki(ctx.paths.wiki);
  return {
    docs: all.filter(modelReads),
    catalog: plannedCatalog(ctx, all, scan.entries, buildCatalog(scan.entries)),
    currentOf: currentsOf(scan.entries, force),
  };
}

/** The entry a source call updates, as compile decides it (ingest-changed.ts): by the document's raw path. */
export function currentsOf(
  entries: readonly LoadedEntry[],
  force: boolean,
): (doc: RawDocument) => CurrentEntry | undefined {
  const bySourceRef = entriesBySourceRef(entries);
  return (doc) => currentFor(bySourceRef.get(doc.path), fileOf(doc), doc.hash, force);
}
