import type { EntryId, EntryKind } from '../types.js';
import { shortHash } from '../util/hash.js';

const MAX_FILE_NAME = 120;

/**
 * A title made into a file name that is safe on every OS and in Obsidian links:
 * no `/ \ : * ? " < > |`, none of Obsidian's link syntax `# ^ [ ] |`, no control characters,
 * no leading dot or trailing dot/space, not a Windows device name, bounded length.
 */
export function safeFileName(title: string): string {
  let name = title
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/[/\\:*?"<>|#^[\]]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  if (/^(con|prn|aux|nul|com\d|lpt\d)$/i.test(name)) name = `${name}_`;
  if (name.length > MAX_FILE_NAME) {
    const cut = Array.from(name).slice(0, MAX_FILE_NAME - 9).join('').trim();
    name = `${cut} ${shortHash(title, 8)}`;
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

export const KIND_FOLDER: Record<EntryKind, string> = {
  source: 'sources',
  concept: 'concepts',
  answer: 'answers',
};
