import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { EntryFrontmatter, EntryKind, WikiPath } from '../types.js';
import { bodyHash, parseEntryFile, stringifyEntry } from '../entry/frontmatter.js';
import { KIND_FOLDER } from '../entry/names.js';
import { schemaErrors } from '../entry/validate.js';
import type { ValidateFunction } from 'ajv';
import { writeFileAtomic } from '../util/atomic.js';
import { KbError } from '../diagnostics/errors.js';

/** An entry file as found on disk. */
export interface LoadedEntry {
  path: WikiPath;
  fm: EntryFrontmatter;
  body: string;
  /** The body no longer matches the hash kb recorded: a person edited it. */
  humanEdited: boolean;
  text: string;
}

export interface WikiScan {
  entries: LoadedEntry[];
  /** Markdown files under the entry folders kb cannot read as entries (kept, never touched). */
  foreign: { path: WikiPath; reason: string }[];
  /** Every file in the vault (relative paths), for link resolution. */
  files: string[];
}

const KINDS: EntryKind[] = ['source', 'concept', 'answer'];

function listFiles(dir: string, rel: string, out: string[]): void {
  let items;
  try {
    items = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const it of items) {
    if (it.name.startsWith('.')) continue;
    const r = rel ? `${rel}/${it.name}` : it.name;
    if (it.isDirectory()) listFiles(join(dir, it.name), r, out);
    else if (it.isFile()) out.push(r);
  }
}

/** Read every entry under wiki/sources, wiki/concepts and wiki/answers. */
export function scanWiki(wikiDir: string): WikiScan {
  const files: string[] = [];
  listFiles(wikiDir, '', files);
  const entries: LoadedEntry[] = [];
  const foreign: WikiScan['foreign'] = [];
  const folders = new Set(KINDS.map((k) => KIND_FOLDER[k]));
  for (const f of files) {
    const top = f.split('/')[0] ?? '';
    if (!folders.has(top) || !f.endsWith('.md')) continue;
    const text = readFileSync(join(wikiDir, f), 'utf8');
    try {
      const { data, body } = parseEntryFile(text);
      if (typeof data['id'] !== 'string' || typeof data['kind'] !== 'string') {
        foreign.push({ path: f as WikiPath, reason: 'no kb frontmatter (id, kind)' });
        continue;
      }
      const fm = data as EntryFrontmatter;
      entries.push({ path: f as WikiPath, fm, body, humanEdited: bodyHash(body) !== fm.content_hash, text });
    } catch (err) {
      foreign.push({ path: f as WikiPath, reason: `unreadable frontmatter: ${(err as Error).message.split('\n')[0]}` });
    }
  }
  return { entries, foreign, files };
}

/**
 * Write an entry: frontmatter validated against the schema first (an invalid entry is never
 * written), then the file written whole (temp file + rename). Returns the file text.
 */
export function writeEntry(wikiDir: string, path: string, fm: EntryFrontmatter, body: string, validate: ValidateFunction): string {
  fm.content_hash = bodyHash(body);
  const errors = schemaErrors(validate, fm);
  if (errors.length) throw new KbError(`wiki/${path}: entry does not match schemas/wiki-entry.schema.json: ${errors.join('; ')}`);
  const text = stringifyEntry(fm, body);
  writeFileAtomic(join(wikiDir, path), text);
  return text;
}

export function removeEntryFile(wikiDir: string, path: string): void {
  const abs = join(wikiDir, path);
  if (existsSync(abs)) rmSync(abs);
}
