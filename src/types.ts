// Domain types shared by every pipeline stage.
// Branded strings keep things that are easy to mix up apart at compile time.

declare const brand: unique symbol;
export type Brand<T, B extends string> = T & { readonly [brand]: B };

/** Stable entry id, e.g. `concept/vector-database`. Never changes once given. */
export type EntryId = Brand<string, 'EntryId'>;
/** Path of a raw document relative to the knowledge base's `raw/` folder, with `/` separators. */
export type RawPath = Brand<string, 'RawPath'>;
/** Path of a wiki file relative to `wiki/`, with `/` separators, e.g. `sources/Vector Databases.md`. */
export type WikiPath = Brand<string, 'WikiPath'>;
/** Lowercase hex sha256. */
export type ContentHash = Brand<string, 'ContentHash'>;

export type EntryKind = 'source' | 'concept' | 'answer';

/**
 * What ingest recognised a raw file as. `document`: PDF, Office files and e-books, read into text;
 * `subtitle`: .srt/.vtt transcripts; `mail`: .eml/.mbox; `feed`: RSS/Atom. Images are attachments
 * (copied into the vault) whose text, if OCR finds any, is part of the document.
 */
export type RawType =
  | 'markdown'
  | 'text'
  | 'html'
  | 'code'
  | 'url'
  | 'attachment'
  | 'document'
  | 'subtitle'
  | 'mail'
  | 'feed';

/** Severity of a diagnostic, as in remark-lint / vfile-message (`fatal: true` = error). */
export type Severity = 'error' | 'warning' | 'info';

/**
 * A raw document after ingest: normalised to Markdown, ready to parse and chunk.
 * One record travels through the stages (like unified's VFile).
 */
export interface RawDocument {
  path: RawPath;
  /** Absolute path on disk. */
  absPath: string;
  type: RawType;
  /** sha256 of the raw bytes. */
  hash: ContentHash;
  size: number;
  /** Title from frontmatter, first heading, <title>, or the file name. */
  title: string;
  /** The document as Markdown (for code: a fenced block; for attachments: a short description). */
  markdown: string;
  /** Frontmatter of a Markdown source (or metadata found in HTML/.url), JSON-safe values only. */
  meta: Record<string, unknown>;
  /** Source URL if the document says where it came from (web clips, .url files, HTML canonical). */
  url?: string;
  /** Programming language of a code file. */
  language?: string;
  /** For attachments: MIME type. */
  mime?: string;
  /** Dominant language of the text. */
  lang: 'en' | 'zh' | 'mixed';
  /** Character encoding of a text file that was not UTF-8, as guessed (shown by `kb compile --verbose`). */
  encoding?: string;
  /**
   * Set when the document is one post of a file that holds several (ingest/posts.ts): `path` is then
   * `file#anchor`, the key of its row in the store and its `source_ref`; `hash` and `size` are the file's.
   */
  post?: { file: RawPath; anchor: string; index: number; of: number; line: number };
}

/** A piece of a document sized for embedding and retrieval. */
export interface Chunk {
  /** 0-based position in the document. */
  ord: number;
  /** Heading path the chunk sits under, e.g. ["Vector Databases", "Indexes"]. */
  headings: string[];
  text: string;
  tokens: number;
  /** 1-based line in the document's Markdown where the chunk starts. */
  line: number;
  /** Its full-text index terms (`searchText`), when computed ahead (on a worker thread). */
  fts?: string;
}

/** Frontmatter of a wiki entry (DESIGN.md, schemas/wiki-entry.schema.json). */
export interface EntryFrontmatter {
  id: EntryId;
  kind: EntryKind;
  title: string;
  aliases: string[];
  summary: string;
  source_ref: string[];
  entities: string[];
  backlinks: string[];
  version: number;
  /** ISO 8601 date-time of the last heal, '' if never (src/entry/dates.ts). */
  last_heal_timestamp: string;
  content_hash: string;
  /** sha256 of each raw file this entry was compiled from, keyed by raw path (stale detection). */
  source_hashes?: Record<string, string>;
  /** Who wrote the body: the offline compiler or a model. */
  compiled_by?: string;
  /** ISO date of the last rewrite by kb. */
  updated?: string;
  /** Obsidian tags: the kind (`kb/source`) and topics. */
  tags?: string[];
  [key: string]: unknown;
}

/** A wiki entry in memory: frontmatter plus Markdown body. */
export interface WikiEntry {
  fm: EntryFrontmatter;
  body: string;
  /** Where the entry lives (relative to wiki/). */
  path: WikiPath;
}
