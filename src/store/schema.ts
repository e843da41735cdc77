/** Bump when the tables change shape: the store is derived, so an old one is rebuilt. */
export const STORE_VERSION = '9';
/** Older layouts a store is brought forward from in place (migrate-entities.ts) instead of rebuilt. */
export const MIGRATES_FROM: ReadonlySet<string> = new Set(['8']);

export const TABLES = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

-- One row per raw file kb has seen, or per post of a file that holds several (raw_path 'file#anchor').
CREATE TABLE IF NOT EXISTS documents (
  raw_path TEXT PRIMARY KEY,
  file TEXT NOT NULL DEFAULT '',     -- the raw file a row belongs to (= raw_path unless a post)
  hash TEXT NOT NULL,
  type TEXT NOT NULL,
  title TEXT NOT NULL,
  entry_id TEXT,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL DEFAULT 0,  -- with size: unchanged files are not read again
  lang TEXT NOT NULL DEFAULT 'en',
  status TEXT NOT NULL,            -- 'ok' | 'failed' | 'skipped'
  error TEXT,
  compiled_at INTEGER NOT NULL,
  compiler TEXT NOT NULL DEFAULT '',
  work TEXT NOT NULL DEFAULT '',     -- the work's identity (title + normalised text): copies of one work share an entry
  marks TEXT NOT NULL DEFAULT '',    -- what a translation keeps as written (text/marks.ts), space-separated
  headings TEXT NOT NULL DEFAULT '', -- its section headings with their depths (text/outline.ts)
  paragraphs TEXT NOT NULL DEFAULT '' -- how many paragraphs each section of that outline holds, space-separated
);
CREATE INDEX IF NOT EXISTS documents_file ON documents(file);
-- The languages compiled, read by every question (Store.languages) without reading the wide rows.
CREATE INDEX IF NOT EXISTS documents_lang ON documents(status, lang);

-- The entities the compiler found in each document (feeds concept entries): its rows as one JSON
-- array of [key, surface, aliases, count, snippets, salient, sections] (Store.allEntities: planning
-- reads every row of every document, and at 10,000 documents these 10,000 arrays read in a third of
-- the time of 400,000 rows and are written in a fifth of it), and where its names stand among its
-- paragraphs, a JSON array of [key, places] pairs by key ('' for none), read for the versions of a work only.
-- salient: 1 paired, emphasised or in a heading; 2 the work's subject, named by its title; +4 named
-- by a model; +8 an everyday word, a mention only. sections: the sections of the document's outline
-- that name it (text/outline.ts), space-separated; places: the paragraphs of those sections
-- (section.paragraph), space-separated.
CREATE TABLE IF NOT EXISTS doc_entity_rows (
  raw_path TEXT PRIMARY KEY,
  rows TEXT,
  places TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
-- The rows that give a name other names, which every question reads (Store.nameGroups): a few in a
-- hundred, in the order they were written.
CREATE TABLE IF NOT EXISTS doc_aliases (
  raw_path TEXT NOT NULL,
  surface TEXT NOT NULL,
  aliases TEXT NOT NULL             -- JSON array
);
CREATE INDEX IF NOT EXISTS doc_aliases_path ON doc_aliases(raw_path);

-- One row per wiki entry (mirror of the frontmatter, for search and status).
CREATE TABLE IF NOT EXISTS entries (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  title TEXT NOT NULL,
  path TEXT NOT NULL,
  aliases TEXT NOT NULL,
  summary TEXT NOT NULL,
  source_ref TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  human_edited INTEGER NOT NULL DEFAULT 0,
  updated INTEGER NOT NULL
);
-- The entries with aliases, read by every question across languages (Store.nameGroups) from the index alone.
CREATE INDEX IF NOT EXISTS entries_aliased ON entries(title, aliases) WHERE aliases != '[]';

CREATE TABLE IF NOT EXISTS links (
  src TEXT NOT NULL,
  dst TEXT NOT NULL,
  PRIMARY KEY (src, dst)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS links_dst ON links(dst);

CREATE TABLE IF NOT EXISTS chunks (
  id INTEGER PRIMARY KEY,
  entry_id TEXT NOT NULL,
  raw_path TEXT,
  ord INTEGER NOT NULL,
  heading TEXT NOT NULL,
  text TEXT NOT NULL,
  tokens INTEGER NOT NULL,
  line INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_entry ON chunks(entry_id);
CREATE INDEX IF NOT EXISTS chunks_raw ON chunks(raw_path);

CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(body, tokenize = 'porter unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS entries_fts USING fts5(title, body, tokenize = 'porter unicode61 remove_diacritics 2');
-- How many chunks hold each indexed term (for term weights at query time).
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_vocab USING fts5vocab(chunks_fts, row);

-- Parsed frontmatter of wiki entry files, by size and mtime: unchanged files are not parsed again.
CREATE TABLE IF NOT EXISTS wiki_files (
  path TEXT PRIMARY KEY,
  mtime_ms REAL NOT NULL,
  size INTEGER NOT NULL,
  fm TEXT NOT NULL,
  body_hash TEXT NOT NULL,
  text_hash TEXT NOT NULL DEFAULT '',  -- sha256 of the whole file: a file written too recently to trust its mtime is checked by content
  links TEXT NOT NULL DEFAULT '',      -- JSON list of the body's [[link]] targets, in order; '' when not known
  own_links TEXT NOT NULL DEFAULT ''   -- the same outside the Backlinks section; '=' when it is links itself, '' not known
);

-- What each concept page was last rendered from (a hash of its inputs) and a hash of what that
-- render wrote: a page whose inputs and file are both unchanged is not rendered again (emit/render-keys.ts).
CREATE TABLE IF NOT EXISTS render_keys (
  id TEXT PRIMARY KEY,
  input TEXT NOT NULL,
  output TEXT NOT NULL
) WITHOUT ROWID;

-- The body kb last wrote into each entry (deflated): the base of a three-way merge when a person
-- edited the entry and kb has new text for it (emit/merge-edits.ts).
CREATE TABLE IF NOT EXISTS entry_bases (
  id TEXT PRIMARY KEY,
  body BLOB NOT NULL
) WITHOUT ROWID;

-- The source draft of each document stored by a run that has not yet written the wiki (deflated
-- JSON): a run stopped before its end leaves them, and the next run writes those entries from
-- here instead of reading and drafting each document again. Emptied when a run ends.
CREATE TABLE IF NOT EXISTS pending_drafts (
  raw_path TEXT PRIMARY KEY,
  draft BLOB NOT NULL
) WITHOUT ROWID;

-- Summary vectors of the source entries a run will write (key: sha256 of the embedder's
-- fingerprint and the text), made while ingest waits for its thread and read when the entries are
-- indexed; a resumed run finds those of the documents stored before it stopped. Emptied when a run ends.
CREATE TABLE IF NOT EXISTS pending_vectors (
  key TEXT PRIMARY KEY,
  vector BLOB NOT NULL
) WITHOUT ROWID;

-- Usage of the model, summed by kb status.
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY,
  command TEXT NOT NULL,
  started INTEGER NOT NULL,
  finished INTEGER,
  summary TEXT NOT NULL DEFAULT '{}'
);
`;

export function vecTables(dims: number): string {
  return `
CREATE VIRTUAL TABLE IF NOT EXISTS vec_chunks USING vec0(embedding float[${dims}] distance_metric=cosine);
CREATE VIRTUAL TABLE IF NOT EXISTS vec_entries USING vec0(embedding float[${dims}] distance_metric=cosine);
`;
}
