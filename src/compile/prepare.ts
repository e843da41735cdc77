import type { KbConfig } from '../config/defaults.js';
import type { KbMessage } from '../diagnostics/message.js';
import type { Chunk, ContentHash, RawDocument } from '../types.js';
import type { Embedder } from '../embed/index.js';
import { ingestFile, type RawFile } from '../ingest/index.js';
import { chunkMarkdown } from '../chunk/index.js';
import { chunkSearchText } from '../text/search.js';
import { offlineSource } from './offline/writer.js';
import type { SourceDraft } from './types.js';

/** One raw file after the CPU-heavy, model-free steps: ingest, offline draft, chunks, vectors. */
export interface Prepared {
  messages: KbMessage[];
  doc?: RawDocument;
  offline?: SourceDraft;
  chunks?: Chunk[];
  /** Present when the embedder ran here (the local one runs in worker threads). */
  vectors?: Float32Array[];
  fingerprint?: string;
}

export type PrepareConfig = Pick<KbConfig, 'ingest' | 'chunk'> & {
  /** `.kb/ingest`: converted documents and OCR text by content hash. */
  ingestCache?: string;
};

/** What gets embedded for a chunk: the document title and heading path give the passage its topic. */
export function embedText(title: string, headings: string[], text: string): string {
  return `${title}\n${headings.join(' / ')}\n${text}`;
}

export async function prepare(
  file: RawFile,
  bytes: Uint8Array,
  hash: ContentHash,
  cfg: PrepareConfig,
  embedder?: Embedder,
  onProgress?: (done: number, total: number) => void,
): Promise<Prepared> {
  const res = await ingestFile(file, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), hash, {
    ...cfg.ingest,
    ...(cfg.ingestCache ? { cacheDir: cfg.ingestCache } : {}),
    ...(onProgress ? { onProgress } : {}),
  });
  if (!res.doc) return { messages: res.messages };
  const doc = res.doc;
  const offline = offlineSource(doc);
  const chunks = chunkMarkdown(doc.markdown, cfg.chunk);
  for (const c of chunks) c.fts = chunkSearchText(c);
  const out: Prepared = { messages: res.messages, doc, offline, chunks };
  if (embedder) {
    out.vectors = chunks.length ? await embedder.embed(chunks.map((c) => embedText(doc.title, c.headings, c.text))) : [];
    out.fingerprint = embedder.fingerprint;
  }
  return out;
}
