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

/** Why a file could not be converted: the parts of a diagnostic that do not name the file. */
export interface ConvertProblem {
  ruleId: string;
  reason: string;
  note: string;
  severity?: 'error' | 'warning' | 'info';
}

/**
 * What a converter of a binary or structured format returns: the document, or why not. Plain data
 * (no file names), so that it can be cached by content hash and read back for a renamed file.
 */
export interface ConvertOutcome {
  converted?: Converted;
  problem?: ConvertProblem;
  /** Remarks that do not stop the document (e.g. rows left out of a huge sheet). */
  notes?: ConvertProblem[];
}

export interface IngestOptions {
  maxFileBytes: number;
  /** Limit for PDF, Office files, e-books and images (default: `maxFileBytes`). */
  maxDocumentBytes?: number;
  /** Limit on what a zip-based document may unpack to (zip bombs). */
  maxUnpackedBytes?: number;
  /** Folder where converted documents and OCR text are kept by content hash (`.kb/ingest`). */
  cacheDir?: string;
  /** Progress inside one long document (pages of a PDF). */
  onProgress?: (done: number, total: number) => void;
}
