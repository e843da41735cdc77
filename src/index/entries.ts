import type { KbContext } from '../kb/context.js';
import { chunkMarkdown } from '../chunk/index.js';
import { withoutBacklinks } from '../entry/backlinks.js';
import type { EntryRow } from '../store/store.js';
import type { Chunk } from '../types.js';

/**
 * An entry as the store keeps it: its row (`content_hash` is the hash kb last wrote: for an entry a
 * person edited, not the hash of their text), its links and the text its vectors are made of.
 */
export interface IndexEntry extends EntryRow {
  /** Ids of the entries it links to. */
  links: string[];
  /** The body, read only for concepts and answers: a source keeps the chunks of its raw document. */
  body: () => string;
}

/** The text an entry's summary vector is made of, the same for compile, watch, heal and save. */
export function summaryText(e: { title: string; aliases: readonly string[]; summary: string }): string {
  return `${e.title}\n${e.aliases.join(', ')}\n${e.summary}`;
}

/** The text a passage of an entry's own body is embedded as. */
export function entryChunkText(title: string, text: string): string {
  return `${title}\n${text}`;
}

/**
 * Embed what the entries need (summary vectors; for concepts and answers the chunks of the body
 * without its Backlinks section) and return the store update, to run in the caller's transaction.
 */
export async function prepareIndex(
  ctx: KbContext,
  entries: readonly IndexEntry[],
  signal?: AbortSignal,
): Promise<() => void> {
  const { embedder, store } = ctx;
  const vectors = entries.length ? await embedder.embed(entries.map(summaryText), signal) : [];
  const bodies = new Map<string, { chunks: Chunk[]; vectors: Float32Array[] }>();
  for (const e of entries) {
    if (e.kind === 'source') continue;
    const chunks = chunkMarkdown(withoutBacklinks(e.body()).trim(), ctx.config.chunk);
    bodies.set(e.id, {
      chunks,
      vectors: chunks.length
        ? await embedder.embed(
            chunks.map((c) => entryChunkText(e.title, c.text)),
            signal,
          )
        : [],
    });
  }
  return () =>
    entries.forEach((e, i) => {
      const { links, body: _body, ...row } = e;
      store.putEntry(row, links, vectors[i]);
      const b = bodies.get(e.id);
      if (b) store.putChunks(e.id, null, b.chunks, b.vectors);
    });
}

/**
 * Put entries into the store — rows, links, summary vectors, body chunks — and drop the entries
 * `remove` names, in one transaction. The one way an entry gets indexed: compile, watch, heal
 * and `ask --save` all come here.
 */
export async function indexEntries(
  ctx: KbContext,
  entries: readonly IndexEntry[],
  opts: { remove?: readonly string[]; signal?: AbortSignal | undefined } = {},
): Promise<void> {
  const write = await prepareIndex(ctx, entries, opts.signal);
  ctx.store.transaction(() => {
    for (const id of opts.remove ?? []) ctx.store.deleteEntry(id);
    write();
  });
}
