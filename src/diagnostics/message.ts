import type { Severity } from '../types.js';

/** A point in a file (1-based line and column), as in unist / vfile-message. */
export interface Point {
  line: number;
  column: number;
}

/**
 * A diagnostic about a file, modeled on vfile-message: what is wrong (`reason`), where
 * (`file` + `place`), which rule found it, how bad it is, and how to fix it (`expected`, `note`).
 */
export interface KbMessage {
  reason: string;
  /** Path shown to the person, relative to the knowledge base root (e.g. `raw/notes/a.md`). */
  file: string;
  place?: Point;
  ruleId: string;
  source: 'kb';
  severity: Severity;
  /** What would be right instead. */
  expected?: string;
  /** A longer hint: the way out. */
  note?: string;
  /** Documentation of the rule. */
  url?: string;
}

export function message(
  file: string,
  ruleId: string,
  reason: string,
  opts: { severity?: Severity; place?: Point; expected?: string; note?: string; url?: string } = {},
): KbMessage {
  const m: KbMessage = { reason, file, ruleId, source: 'kb', severity: opts.severity ?? 'warning' };
  if (opts.place) m.place = opts.place;
  if (opts.expected !== undefined) m.expected = opts.expected;
  if (opts.note !== undefined) m.note = opts.note;
  if (opts.url !== undefined) m.url = opts.url;
  return m;
}

/** One line: `raw/a.md:3:1: warning Unexpected empty file, expected text [ingest-empty]`. */
export function formatMessage(m: KbMessage): string {
  const where = m.place ? `${m.file}:${m.place.line}:${m.place.column}` : m.file;
  const note = m.note ? ` — ${m.note}` : '';
  return `${where}: ${m.severity} ${m.reason}${note} [${m.ruleId}]`;
}
