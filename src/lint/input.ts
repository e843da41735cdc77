import { readFileSync } from 'node:fs';
import type { KbConfig } from '../config/defaults.js';
import type { Embedder } from '../embed/types.js';
import { scanWiki } from '../entry/wiki.js';
import { maxBytesFor } from '../ingest/detect.js';
import { walkRaw } from '../ingest/walk.js';
import type { ContentHash, RawPath } from '../types.js';
import type { KbPaths } from '../kb/paths.js';
import type { ModelClient } from '../model/client.js';
import { emptySkip, type Store } from '../store/store.js';
import { sha256 } from '../util/hash.js';
import { offersDir, readOffers } from '../emit/offers.js';
import type { LintInput, RawState } from './types.js';

export interface LoadOptions {
  store?: Store | undefined;
  embedder?: Embedder | undefined;
  model?: ModelClient | undefined;
  network?: boolean;
  fetch?: typeof fetch;
  signal?: AbortSignal | undefined;
  /** Where compile leaves kb's sides of edit conflicts: the knowledge base's own `.kb/offers/` by default (heal lints a worktree against the checkout's). */
  offers?: string;
}

/** Read the knowledge base as it is on disk now: every entry, every raw file with its hash. */
export async function loadLintInput(paths: KbPaths, config: KbConfig, opts: LoadOptions = {}): Promise<LintInput> {
  // With a store, entry files unchanged since compile recorded them (size and mtime) are not parsed again.
  const scan = scanWiki(paths.wiki, opts.store?.scanCache({ readOnly: true }));
  const walk = walkRaw(paths.raw, { ignore: config.ingest.ignore });
  const raw: RawState[] = [];
  for (const f of walk.files) {
    let hash: string;
    if (f.size > maxBytesFor(f.path, config.ingest)) hash = '';
    else {
      try {
        hash = sha256(readFileSync(f.absPath));
      } catch {
        continue;
      }
    }
    raw.push({ path: f.path, absPath: f.absPath, hash });
  }
  const skippedRaw = new Set<string>();
  const emptiedRaw = new Set<string>();
  if (opts.store) {
    const now = new Map(raw.map((r) => [r.path, r]));
    for (const d of opts.store.allDocuments()) {
      const r = now.get(d.raw_path);
      if (d.status === 'ok' || d.status === 'pending' || !r || (r.hash !== d.hash && r.hash !== '')) continue;
      if (emptySkip(d) && r.hash !== '' && (await hasText(r, config))) emptiedRaw.add(d.raw_path);
      else skippedRaw.add(d.raw_path);
    }
  }
  for (const r of raw) if (r.hash === '') skippedRaw.add(r.path);
  const input: LintInput = {
    paths,
    config,
    entries: scan.entries,
    foreign: scan.foreign,
    files: scan.files,
    raw,
    skippedRaw,
    emptiedRaw,
    offers: readOffers(opts.offers ?? offersDir(paths.state)),
    store: opts.store,
    embedder: opts.embedder,
    model: opts.model,
    network: Boolean(opts.network),
    signal: opts.signal,
  };
  if (opts.fetch) input.fetch = opts.fetch;
  return input;
}

/** Whether ingest finds a document in a raw file the store recorded as empty. */
async function hasText(r: RawState, config: KbConfig): Promise<boolean> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(r.absPath);
  } catch {
    return false;
  }
  if (bytes.length === 0) return false;
  const file = { path: r.path as RawPath, absPath: r.absPath, size: bytes.length, mtimeMs: 0 };
  // The converters (HTML, feeds, Office…) load only for the rare file recorded as empty.
  const { findsDocument } = await import('../ingest/index.js');
  return findsDocument(file, bytes, r.hash as ContentHash, config.ingest);
}
