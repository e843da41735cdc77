/**
 * Dates in entry frontmatter are ISO 8601, which Obsidian shows as dates: `updated` the day of the
 * last rewrite, `last_heal_timestamp` the moment of the last heal ('' if never). Entries written
 * before kept Unix seconds; they are read as dates (migrateDates) and written as dates next time.
 */

/** `2026-03-24`. */
export function isoDay(d: Date = new Date()): string {
  return d.toISOString().slice(0, 10);
}

/** `2026-03-24T08:15:00Z`. */
export function isoStamp(d: Date = new Date()): string {
  return `${d.toISOString().slice(0, 19)}Z`;
}

/** Unix seconds of a frontmatter date (ISO, or the Unix seconds of older entries); 0 if none. */
export function epochSeconds(v: unknown): number {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.max(0, Math.floor(v));
  if (typeof v !== 'string' || !v.trim()) return 0;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/** Frontmatter with Unix-second dates of older entries as ISO dates (the rest as it was). */
export function migrateDates<T extends Record<string, unknown>>(fm: T): T {
  const heal = fm['last_heal_timestamp'];
  const updated = fm['updated'];
  if (typeof heal !== 'number' && typeof updated !== 'number') return fm;
  const out: Record<string, unknown> = { ...fm };
  if (typeof heal === 'number') out['last_heal_timestamp'] = heal > 0 ? isoStamp(new Date(heal * 1000)) : '';
  if (typeof updated === 'number') out['updated'] = isoDay(new Date(updated * 1000));
  return out as T;
}
