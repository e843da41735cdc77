import type { KbContext } from '../kb/context.js';
import { message, type KbMessage } from '../diagnostics/message.js';
import { embedText } from './prepare.js';
import { VECTORS_STALE } from '../store/store.js';
import { entryChunkText, summaryText } from '../index/entries.js';
import type { ProgressEvent } from './types.js';

const BATCH = 256;

/**
 * Vectors for every chunk and entry that has none, from the text the store keeps (no model call,
 * no re-reading raw/), embedded as compile embeds them. One message says it happened.
 */
export async function rebuildVectors(
  ctx: KbContext,
  opts: { signal?: AbortSignal | undefined; onProgress?: ((e: ProgressEvent) => void) | undefined } = {},
): Promise<KbMessage[]> {
  const { store, embedder } = ctx;
  const total = store.counts().chunks;
  let chunks = 0;
  let last = -1;
  for (;;) {
    const rows = store.chunksWithoutVectors(BATCH);
    if (!rows.length || rows[0]!.id === last) break;
    last = rows[0]!.id;
    const texts = rows.map((c) => {
      const doc = c.raw_path ? store.getDocument(c.raw_path) : undefined;
      if (doc) return embedText(doc.title, c.heading ? c.heading.split(' › ') : [], c.text);
      return entryChunkText(store.getEntry(c.entry_id)?.title ?? '', c.text);
    });
    const vectors = await embedder.embed(texts, opts.signal);
    store.transaction(() => {
      for (const [i, c] of rows.entries()) store.putChunkVector(c.id, vectors[i]!);
    });
    chunks += rows.length;
    opts.onProgress?.({ phase: 'index', done: chunks, total });
  }
  const entries = store.entriesWithoutVectors();
  for (let i = 0; i < entries.length; i += BATCH) {
    const part = entries.slice(i, i + BATCH);
    const vectors = await embedder.embed(part.map(summaryText), opts.signal);
    store.transaction(() => {
      for (const [k, e] of part.entries()) store.putEntryVector(e.id, vectors[k]!);
    });
  }
  store.setMeta(VECTORS_STALE, '0');
  if (!chunks && !entries.length) return [];
  return [
    message(
      'wiki/embeddings.db',
      'vectors-rebuilt',
      `Unexpected store without vectors for the embedder in use (${embedder.fingerprint}), expected one vector per passage and entry; embedded ${chunks} passages and ${entries.length} entries again`,
      {
        severity: 'info',
        note: 'this happens once after `embedding` changes in kb.config.json; search uses the new vectors now',
      },
    ),
  ];
}
