import type { KbConfig } from '../config/defaults.js';
import type { KbMessage } from '../diagnostics/message.js';
import type { Chunk, ContentHash, RawDocument } from '../types.js';
import type { Embedder } from '../embed/index.js';
import { ingestFile, type RawFile } from '../ingest/index.js';
import { chunkMarkdown } from '../chunk/index.js';
import { splitPosts } from '../ingest/posts.js';
import { chunkSearchText } from '../text/search.js';
import { OFFLINE_COMPILER, offlineEntities, offlineSource, withOfflineText } from './offline/writer.js';
import type { SourceDraft } from './types.js';
import { HAN } from '../text/script.js';

/** One raw file after the CPU-heavy, model-free steps: ingest, split into posts, offline drafts, chunks, vectors. */
export interface Prepared {
  messages: KbMessage[];
  /** The file's works: one, or one per post of a multi-post file (ingest/posts.ts); none if ingest failed. */
  parts?: PreparedPart[];
}

export interface PreparedPart {
  doc: RawDocument;
  /**
   * The offline draft; with its names only (no summary, no body) when `textLeft`: the thread left
   * the rest to the main thread (`PrepareConfig.leaveChunksBelow`), which completes it with
   * completeOffline.
   */
  offline: SourceDraft;
  textLeft?: true;
  /** None when the thread left chunking (and embedding) to the main thread (`PrepareConfig.leaveChunksBelow`). */
  chunks?: Chunk[];
  /** Present when the embedder ran here (the local one runs in worker threads). */
  vectors?: Float32Array[];
  fingerprint?: string;
}

export type PrepareConfig = Pick<KbConfig, 'ingest' | 'chunk'> & {
  /** `.kb/ingest`: converted documents and OCR text by content hash. */
  ingestCache?: string;
  /**
   * Leave chunking, embedding and the offline draft's text (summary, key points, outline) of a work
   * shorter than this (characters) to the main thread: with one worker thread on two cores, the
   * main thread, which stores what the thread prepares, has the time to spare. The thread still
   * finds the work's names, which need its language models. A long work is still done on the
   * thread, where a signal can stop it at once.
   */
  leaveChunksBelow?: number;
};

/** What gets embedded for a chunk: the document title and heading path give the passage its topic. */
export function embedText(title: string, headings: string[], text: string): string {
  return `${title}\n${headings.join(' / ')}\n${text}`;
}

/** What one call of `prepare` does beyond ingest and the offline draft. */
export interface PrepareJob {
  /** Progress inside the file (pages of a long PDF). */
  onProgress?: ((done: number, total: number) => void) | undefined;
  /**
   * False: no chunks and no vectors. The store keeps the ones it has: the bytes and the ingest are
   * as they were, only the compiler changed (chunks are a function of the text alone).
   */
  chunks?: boolean | undefined;
  /**
   * False: this work is prepared whole here, short or not (`PrepareConfig.leaveChunksBelow` is not
   * applied): the main thread, behind with what it stores, asks for it (ingest-changed.ts).
   */
  leave?: boolean | undefined;
}

export async function prepare(
  file: RawFile,
  bytes: Uint8Array,
  hash: ContentHash,
  cfg: PrepareConfig,
  embedder?: Embedder,
  job: PrepareJob = {},
): Promise<Prepared> {
  const { onProgress } = job;
  const res = await ingestFile(file, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), hash, {
    ...cfg.ingest,
    ...(cfg.ingestCache ? { cacheDir: cfg.ingestCache } : {}),
    ...(onProgress ? { onProgress } : {}),
  });
  if (!res.doc) return { messages: res.messages };
  const parts: PreparedPart[] = [];
  const leaving = job.leave === false ? { ...cfg, leaveChunksBelow: 0 } : cfg;
  for (const doc of splitPosts(res.doc)) parts.push(await preparePart(doc, leaving, embedder, job.chunks !== false));
  return { messages: res.messages, parts };
}

async function preparePart(
  doc: RawDocument,
  cfg: PrepareConfig,
  embedder: Embedder | undefined,
  chunked: boolean,
): Promise<PreparedPart> {
  const small = doc.markdown.length < (cfg.leaveChunksBelow ?? 0);
  // Not the text of a work in Chinese: its summary cuts words with jieba, which the main thread
  // would then load while the thread has its own (~50 MB more at the peak of 1,000 documents).
  if (small && !HAN.test(doc.markdown))
    return { doc, offline: { ...NO_TEXT, title: doc.title, entities: offlineEntities(doc) }, textLeft: true };
  const offline = offlineSource(doc);
  if (!chunked || small) return { doc, offline };
  const chunks = chunkPart(doc, cfg);
  const out: PreparedPart = { doc, offline, chunks };
  if (embedder) {
    out.vectors = chunks.length
      ? await embedder.embed(chunks.map((c) => embedText(doc.title, c.headings, c.text)))
      : [];
    out.fingerprint = embedder.fingerprint;
  }
  return out;
}

/** An offline draft's fields before the main thread writes its text (PreparedPart.textLeft). */
const NO_TEXT: Omit<SourceDraft, 'title' | 'entities'> = {
  aliases: [],
  summary: '',
  body: '',
  compiledBy: OFFLINE_COMPILER,
};

/** A prepared work's offline draft, its text written here when the thread left it (PreparedPart.textLeft). */
export function completeOffline(part: PreparedPart): SourceDraft {
  return part.textLeft ? withOfflineText(part.doc, part.offline.entities) : part.offline;
}

/** A work's chunks with their search text. */
export function chunkPart(doc: RawDocument, cfg: Pick<PrepareConfig, 'chunk'>): Chunk[] {
  const chunks = chunkMarkdown(doc.markdown, cfg.chunk);
  for (const c of chunks) {
    c.fts = chunkSearchText(c);
    // A post's lines are lines of its file (its markdown starts below the posts before it).
    if (doc.post) c.line += doc.post.line;
  }
  return chunks;
}
