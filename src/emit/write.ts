import { isoDay } from '../entry/dates.js';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { EntryFrontmatter } from '../types.js';
import { message, type KbMessage } from '../diagnostics/message.js';
import { DiskFullError } from '../diagnostics/disk-full.js';
import { withoutBacklinks } from '../entry/backlinks.js';
import { bodyHash, normalizeBody, parseEntryFile, setFrontmatterKey } from '../entry/frontmatter.js';
import { schemaErrors, type entryValidator } from '../entry/validate.js';
import {
  bodyLinkTargets,
  ownLinkTargets,
  encodeScanRow,
  letTextGo,
  removeEntryFile,
  writeEntry,
  type EncodedScanRow,
  type LoadedEntry,
  type ScanRow,
} from '../entry/wiki.js';
import { writeFileAtomic } from '../util/atomic.js';
import { sha256 } from '../util/hash.js';
import type { Final, Finals } from './types.js';

type Validate = ReturnType<typeof entryValidator>;

export interface WriteInput {
  wikiDir: string;
  validate: Validate;
  /** Entries that needed rendering but a person edited (left alone, and said so). */
  heldBack: ReadonlySet<string>;
  /** When given, every file written is recorded (the next scan need not parse it again). */
  recordScan: boolean;
  /** The store's rows of removed entries go with their files. */
  store: { deleteEntry(id: string): void };
  /**
   * Stores what the files written so far leave to keep (their scan-cache rows, their merge bases),
   * called every few hundred entries and at the end: at 10,000 entries the rows and bodies held
   * for one store update at the end were ~50 MB of a compile's peak memory.
   */
  keep: (cacheRows: readonly [string, EncodedScanRow][], bases: readonly [string, string][]) => void;
  onFile?: ((line: string) => void) | undefined;
}

/** Entries written between two calls of WriteInput.keep. */
const KEEP_EVERY = 256;

export interface WriteResult {
  /** Entries whose file was written this run. */
  written: Final[];
  /** Entries a person edited that compile left alone (wiki paths). */
  protected: string[];
  messages: KbMessage[];
  concepts: { created: number; updated: number; deleted: number };
  /** Scan-cache rows of the files written, for `ScanCache.put` (handed to WriteInput.keep, then let go). */
  cacheRows: [string, EncodedScanRow][];
  /** The body kb wrote (or, in a merged entry, would have written) into each entry: the base of a later merge (as cacheRows). */
  bases: [string, string][];
  /** Ids of the entries whose base was kept. */
  based: string[];
}

/**
 * Write every entry whose file changes (schema-checked, whole, version + 1 when its content
 * changed), refresh kb's sections in entries a person edited, remove the entries no longer planned.
 */
export function writeFinals(finals: Finals, deleted: readonly LoadedEntry[], input: WriteInput): WriteResult {
  const { wikiDir } = input;
  const out: WriteResult = {
    written: [],
    protected: [],
    messages: [],
    concepts: { created: 0, updated: 0, deleted: 0 },
    cacheRows: [],
    bases: [],
    based: [],
  };
  const keep = () => {
    if (out.cacheRows.length || out.bases.length) input.keep(out.cacheRows, out.bases);
    for (const [id] of out.bases) out.based.push(id);
    out.cacheRows = [];
    out.bases = [];
  };
  const record = (f: Final, hash: string, text?: string) => {
    if (!input.recordScan) return;
    const st = statSync(join(wikiDir, f.path));
    const links = bodyLinkTargets(f.body);
    const row: ScanRow = {
      mtimeMs: st.mtimeMs,
      size: st.size,
      fm: f.fm,
      bodyHash: hash,
      links,
      ownLinks: ownLinkTargets(f.body, links),
    };
    if (text !== undefined) row.textHash = sha256(text);
    // Encoded now: the frontmatter as written (a later change to it is not what the file holds).
    out.cacheRows.push([f.path, encodeScanRow(row)]);
  };
  let n = 0;
  for (const f of finals.values()) {
    writeFinal(f, input, out, record);
    // Compared and written: its old text is read no more (it is read for the comparison).
    if (f.old) letTextGo(f.old);
    letBodyGo(f);
    if (++n % KEEP_EVERY === 0) keep();
  }
  keep();
  for (const e of deleted) {
    if (e.humanEdited) continue;
    removeEntryFile(wikiDir, e.path);
    input.store.deleteEntry(e.fm.id);
    if (e.fm.kind === 'concept') out.concepts.deleted++;
    input.onFile?.(`remove  wiki/${e.path}`);
  }
  for (const e of deleted.filter((d) => d.humanEdited)) {
    out.messages.push(
      message(
        `wiki/${e.path}`,
        'deleted-source',
        'Unexpected entry for sources that are gone, expected it to be removed; kept because a person edited it',
        {
          severity: 'warning',
          note: 'delete it yourself or run `kb lint --heal`',
        },
      ),
    );
  }
  return out;
}

/**
 * A source entry kb wrote is read no more once written (indexing keeps its raw document's passages,
 * and only a person's edits and concept pages are read after writing): its body goes, its hash stays.
 */
function letBodyGo(f: Final): void {
  // A kept entry nothing changed has no body in memory to let go: it reads its file when asked (keep.ts).
  // A concept page's body is read from its file again to be indexed (index-wiki.ts): the pages of
  // an upgrade at 10,000 documents, all drawn again, were ~20 MB of text held through indexing.
  if ((f.kind !== 'source' && f.kind !== 'concept') || f.humanEdited || !(f.rendered || f.touched)) return;
  const written = normalizeBody(f.body);
  // Read back, the file must give the indexer the same text: a body with a line kb's writing trims stays.
  if (f.kind === 'concept' && written.trim() !== f.body.trim()) return;
  f.hash = sha256(written);
  f.body = '';
}

type RecordScan = (f: Final, hash: string, text?: string) => void;

/** Write one entry whose file changes (version + 1 when its content changed); an edited one through writeEdited. */
function writeFinal(f: Final, input: WriteInput, out: WriteResult, record: RecordScan): void {
  const { wikiDir } = input;
  const old = f.old;
  if (f.humanEdited) {
    writeEdited(f, input, out, record);
    return;
  }
  if (!f.rendered && !f.touched && old && old.path === f.path) return;
  const contentChanged = !old || ownText(old.body) !== ownText(f.body) || old.fm.title !== f.fm.title;
  if (f.rendered || contentChanged)
    f.fm.version = contentChanged ? (old?.fm.version ?? 0) + 1 : Math.max(1, old?.fm.version ?? 1);
  if (f.fm.version < 1) f.fm.version = 1;
  if (old && old.path === f.path && sameFile(old, f)) {
    if (f.rendered) out.bases.push([f.id, f.body]);
    return;
  }
  if (contentChanged) f.fm.updated = isoDay();
  let text: string;
  try {
    text = writeEntry(wikiDir, f.path, f.fm, f.body, input.validate);
  } catch (err) {
    // A full disk stops the compile (its pending mark makes the next run write what is missing).
    if (err instanceof DiskFullError) throw err;
    out.messages.push(message(`wiki/${f.path}`, 'schema', (err as Error).message, { severity: 'error' }));
    return;
  }
  if (old && old.path !== f.path) removeEntryFile(wikiDir, old.path);
  record(f, f.fm.content_hash, text);
  out.written.push(f);
  out.bases.push([f.id, f.body]);
  if (f.kind === 'concept' && f.rendered) {
    if (old) out.concepts.updated++;
    else out.concepts.created++;
  }
  input.onFile?.(`write   wiki/${f.path}${old ? ` (v${f.fm.version})` : ' (new)'}`);
}

/**
 * An entry a person edited: kb's changes merged in where merge-edits made a clean merge, else only
 * kb's sections refreshed; held back (and said so) when kb had new text it could not bring in.
 */
function writeEdited(f: Final, input: WriteInput, out: WriteResult, record: RecordScan): void {
  const { wikiDir } = input;
  const old = f.old;
  if (f.merged !== undefined && old && old.path === f.path) {
    // kb's changes merged into a person's edit: their lines as they wrote them, kb's elsewhere.
    if (writeEditedSections(wikiDir, old, f, input.validate)) {
      record(f, bodyHash(f.body));
      out.written.push(f);
      out.bases.push([f.id, f.kbBody ?? f.body]);
      out.messages.push(
        message(
          `wiki/${f.path}`,
          'edit-merged',
          "kb's update merged into your edited entry; your lines are as you wrote them",
          {
            severity: 'info',
            note: 'the entry stays yours: compile merges its later changes the same way',
          },
        ),
      );
      input.onFile?.(`merge   wiki/${f.path} (your edits kept, kb's changes merged)`);
    }
    return;
  }
  if (input.heldBack.has(f.id) || (old && old.path !== f.path)) {
    out.protected.push(`wiki/${old?.path ?? f.path}`);
    out.messages.push(
      message(
        `wiki/${old?.path ?? f.path}`,
        'human-edited',
        'Unexpected edit by a person since kb wrote this entry, expected the text kb wrote; left as it is',
        {
          severity: 'info',
          note: "compile never overwrites a person's edits (it refreshes only its marked sections); `kb lint --heal` proposes an update on a branch",
        },
      ),
    );
  }
  if (f.refreshed && old && writeEditedSections(wikiDir, old, f, input.validate)) {
    record(f, bodyHash(f.body));
    out.written.push(f);
    input.onFile?.(`refresh wiki/${f.path} (backlinks; your text kept)`);
  }
}

/** The file would be written byte for byte as it is (`updated` aside). */
function sameFile(old: LoadedEntry, f: Final): boolean {
  if (bodyHash(old.body) !== bodyHash(f.body)) return false;
  return (
    JSON.stringify(stripVolatile(old.fm)) === JSON.stringify(stripVolatile({ ...f.fm, content_hash: bodyHash(f.body) }))
  );
}

/**
 * Write an edited entry's refreshed sections: the person's body byte for byte but for kb's marked
 * sections, the frontmatter as they left it but for `backlinks`. False when that cannot be done
 * safely (the entry is then left as it is; lint reports what is out of step).
 */
function writeEditedSections(wikiDir: string, old: LoadedEntry, f: Final, validate: Validate): boolean {
  const text = old.text;
  if (!text.endsWith(old.body)) return false;
  const next = setFrontmatterKey(
    text.slice(0, text.length - old.body.length) + f.body,
    'backlinks',
    f.fm.backlinks ?? [],
  );
  if (next === undefined || next === text) return false;
  if (schemaErrors(validate, parseEntryFile(next).data).length) return false;
  writeFileAtomic(join(wikiDir, f.path), next);
  return true;
}

/** The body as the entry's content: without the Backlinks section. */
export function ownText(body: string): string {
  return withoutBacklinks(body).trim();
}

function stripVolatile(fm: EntryFrontmatter): Record<string, unknown> {
  const { updated: _u, ...rest } = fm;
  return rest;
}
