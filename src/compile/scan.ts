import { readFileSync } from 'node:fs';
import { InterruptedError } from '../diagnostics/errors.js';
import type { RawFile } from '../ingest/types.js';
import type { ContentHash } from '../types.js';
import type { KbMessage } from '../diagnostics/message.js';
import type { DocumentRow } from '../store/store.js';
import type { CompileReport, EntryWriter } from './types.js';

/** A raw file that goes to the compile, with what is known of its content. */
export interface Scanned {
  file: RawFile;
  hash: ContentHash;
  /**
   * The bytes, when already read. Absent means "not read here": read the file before use (see
   * `contentOf`), never "empty". A file larger than `ingest.maxFileBytes` is never read.
   */
  bytes?: Buffer | undefined;
  tooLarge?: boolean;
  /**
   * Compiled again with the same bytes and the same ingest (another compiler, a model's retry):
   * the chunks and vectors the store holds are kept, not made again.
   */
  keepChunks?: boolean;
}

/** The bytes of a scanned file: the ones read during the scan, else read now. */
export function contentOf(s: Scanned): Buffer {
  if (s.tooLarge) return Buffer.alloc(0);
  return s.bytes ?? readFileSync(s.file.absPath);
}

export function checkAbort(signal?: AbortSignal): void {
  if (signal?.aborted)
    throw new InterruptedError('Compile interrupted; run `kb compile` again to finish (work done so far is kept).');
}

/**
 * Let a signal that came during a long stage be heard, then stop if it asked to. Its handler runs
 * only when the event loop turns, and the stages after ingest (planning, drafting, rendering) run
 * for tens of seconds at 10,000 documents without turning it: a Ctrl-C there went unheard, and the
 * run ended as if none had come.
 */
export async function heedSignals(signal?: AbortSignal): Promise<void> {
  if (!signal) return;
  // Two turns: the first may end the turn this code runs in; the second comes after the loop
  // has polled, where a signal's handler is run.
  for (let i = 0; i < 2; i++) await new Promise<void>((r) => setImmediate(r));
  checkAbort(signal);
}

/** What the scan of raw/ found, handed to the part of compile that works on the changes. */
export interface ScanState {
  t0: number;
  writer: EntryWriter;
  messages: KbMessage[];
  report: CompileReport;
  /** What each raw file was compiled from, by file (fileRow of its rows). */
  known: Map<string, DocumentRow>;
  /** The store's rows of each raw file: one, or one per post. */
  rows: Map<string, DocumentRow[]>;
  changed: Scanned[];
  deletedPaths: string[];
  /** Every file in raw/ by key: the key is NFC, the file on disk may be spelled otherwise. */
  rawFiles: Map<string, RawFile>;
  /**
   * Files an interrupted run had stored already (pending, same bytes, same compiler): not ingested
   * again; their entries are written from what the store holds.
   */
  resumed?: Set<string>;
}
