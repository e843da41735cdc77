import type { KbContext } from '../kb/context.js';
import { chunkMarkdown } from '../chunk/index.js';
import { withoutBacklinks } from '../entry/backlinks.js';
import type { ChunkPatch, ChunkRow, EntryRow, Store } from '../store/store.js';
import type { Chunk } from '../types.js';
import { sha256 } from '../util/hash.js';

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

/** Where a summary vector made ahead of its entry is kept (Store.pendingVector): the embedder's and the text's. */
export function summaryKey(fingerprint: string, text: string): string {
  return sha256(`${fingerprint}\n${text}`);
}

/** The text a passage of an entry's own body is embedded as. */
export function entryChunkText(title: string, text: string): string {
  return `${title}\n${text}`;
}

/**
 * Embed what the entries need (summary vectors; for concepts and answers the chunks of the body
 * without its Backlinks section) and return the store update, to run in the caller's transaction.
 * What the store already holds from the same text is kept with its vector: an entry rewritten for
 * its backlinks, or with one passage changed, is not embedded again for the rest.
 */
export async function prepareIndex(
  ctx: KbContext,
  entries: readonly IndexEntry[],
  signal?: AbortSignal,
): Promise<() => void> {
  const { embedder, store } = ctx;
  const stale = entries.filter((e) => !summaryKept(store, e));
  // Those compile made while ingesting are read, not embedded again.
  const vectors = new Map<IndexEntry, Float32Array | undefined>(
    stale.map((e) => [e, store.pendingVector(summaryKey(embedder.fingerprint, summaryText(e)))]),
  );
  const missing = stale.filter((e) => !vectors.get(e));
  const fresh = missing.length ? await embedder.embed(missing.map(summaryText), signal) : [];
  for (const [i, e] of missing.entries()) vectors.set(e, fresh[i]);
  const patches = new Map<string, ChunkPatch>();
  for (const e of entries) {
    if (e.kind === 'source') continue;
    const patch = chunkPatch(store, e, chunkMarkdown(withoutBacklinks(e.body()).trim(), ctx.config.chunk));
    if (patch.added.length)
      patch.vectors = await embedder.embed(
        patch.added.map((c) => entryChunkText(e.title, c.text)),
        signal,
      );
    if (patch.added.length || patch.dropped.length || patch.kept.length) patches.set(e.id, patch);
  }
  return () =>
    entries.forEach((e) => {
      const { links, body: _body, ...row } = e;
      store.putEntry(row, links, vectors.get(e));
      const p = patches.get(e.id);
      if (p) store.patchEntryChunks(e.id, p);
    });
}

/** Whether the store holds a summary vector made of the text this entry's would be made of. */
function summaryKept(store: Store, e: IndexEntry): boolean {
  const row = store.getEntry(e.id);
  return Boolean(row && summaryText(row) === summaryText(e) && store.entryVector(e.id));
}

/**
 * The store's chunks of the entry matched to the new ones by heading and text (what its search
 * terms and, under the same title, its vector are made of): those stay, the rest go or come.
 * `kept` is empty when nothing but the text's position would change.
 */
function chunkPatch(store: Store, e: IndexEntry, chunks: Chunk[]): ChunkPatch {
  const row = store.getEntry(e.id);
  const old = row && row.title === e.title ? store.entryChunksWithVectors(e.id) : [];
  const byText = new Map<string, ChunkRow[]>();
  for (const o of old) byText.set(`${o.heading}\n${o.text}`, [...(byText.get(`${o.heading}\n${o.text}`) ?? []), o]);
  const patch: ChunkPatch = { kept: [], dropped: [], added: [], vectors: [] };
  const matched = new Set<number>();
  for (const c of chunks) {
    const o = byText.get(`${c.headings.join(' › ')}\n${c.text}`)?.shift();
    if (!o) patch.added.push(c);
    else {
      matched.add(o.id);
      if (o.ord !== c.ord || o.line !== c.line || o.tokens !== c.tokens)
        patch.kept.push({ id: o.id, ord: c.ord, line: c.line, tokens: c.tokens });
    }
  }
  // Rows without a vector, or under another title, are made again.
  const all = store.chunksOfEntry(e.id).filter((o) => o.raw_path === null);
  patch.dropped = all.filter((o) => !matched.has(o.id)).map((o) => o.id);
  return patch;
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
