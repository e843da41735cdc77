import { epochSeconds } from '../entry/dates.js';
import type { KbContext } from '../kb/context.js';
import { bodyHash } from '../entry/frontmatter.js';
import type { LoadedEntry } from '../entry/wiki.js';
import { indexEntries, type IndexEntry } from '../index/entries.js';
import { writeIndexes } from './indexes.js';
import type { Final, Finals } from './types.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { entryBody } from '../entry/frontmatter.js';

/**
 * The store brought up to date with the wiki as written (entries whose file, hash or path changed,
 * and the removed ones), then wiki/index.md and index.json.
 */
export async function indexWiki(
  ctx: KbContext,
  finals: Finals,
  written: readonly Final[],
  deleted: readonly LoadedEntry[],
): Promise<void> {
  const { store } = ctx;
  const writtenSet = new Set(written);
  const rows = new Map(store.entryHashes().map((r) => [r.id, r]));
  const toIndex = [...finals.values()].filter((f) => {
    const row = rows.get(f.id);
    return !row || row.content_hash !== currentHash(f) || row.path !== f.path || writtenSet.has(f);
  });
  const entries = toIndex.map((f) => indexEntryOf(f, ctx.paths.wiki));
  await indexEntries(ctx, entries, { remove: deleted.filter((e) => !e.humanEdited).map((e) => e.fm.id) });
  writeIndexes(
    ctx.paths.wiki,
    [...finals.values()].map((f) => ({
      id: f.id,
      kind: f.kind,
      title: f.title,
      path: f.path,
      summary: f.fm.summary,
      source_ref: f.fm.source_ref ?? [],
      // As the store keeps them: an entry's link to itself is none (a kept entry's come from the store).
      links: [...f.links].filter((l) => l !== f.id),
    })),
  );
}

function indexEntryOf(f: Final, wikiDir: string): IndexEntry {
  return {
    id: f.id,
    kind: f.kind,
    title: f.title,
    path: f.path,
    aliases: f.fm.aliases ?? [],
    summary: f.fm.summary ?? '',
    source_ref: f.fm.source_ref ?? [],
    content_hash: currentHash(f),
    human_edited: f.humanEdited,
    updated: epochSeconds(f.fm.updated) || Math.floor(Date.now() / 1000),
    links: [...f.links],
    // Let go once written (write.ts letBodyGo): what kb wrote is in the file.
    body: () => (f.body || f.hash === undefined ? f.body : entryBody(readFileSync(join(wikiDir, f.path), 'utf8'))),
  };
}

/** The content hash of an entry as it stands after this run. */
function currentHash(f: Final): string {
  if (f.humanEdited) return f.old?.fm.content_hash ?? '';
  if (!f.rendered && !f.touched && f.old) return f.old.fm.content_hash;
  return f.hash ?? bodyHash(f.body);
}
