import type { EntryFrontmatter, EntryId, EntryKind } from '../types.js';
import type { LoadedEntry } from '../entry/wiki.js';
import type { EntryOffer } from './offers.js';

/** What a writer (the offline compiler or the model) wrote for an entry, before kb renders it. */
export interface EntryDraft {
  title: string;
  aliases: string[];
  summary: string;
  /**
   * The entry body after the `# Title` line and the summary paragraph: Markdown that may hold
   * `[[links]]` (kb checks them: a link to no entry becomes plain text).
   */
  body: string;
  /** Who wrote it: 'offline' or 'model:<name>'. */
  compiledBy: string;
  /** Tags the raw note gives itself (a source's frontmatter `tags`). */
  tags?: string[];
  /** The date the work gives itself, `YYYY-MM-DD`. */
  date?: string;
}

/** A raw document's source entry, as compile plans it. */
export interface SourcePlan {
  id: EntryId;
  title: string;
  /** The source's key: its raw file's path, or `file#anchor` for one post of a multi-post file. */
  rawPath: string;
  /** The raw file, when it is not rawPath (a post). */
  file?: string;
  rawHash: string;
  /** Every copy of the work (rawPath first), when it was saved in several files: the entry's source_ref. */
  refs?: string[];
  /** `raw/<file>` → hash of every copy's file (the entry's source_hashes). */
  hashes?: Record<string, string>;
  /** The draft, when compile wrote one this run (a changed document). */
  draft: EntryDraft | undefined;
  changed: boolean;
  /** The entries of the work's other versions (its translations): the entry links them. */
  versions?: EntryId[];
  /** The language its text is written in, as a reader names it (English, 中文, 繁體中文): a version's file name tells it from the others by it. */
  language?: string;
}

/** A concept shared by several sources, as compile plans it (with its entry id). */
export interface ConceptPlan {
  /** Canonical key (of the title). */
  key: string;
  /** Every key that names it (title, aliases, translations). */
  keys: string[];
  title: string;
  aliases: string[];
  id: EntryId;
  mentions: { rawPath: string; sourceId: EntryId; count: number; snippets: string[] }[];
}

/** Where every entry's file goes this run, and the title each can be linked by. */
export interface NamePlan {
  /** Entry id → path under wiki/, for every entry this run keeps or writes. */
  pathOf: Map<string, string>;
  /** Entry id → title, for every entry that can be linked to. */
  titleOf: Map<EntryId, string>;
}

/** Which entries this run renders again, and which it must leave to the person who edited them. */
export interface RenderPlan {
  sources: Set<string>;
  concepts: Set<string>;
  /** Entries that need rendering but a person edited: their text is theirs (kb's changes are merged in where kb kept its last text). */
  heldBack: Set<string>;
  /** Raw paths of the documents that changed this run. */
  changedDocs: Set<string>;
  /** Entries whose names a text may hold now and did not before: new entries, and concepts retitled or given new aliases. */
  named: Set<string>;
}

/** An entry in its final state for this run. */
export interface Final {
  id: EntryId;
  kind: EntryKind;
  title: string;
  path: string;
  fm: EntryFrontmatter;
  /** Empty once kb wrote a source or concept entry (emit/write.ts letBodyGo): `hash` is its hash then. */
  body: string;
  /** The hash of the body written, kept where the body was let go. */
  hash?: string;
  /** Ids of the entries its body links to. */
  links: Set<string>;
  humanEdited: boolean;
  /** The body of a kept entry was changed this run (links or backlinks). */
  touched?: boolean;
  /** Content re-rendered this run (version + 1 if the body changed). */
  rendered: boolean;
  /** An entry a person edited whose kb sections (backlinks) this run brings up to date. */
  refreshed?: boolean;
  /** A person's edit with kb's changes merged in (emit/merge-edits.ts): what is written. */
  merged?: string;
  /** kb's own new text of an entry whose merge is written: the base of the next merge. */
  kbBody?: string;
  /** kb's side of a conflict with a person's edit, for heal to offer on a branch. */
  offer?: EntryOffer;
  old: LoadedEntry | undefined;
}

/** Entries by id, in the order they were added. */
export type Finals = Map<string, Final>;
