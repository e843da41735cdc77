import { isDeepStrictEqual } from 'node:util';
import { formatMessage } from '../diagnostics/message.js';
import type { LintReport } from '../lint/lint.js';
import type { Finding } from '../lint/types.js';

/**
 * What heal says about its work is read off the result, not taken from what a fix meant to do:
 * a change is reported only if the file differs from HEAD, a frontmatter change field by field.
 */

/** Fields heal sets on every entry it writes: not worth a line unless they were broken before. */
function bookkeeping(key: string, before: unknown): boolean {
  if (key === 'last_heal_timestamp' || key === 'updated') return true;
  if (key === 'version') return Number.isInteger(before) && (before as number) >= 1;
  if (key === 'content_hash') return typeof before === 'string' && /^[0-9a-f]{64}$/.test(before);
  return false;
}

function show(v: unknown): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  return Array.from(s).length > 60 ? `${Array.from(s).slice(0, 59).join('')}…` : s;
}

/** One line per frontmatter field that changed, e.g. `wiki/concepts/A.md: version 0 → 1`. */
export function frontmatterChanges(
  file: string,
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown>,
): string[] {
  const out: string[] = [];
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after)]);
  for (const k of keys) {
    const a = before?.[k];
    const b = after[k];
    if (isDeepStrictEqual(a, b) || bookkeeping(k, a)) continue;
    if (k === 'content_hash') out.push(`${file}: content_hash ${a === undefined ? 'added' : 'corrected'}`);
    else if (a === undefined) out.push(`${file}: ${k} added: ${show(b)}`);
    else if (b === undefined) out.push(`${file}: ${k} removed (was ${show(a)})`);
    else out.push(`${file}: ${k} ${show(a)} → ${show(b)}`);
  }
  return out;
}

/** The change lines about files that really differ from HEAD (lines about no file are kept), once each. */
export function actualChanges(lines: string[], differs: Set<string>): string[] {
  const out: string[] = [];
  for (const l of lines) {
    const about = /^(wiki|raw)\//.test(l);
    if (about && ![...differs].some((p) => l.startsWith(`${p}: `))) continue;
    if (!out.includes(l)) out.push(l);
  }
  return out;
}

/** What a person can do about a finding heal tried and could not fix: heal itself is no longer the way out. */
const BY_HAND: Record<string, string> = {
  'broken-link': 'point the link at an existing entry, or make it plain text',
  'missing-backlink': 'list in `backlinks` the ids of the entries that link here',
  schema: 'fix the field by hand; schemas/wiki-entry.schema.json says what it must hold',
  'missing-summary': 'write a summary that says more than the title',
  'deleted-source': 'restore the raw file, or delete the entry or its `source_ref` line by hand',
  'stale-entry': 'update the entry by hand to what its source says now',
  contradiction: 'check the sources and correct the entry that is wrong',
  'duplicate-entry': 'merge the two entries by hand, with the other name as an alias',
  'missing-citation': 'add a link to the source the paragraph comes from',
};

export function stillNote(f: Finding): string | undefined {
  if (!f.note?.includes('kb lint --heal')) return f.note;
  return BY_HAND[f.ruleId] ?? f.note.replace(/,? or (?:let |run )?`kb lint --heal`[^,;]*/g, '').trim();
}

/** A finding still there after heal, with advice that does not send the person back to heal. */
export function formatStill(f: Finding): string {
  const note = stillNote(f);
  const { note: _drop, ...rest } = f;
  return formatMessage(note ? { ...rest, note } : rest);
}

const key = (f: Finding) => `${f.ruleId}|${f.file}|${f.reason}`;

/** Why a branch's re-lint is not clean, naming the findings that make it so. */
export function uncleanReason(remaining: Finding[], before: LintReport, after: LintReport): string | undefined {
  const list = (fs: Finding[]) =>
    fs
      .slice(0, 3)
      .map((f) => `${f.file} [${f.ruleId}]`)
      .join(', ') + (fs.length > 3 ? ` and ${fs.length - 3} more` : '');
  if (remaining.length)
    return `its re-lint still reports ${remaining.length} finding${remaining.length === 1 ? '' : 's'} it was meant to fix (${list(remaining)})`;
  if (after.counts.error <= before.counts.error) return undefined;
  const had = new Set(before.findings.map(key));
  const added = after.findings.filter((f) => f.severity === 'error' && !had.has(key(f)));
  const n = after.counts.error - before.counts.error;
  return `the fix brings ${n} new error${n === 1 ? '' : 's'} on the branch${added.length ? `: ${list(added)}` : ''}`;
}
