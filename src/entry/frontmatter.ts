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

/** gray-matter's split with the YAML left unparsed (for a file whose frontmatter is known already). */
const unparsed = { yaml: { parse: () => ({}), stringify: () => '' } };

/** The body of an entry file, split exactly as parseEntryFile splits it, without parsing the YAML. */
export function entryBody(text: string): string {
  return matter(text, { engines: unparsed }).content.replace(/^\n+/, '');
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
  return `${body
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/^\n+/, '')
    .trimEnd()}\n`;
}

/** The hash kb records in `content_hash`: a mismatch later means a person edited the body. */
export function bodyHash(body: string): string {
  return sha256(normalizeBody(body));
}

/**
 * The file text with one frontmatter key set and everything else as it was: the body byte for
 * byte, other keys with a person's layout. Undefined when the frontmatter cannot be edited so.
 */
export function setFrontmatterKey(text: string, key: string, value: unknown): string | undefined {
  const m = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  if (!m) return undefined;
  const lines = m[1]!.split('\n');
  const dumped = yaml
    .dump({ [key]: value }, { schema: yaml.JSON_SCHEMA, lineWidth: -1, noRefs: true })
    .trimEnd()
    .split('\n');
  const i = lines.findIndex((l) => l.startsWith(`${key}:`));
  let next: string[];
  if (i < 0) next = [...lines, ...dumped];
  else {
    let j = i + 1;
    while (j < lines.length && /^([ \t]|-(\s|$))/.test(lines[j]!)) j++;
    next = [...lines.slice(0, i), ...dumped, ...lines.slice(j)];
  }
  const out = `---\n${next.join('\n')}\n---\n${text.slice(m[0].length)}`;
  try {
    const before = parseEntryFile(text);
    const after = parseEntryFile(out);
    if (after.body !== before.body || JSON.stringify(after.data) !== JSON.stringify({ ...before.data, [key]: value }))
      return undefined;
  } catch {
    return undefined;
  }
  return out;
}
