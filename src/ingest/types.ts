import type { KbMessage } from '../diagnostics/message.js';
import type { RawDocument, RawPath } from '../types.js';

/** A file found under raw/ by `walkRaw`. */
export interface RawFile {
  /** Relative to raw/, `/` separators, NFC. */
  path: RawPath;
  absPath: string;
  size: number;
  mtimeMs: number;
}

export interface WalkResult {
  files: RawFile[];
  messages: KbMessage[];
}

export interface IngestResult {
  doc?: RawDocument;
  messages: KbMessage[];
}

/** What a type converter makes of a file's content; `ingestFile` adds the rest of the RawDocument. */
export interface Converted {
  title: string;
  markdown: string;
  meta: Record<string, unknown>;
  url?: string;
}
