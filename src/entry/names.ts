import type { EntryId, EntryKind } from '../types.js';
import { shortHash } from '../util/hash.js';
import { foldText } from '../text/fold.js';
import { isCommonEnglishWord } from '../text/english-words.js';

const MAX_FILE_NAME = 120;
/**
 * File systems bound a name to 255 bytes, not characters: 120 Chinese characters are 360 bytes.
 * 180 leaves room for ` (answer 12)`, `.md` and the temp name of an atomic write.
 */
const MAX_FILE_BYTES = 180;

/**
 * Control characters (C0, DEL, C1) and invisible format characters: bidi overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069) that make a name read backwards, zero-width spaces and joiners,
 * direction marks, the BOM, soft hyphens; and lone surrogates, which no file system can store.
 */
const INVISIBLE = /[\p{Cf}\p{Cs}]/gu;
const CONTROL = /\p{Cc}/gu;

/** A title with control characters made spaces, invisible characters removed, on one line. */
export function cleanTitle(title: string): string {
  return title.normalize('NFC').replace(CONTROL, ' ').replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
}

/**
 * A title made into a file name that is safe on every OS and in Obsidian links:
 * no `/ \ : * ? " < > |`, none of Obsidian's link syntax `# ^ [ ] |`, no control or invisible
 * characters, no leading dot or trailing dot/space, not a Windows device name, bounded length.
 */
export function safeFileName(title: string): string {
  let name = cleanTitle(title)
    .replace(/[/\\:*?"<>|#^[\]]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  if (/^(con|prn|aux|nul|com\d|lpt\d)$/i.test(name)) name = `${name}_`;
  if (name.length > MAX_FILE_NAME || Buffer.byteLength(name) > MAX_FILE_BYTES) {
    // Cut whole characters; room is left for the ` 1a2b3c4d` hash that keeps cut names apart.
    let cut = '';
    let bytes = 0;
    for (const ch of name) {
      const b = Buffer.byteLength(ch);
      if (cut.length + ch.length > MAX_FILE_NAME - 9 || bytes + b > MAX_FILE_BYTES - 9) break;
      cut += ch;
      bytes += b;
    }
    name = `${cut.trim()} ${shortHash(title, 8)}`;
  }
  return name || `untitled ${shortHash(title, 8)}`;
}

/** Key under which Obsidian matches a link target to a file name: case-insensitive, NFC. */
export function linkKey(name: string): string {
  return name.normalize('NFC').toLowerCase().trim();
}

/** Normalised form of a title used for ids and for matching names to entries. */
export function normalizeTitle(title: string): string {
  return title.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

export function slug(title: string): string {
  const s = normalizeTitle(title)
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  const chars = Array.from(s);
  if (chars.length === 0) return shortHash(title, 10);
  if (chars.length > 80) return `${chars.slice(0, 70).join('').replace(/-+$/, '')}-${shortHash(title, 8)}`;
  return s;
}

/** A new id from kind + normalised title, unique against `taken`. Given once, then kept forever. */
export function makeEntryId(kind: EntryKind, title: string, taken: (id: string) => boolean): EntryId {
  const base = `${kind}/${slug(title)}`;
  let id = base;
  for (let n = 2; taken(id); n++) id = `${base}-${n}`;
  return id as EntryId;
}

/** A name's last word with a capital after its first letter (HTTPS, macOS, GitOps). */
const CAPITALS_INSIDE = /\p{L}\p{Lu}[\p{L}\p{N}]*\s*$/u;

/** An abbreviation in capitals with a plural s, ending a name (APIs, the RFCs): not CSS, iOS or SaaS. */
const ABBREVIATION_PLURAL = /(?<![\p{L}\p{N}])(\p{Lu}{2,}\d*)s$/u;

/**
 * Key under which names of one concept meet: NFKC, lower case, dashes and underscores as spaces,
 * the last English word singular ("Vector Databases" and "vector database" are one concept).
 */
export function entityKey(name: string): string {
  // Traditional and Simplified spellings meet (所有權 / 所有权); an abbreviation's plural its
  // singular (APIs, URLs, PRs: API, URL, PR).
  const k = foldText(name.normalize('NFKC').replace(ABBREVIATION_PLURAL, '$1'))
    .toLowerCase()
    .replace(/[\s_‐-―-]+/g, ' ')
    .replace(/[’']/g, "'")
    .trim();
  // Plural → singular for the last English word ("vector databases" → "vector database"), not for
  // a word written with capitals inside it (HTTPS, macOS): its s is no plural's.
  // The lookbehind starts a try only at a word's first letter: linear on a word of any length.
  if (CAPITALS_INSIDE.test(name)) return k;
  return k.replace(/(?<![a-z])[a-z]{5,}$/, singular);
}

/**
 * An English plural's singular, checked against the dictionary where the ending is ambiguous:
 * branches → branch but caches → cache, policies → policy, and a word that ends in s of itself
 * stays (status, analysis, lens). A word no dictionary knows loses its s (embeddings → embedding).
 */
function singular(word: string): string {
  if (!word.endsWith('s') || word.endsWith('ss')) return word;
  const tries =
    word.endsWith('ies') && word.length > 4
      ? [`${word.slice(0, -3)}y`, word.slice(0, -1)]
      : /(?:ch|sh|x|z|ss)es$/.test(word)
        ? [word.slice(0, -2), word.slice(0, -1)]
        : [word.slice(0, -1)];
  for (const t of tries) if (isCommonEnglishWord(t)) return t;
  if (isCommonEnglishWord(word) || /(?:us|is)$/.test(word)) return word;
  return tries[0]!;
}

/** The name a wiki file is linked by: its base name without `.md` (`concepts/RAG.md` → `RAG`). */
export function fileBaseName(path: string): string {
  return path.replace(/\.md$/, '').split('/').pop() ?? path;
}

export const KIND_FOLDER: Record<EntryKind, string> = {
  source: 'sources',
  concept: 'concepts',
  answer: 'answers',
};
