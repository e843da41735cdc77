import { epochSeconds } from '../entry/dates.js';
import { indexEntries } from '../index/entries.js';
import { scanWiki } from '../entry/wiki.js';
import type { KbContext } from '../kb/context.js';
import { makeResolver, ownLinks } from '../lint/entry-info.js';
import { refreshIndex } from './fixes/structural.js';

/**
 * After `--merge`: put the entries the merge changed into the store (rows, links, summary
 * vectors, body chunks of concepts and answers), drop the removed ones, and rewrite the index.
 * Only those entries: nothing else in the checkout is recompiled.
 */
export async function reindexEntries(ctx: KbContext, changed: string[], signal?: AbortSignal): Promise<number> {
  const wikiPaths = new Set(changed.filter((p) => p.startsWith('wiki/')).map((p) => p.slice('wiki/'.length)));
  const scan = scanWiki(ctx.paths.wiki);
  const r = makeResolver(scan.entries, scan.files);
  const todo = scan.entries.filter((e) => wikiPaths.has(e.path));
  const present = new Set(scan.entries.map((e) => e.path as string));
  const gone = ctx.store.allEntries().filter((row) => wikiPaths.has(row.path) && !present.has(row.path));
  const entries = todo.map((e) => ({
    id: e.fm.id,
    kind: e.fm.kind,
    title: String(e.fm.title),
    path: e.path,
    aliases: e.fm.aliases ?? [],
    summary: String(e.fm.summary ?? ''),
    source_ref: e.fm.source_ref ?? [],
    content_hash: e.fm.content_hash,
    human_edited: e.humanEdited,
    updated: epochSeconds(e.fm.updated) || Math.floor(Date.now() / 1000),
    links: [
      ...new Set(
        ownLinks(e)
          .map((l) => r.entry(l.target)?.fm.id)
          .filter((x): x is NonNullable<typeof x> => Boolean(x) && x !== e.fm.id),
      ),
    ],
    body: () => e.body,
  }));
  await indexEntries(ctx, entries, { remove: gone.map((row) => row.id), signal });
  refreshIndex(ctx.paths);
  return todo.length + gone.length;
}
