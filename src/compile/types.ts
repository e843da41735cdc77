import type { KbMessage } from '../diagnostics/message.js';
import type { RawDocument, EntryId } from '../types.js';
import type { EntryDraft } from '../emit/types.js';

/** What a writer (offline compiler or model) makes of one raw document. */
export interface SourceDraft extends EntryDraft {
  /** Concepts/entities the document mentions, with other names seen for them. */
  entities: {
    name: string;
    aliases: string[];
    count?: number;
    snippets?: string[];
    salient?: boolean;
    /** Named by the work's title and again and again in its text. */
    subject?: boolean;
    /** A model named it as what the work is about. */
    named?: boolean;
    /** An everyday word the text keeps using: a mention of a concept, never one of its own. */
    weak?: boolean;
    /** The sections of the text's outline that name it (text/outline.ts). */
    sections?: number[];
    /** The paragraphs of those sections that name it (`section.paragraph`). */
    places?: string[];
  }[];
}

/** Everything the sources say about one concept, gathered across documents. */
export interface ConceptGroup {
  key: string;
  title: string;
  aliases: string[];
  /** The source entries that mention it, with what each says (sentences). */
  mentions: { sourceId: EntryId; sourceTitle: string; rawPath: string; count: number; snippets: string[] }[];
  /** The entry a model wrote for it last time, to be updated rather than written again. */
  current?: CurrentEntry;
}

/**
 * An entry as a model wrote it last time (its text without the parts kb adds: the title heading,
 * the concepts list, the file details) and the raw files it cited: a writer updates it instead of
 * starting again, so the wording a person already read survives.
 */
export interface CurrentEntry {
  text: string;
  /** Raw paths (`raw/…`) the entry cited. */
  sources: string[];
  /**
   * The entry of an unchanged source rendered again (its links shift): the request that writes it
   * from the source is sent instead when it is cached (its reply is this entry).
   */
  unlessCached?: boolean;
}

/** What a writer makes of a concept. */
export type ConceptDraft = EntryDraft;

/** Names the writer may link to: every entry's title and aliases. */
export interface Catalog {
  entries: {
    id: EntryId;
    title: string;
    aliases: string[];
    kind: string;
    summary: string;
    /**
     * The raw paths (without `raw/`) the entry is written from: a source's own file, a concept's
     * sources. When the catalog is too long to send whole, they say which entries a call is about.
     */
    refs?: string[];
  }[];
}

/**
 * Writes entries. The offline compiler is one; the model compiler (issue 3) another that falls
 * back to the offline one per document. Writers return drafts; kb assembles, checks and writes.
 */
export interface EntryWriter {
  readonly name: string;
  writeSource(
    doc: RawDocument,
    catalog: Catalog,
    signal?: AbortSignal,
    current?: CurrentEntry,
  ): Promise<{ draft: SourceDraft; messages: KbMessage[] }>;
  writeConcept(
    group: ConceptGroup,
    catalog: Catalog,
    signal?: AbortSignal,
  ): Promise<{ draft: ConceptDraft; messages: KbMessage[] }>;
}

export interface CompileReport {
  new: number;
  updated: number;
  unchanged: number;
  deleted: number;
  renamed: number;
  skipped: number;
  failed: number;
  concepts: { created: number; updated: number; deleted: number };
  /** Entries a person edited that compile left alone (wiki paths). */
  protected: string[];
  written: number;
  messages: KbMessage[];
  elapsedMs: number;
  compiler: string;
}

export interface ProgressEvent {
  /** `pages`: inside one long document (a PDF), while compile waits for it. */
  phase: 'scan' | 'ingest' | 'pages' | 'write' | 'index';
  done: number;
  total: number;
  file?: string;
}

export interface CompileOptions {
  force?: boolean;
  writer?: EntryWriter;
  signal?: AbortSignal;
  onProgress?: (e: ProgressEvent) => void;
  /** Per-file lines for --verbose. */
  onFile?: (line: string) => void;
  /** The catalog source calls get (model/planned.ts); the wiki's entries when absent. */
  catalog?: Catalog;
}

/** What opens an entity's snippet that is a heading naming it, not a sentence (a name no sentence names). */
export const HEADING_SNIPPET = '§ ';

/** A heading as an entity's snippet (HEADING_SNIPPET). */
export function headingSnippet(heading: string): string {
  return `${HEADING_SNIPPET}${heading}`;
}

/** The heading a snippet holds, or undefined for a sentence. */
export function snippetHeading(snippet: string): string | undefined {
  return snippet.startsWith(HEADING_SNIPPET) ? snippet.slice(HEADING_SNIPPET.length).trim() : undefined;
}
