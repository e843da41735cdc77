import type { EntryFrontmatter } from '../types.js';

/** Parsed frontmatter of entry files, keyed by path and stamped with the file's size and mtime. */
export interface ScanRow {
  mtimeMs: number;
  size: number;
  fm: EntryFrontmatter;
  bodyHash: string;
  /** sha256 of the file's text; '' or absent when unknown. */
  textHash?: string | undefined;
  /** The targets of the body's wiki links, in order (`bodyLinkTargets`); absent when unknown. */
  links?: string[] | undefined;
  /** The targets outside the Backlinks section (`ownLinkTargets`): `links` itself when there is none. */
  ownLinks?: string[] | undefined;
}

/**
 * A scan row as the store keeps it: its frontmatter and link lists as JSON. A compile that writes
 * ten thousand entries holds their rows until it records them at its end; as text they take a
 * third of the memory the objects would.
 */
export interface EncodedScanRow {
  mtimeMs: number;
  size: number;
  fm: string;
  bodyHash: string;
  textHash: string;
  /** The body's link targets as JSON ('' when unknown)… */
  links: string;
  /** …and those outside the Backlinks section: '=' when the same, '' when unknown. */
  ownLinks: string;
}

/** The row as the store keeps it (the frontmatter as it is now: a later change to it is not recorded). */
export function encodeScanRow(row: ScanRow): EncodedScanRow {
  const links = row.links ? JSON.stringify(row.links) : '';
  return {
    mtimeMs: row.mtimeMs,
    size: row.size,
    fm: JSON.stringify(row.fm),
    bodyHash: row.bodyHash,
    textHash: row.textHash ?? '',
    links,
    ownLinks: !row.links || !row.ownLinks ? '' : row.ownLinks === row.links ? '=' : JSON.stringify(row.ownLinks),
  };
}
