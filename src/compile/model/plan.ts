import { readFileSync } from 'node:fs';
import type { KbContext } from '../../kb/context.js';
import type { EntryId, RawDocument } from '../../types.js';
import { sha256 } from '../../util/hash.js';
import { ingestFile, maxBytesFor, walkRaw } from '../../ingest/index.js';
import type { LoadedEntry } from '../../entry/wiki.js';
import { scanWiki, sourceRefs } from '../../entry/wiki.js';
import type { Catalog } from '../types.js';
import { splitPosts } from '../../ingest/posts.js';
import { fileRow } from '../../store/store.js';
import { workKeyOf } from '../works.js';
import { checkAbort } from '../scan.js';

/** The catalog the model sees: every entry's title, aliases, kind and summary. */
export function buildCatalog(entries: LoadedEntry[]): Catalog {
  return {
    entries: entries.map((e) => ({
      id: e.fm.id as EntryId,
      title: e.fm.title,
      aliases: e.fm.aliases ?? [],
      kind: e.fm.kind,
      summary: e.fm.summary ?? '',
      refs: sourceRefs(e).map(rawRef),
    })),
  };
}

/** A `source_ref` as the raw path a document is known by: without `raw/`. */
export function rawRef(ref: string): string {
  return ref.replace(/^raw\//, '');
}

export function catalogOfWiki(ctx: KbContext): Catalog {
  return buildCatalog(scanWiki(ctx.paths.wiki).entries);
}

/**
 * The raw documents the next `kb compile` with this writer will compile (changed, new, pending or
 * compiled by another compiler), ingested. The same test compile() makes, without writing anything.
 */
export async function documentsToCompile(
  ctx: KbContext,
  writerName: string,
  force = false,
  signal?: AbortSignal,
): Promise<RawDocument[]> {
  const { config, paths, store } = ctx;
  const known = new Map([...store.documentsByFile()].map(([f, rows]) => [f, fileRow(rows)]));
  const out: RawDocument[] = [];
  const files = walkRaw(paths.raw, { ignore: config.ingest.ignore }).files;
  const busy = new Set<string>();
  // These files are read on the main thread, one after another: a signal stops it between files
  // and between a long PDF's pages (a reading stopped half-way is not cached).
  const onProgress = signal ? () => checkAbort(signal) : undefined;
  for (const file of files) {
    checkAbort(signal);
    if (file.size > maxBytesFor(file.path, config.ingest)) continue;
    let bytes: Buffer;
    try {
      bytes = readFileSync(file.absPath);
    } catch {
      continue;
    }
    const hash = sha256(bytes);
    const prev = known.get(file.path);
    if (!force && prev && prev.hash === hash && prev.compiler === writerName && prev.status !== 'pending') continue;
    busy.add(file.path);
    const res = await ingestFile(file, bytes, hash, {
      ...config.ingest,
      cacheDir: paths.ingestCache,
      ...(onProgress ? { onProgress } : {}),
    });
    checkAbort(signal);
    if (res.doc) out.push(...splitPosts(res.doc));
  }
  // A work saved in two files is written once (compile gives its copies one entry): not a copy of
  // a work met before in this list, nor of one the model wrote in a file this compile leaves alone.
  const seen = new Set<string>();
  if (!force) {
    const present = new Set(files.map((f) => f.path as string));
    for (const [file, rows] of store.documentsByFile())
      if (present.has(file) && !busy.has(file))
        for (const r of rows) if (r.work && r.status === 'ok' && r.compiler === writerName) seen.add(r.work);
  }
  return out.filter((d) => {
    const work = workKeyOf(d);
    if (!work) return true;
    if (seen.has(work)) return false;
    seen.add(work);
    return true;
  });
}
