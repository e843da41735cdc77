import matter from 'gray-matter';
import yaml from 'js-yaml';
import type { EntryFrontmatter } from '../types.js';
import { sha256 } from '../util/hash.js';

/** YAML with the JSON schema: dates stay strings, nothing executable. */
const engines = {
  yaml: {
    parse: (s: string) => yaml.load(s, { schema: yaml.JSON_SCHEMA }) as object,
    stringify: (o: object) => yaml.dump(o, { schema: yaml.JSON_SCHEMA }),
  },
};

export interface ParsedEntryFile {
  data: Record<string, unknown>;
  body: string;
}

/** Parse an entry file. Throws a YAMLException on malformed frontmatter. */
export function parseEntryFile(text: string): ParsedEntryFile {
  // An options object every time: gray-matter caches results otherwise.
  const file = matter(text, { engines });
  const data = (file.data ?? {}) as Record<string, unknown>;
  return { data, body: file.content.replace(/^\n+/, '') };
}

const KEY_ORDER = [
  'id',
  'kind',
  'title',
  'aliases',
  'summary',
  'source_ref',
  'entities',
  'backlinks',
  'version',
  'last_heal_timestamp',
  'content_hash',
  'source_hashes',
  'compiled_by',
  'updated',
];

/** Frontmatter + body as the file text. Keys in a stable order; kb's own keys first. */
export function stringifyEntry(fm: EntryFrontmatter, body: string): string {
  return `${frontmatterText(fm)}${normalizeBody(body)}`;
}

/**
 * Frontmatter + the body exactly as given, not normalized: for rewriting an entry whose lines
 * may be a person's (trailing spaces are Markdown hard breaks; they stay byte for byte).
 */
export function stringifyEntryKeepingBody(fm: EntryFrontmatter, body: string): string {
  return `${frontmatterText(fm)}${body}`;
}

function frontmatterText(fm: EntryFrontmatter): string {
  const ordered: Record<string, unknown> = {};
  for (const k of KEY_ORDER) if (fm[k] !== undefined) ordered[k] = fm[k];
  for (const [k, v] of Object.entries(fm)) if (!(k in ordered) && v !== undefined) ordered[k] = v;
  const y = yaml.dump(ordered, { schema: yaml.JSON_SCHEMA, lineWidth: -1, noRefs: true, sortKeys: false });
  return `---\n${y}---\n\n`;
}

/** Bodies are compared and hashed in one normal form: LF, no trailing blanks, one final newline. */
export function normalizeBody(body: string): string {
  return `${body.replace(/\r\n?/g, '\n').replace(/[ \t]+$/gm, '').replace(/^\n+/, '').trimEnd()}\n`;
}

/** The hash kb records in `content_hash`: a mismatch later means a person edited the body. */
export function bodyHash(body: string): string {
  return sha256(normalizeBody(body));
}
