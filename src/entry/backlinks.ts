import { findSection, replaceSectionVerbatim, setSection } from './markers.js';
import { linkMarkup } from './links.js';
import { fileBaseName } from './names.js';

/**
 * The Backlinks section kb regenerates between `<!-- kb:backlinks -->` markers: how it is
 * rendered, set, and left out when an entry's own text is wanted (its links, its chunks, its hash).
 */

/** An entry that links here, as the section lists it. */
export interface BacklinkItem {
  path: string;
  title: string;
}

/** The section's content (`## Backlinks` and one link per line), or null when nothing links here. */
export function renderBacklinks(items: readonly BacklinkItem[]): string | null {
  if (!items.length) return null;
  return `## Backlinks\n\n${items.map((i) => `- ${linkMarkup(fileBaseName(i.path), i.title)}`).join('\n')}`;
}

/**
 * The body with its Backlinks section listing `items` (removed when there are none, or when the
 * section is turned off: `wiki.backlinksSection` in kb.config.json).
 */
export function setBacklinks(body: string, items: readonly BacklinkItem[], section = true): string {
  return setSection(body, 'backlinks', section ? renderBacklinks(items) : null);
}

/** As `setBacklinks`, for a body a person edited: every byte outside the section stays as it is. */
export function setBacklinksVerbatim(body: string, items: readonly BacklinkItem[], section = true): string {
  return replaceSectionVerbatim(body, 'backlinks', section ? renderBacklinks(items) : null);
}

/** The body without its Backlinks section: the entry's own text (links there do not count). */
export function withoutBacklinks(body: string): string {
  return setSection(body, 'backlinks', null);
}

/** `f` applied to the body outside its Backlinks section; the section itself as it is. */
export function mapOutsideBacklinks(body: string, f: (text: string) => string): string {
  const span = findSection(body, 'backlinks');
  if (!span) return f(body);
  return f(body.slice(0, span.start)) + body.slice(span.start, span.end) + f(body.slice(span.end));
}
