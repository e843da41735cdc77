import { epochSeconds } from '../entry/dates.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KbContext } from '../kb/context.js';
import type { EntryFrontmatter } from '../types.js';
import { bodyHash, parseEntryFile } from '../entry/frontmatter.js';
import { linkResolver } from '../entry/links.js';
import { extractWikiLinks } from '../parse/links.js';
import { indexEntries } from '../index/entries.js';

export type ReindexResult =
  | { status: 'indexed'; id: string; kind: string; humanEdited: boolean }
  | { status: 'unchanged'; id: string }
  | { status: 'ignored'; reason: string }
  | { status: 'removed'; id: string }
  /** The file is gone and the store knows no entry there (kb removed it itself). */
  | { status: 'gone' }
  | { status: 'kept'; id: string; reason: string };

const SAME = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Bring the store up to date with one entry file in wiki/ as it is on disk — after a person edited
 * it, or added an answer by hand — without rewriting the file. Updates the entry row (title,
 * aliases, summary, links, summary vector) and, for concepts and answers, the body's chunks.
 * Source entries keep the chunks of their raw document (that is what search should quote).
 * `seen` remembers the body hash last indexed per path, so kb's own writes and repeated events
 * cost nothing.
 */
export async function reindexEntry(
  ctx: KbContext,
  wikiPath: string,
  seen: Map<string, string>,
  signal?: AbortSignal,
): Promise<ReindexResult> {
  const { store } = ctx;
  let text: string;
  try {
    text = readFileSync(join(ctx.paths.wiki, wikiPath), 'utf8');
  } catch {
    return forgetEntry(ctx, wikiPath, seen);
  }
  const { data, body } = parseEntryFile(text);
  if (typeof data['id'] !== 'string' || typeof data['kind'] !== 'string' || typeof data['title'] !== 'string') {
    return { status: 'ignored', reason: 'no kb frontmatter (id, kind, title)' };
  }
  const fm = data as EntryFrontmatter;
  const aliases = Array.isArray(fm.aliases) ? fm.aliases.filter((a): a is string => typeof a === 'string') : [];
  const summary = typeof fm.summary === 'string' ? fm.summary : '';
  const sourceRef = Array.isArray(fm.source_ref) ? fm.source_ref.filter((a): a is string => typeof a === 'string') : [];
  const hash = bodyHash(body);
  const humanEdited = hash !== fm.content_hash;
  const row = store.getEntry(fm.id);
  const rowSame =
    row &&
    row.path === wikiPath &&
    row.kind === fm.kind &&
    row.title === fm.title &&
    row.summary === summary &&
    SAME(row.aliases, aliases);
  if (rowSame && (seen.get(wikiPath) === hash || (!humanEdited && row.content_hash === hash && !row.human_edited))) {
    seen.set(wikiPath, hash);
    return { status: 'unchanged', id: fm.id };
  }

  // Entry files as the store knows them, resolved as Obsidian resolves links.
  const targets = linkResolver(store.allEntries(), (e) => e.path);
  const links = [
    ...new Set(
      extractWikiLinks(body)
        .map((l) => targets.entry(l.target)?.id)
        .filter((x): x is string => Boolean(x)),
    ),
  ];
  await indexEntries(
    ctx,
    [
      {
        id: fm.id,
        kind: fm.kind,
        title: fm.title,
        path: wikiPath,
        aliases,
        summary,
        source_ref: sourceRef,
        // As compile records it: the hash kb wrote, so a later compile sees the edit and leaves it alone.
        content_hash: humanEdited ? String(fm.content_hash ?? '') : hash,
        human_edited: humanEdited,
        updated: epochSeconds(fm.updated) || Math.floor(Date.now() / 1000),
        links,
        body: () => body,
      },
    ],
    { signal },
  );
  seen.set(wikiPath, hash);
  return { status: 'indexed', id: fm.id, kind: fm.kind, humanEdited };
}

/** An entry file went away. Answers are a person's to delete; compiled entries come back with the next compile. */
function forgetEntry(ctx: KbContext, wikiPath: string, seen: Map<string, string>): ReindexResult {
  seen.delete(wikiPath);
  const row = ctx.store.allEntries().find((e) => e.path === wikiPath);
  if (!row) return { status: 'gone' };
  if (row.kind === 'answer') {
    ctx.store.transaction(() => ctx.store.deleteEntry(row.id));
    return { status: 'removed', id: row.id };
  }
  return {
    status: 'kept',
    id: row.id,
    reason: 'compiled from raw/; `kb compile --force` writes it again, or remove its source from raw/',
  };
}
