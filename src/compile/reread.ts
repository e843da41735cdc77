import { readFileSync, statSync } from 'node:fs';
import type { KbContext } from '../kb/context.js';
import type { ContentHash, RawDocument } from '../types.js';
import { ingestFile, type RawFile } from '../ingest/index.js';
import { splitPosts } from '../ingest/posts.js';
import { fileOfRow, type DocumentRow } from '../store/store.js';

/**
 * The text of a stored document read again from its raw file (the post it is, in a multi-post
 * file): an unchanged source rendered again has its draft written again from it. Compile reads it
 * so, and `--estimate` does too, to count the call that writes it.
 */
export async function rereadDocument(
  ctx: KbContext,
  d: DocumentRow,
  rawAbs: (file: string) => string,
): Promise<RawDocument | undefined> {
  const path = fileOfRow(d);
  const f: RawFile = { path: path as RawFile['path'], absPath: rawAbs(path), size: d.size, mtimeMs: 0 };
  const bytes = readFileSync(f.absPath);
  const r = await ingestFile({ ...f, size: statSync(f.absPath).size }, bytes, d.hash as ContentHash, {
    ...ctx.config.ingest,
    cacheDir: ctx.paths.ingestCache,
  });
  return r.doc ? splitPosts(r.doc).find((x) => x.path === d.raw_path) : undefined;
}
