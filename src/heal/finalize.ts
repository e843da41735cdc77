import { isoStamp } from '../entry/dates.js';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { bodyHash, parseEntryFile, stringifyEntryKeepingBody } from '../entry/frontmatter.js';
import { entryValidator, schemaErrors } from '../entry/validate.js';
import type { EntryFrontmatter } from '../types.js';
import { writeFileAtomic } from '../util/atomic.js';
import type { FixLog } from './fixes/structural.js';
import type { Git } from './git.js';

const ENTRY = /^wiki\/(sources|concepts|answers)\/.+\.md$/;

/** Wiki/raw paths (relative to the knowledge base root) that differ from HEAD in a worktree. */
export async function changedPaths(git: Git): Promise<{ changed: string[]; added: string[]; deleted: string[] }> {
  // -z: paths as they are (not C-quoted), so entries with Chinese names are found too.
  const diff = (
    await git.run(['diff', '--name-status', '-z', '--relative', '--no-renames', 'HEAD', '--', 'wiki', 'raw'])
  ).split('\0');
  const changed: string[] = [];
  const deleted: string[] = [];
  for (let i = 0; i + 1 < diff.length; i += 2) {
    const status = diff[i]!;
    const path = diff[i + 1]!;
    if (!path) continue;
    if (status === 'D') deleted.push(path);
    else changed.push(path);
  }
  const added = (await git.run(['ls-files', '-z', '--others', '--exclude-standard', '--', 'wiki', 'raw']))
    .split('\0')
    .filter(Boolean);
  return { changed, added, deleted };
}

const HASH = /^[0-9a-f]{64}$/;
/** `content_hash` of an entry whose body is a person's and of which kb knows no text of its own. */
const NO_KB_TEXT = '0'.repeat(64);

/**
 * The hash of the body as kb last wrote it: the frontmatter's, or, where a person removed or
 * broke it, the one the store recorded at the last compile.
 */
function kbWroteHash(fm: EntryFrontmatter, kbHash?: (id: string) => string | undefined): string | undefined {
  if (typeof fm.content_hash === 'string' && HASH.test(fm.content_hash)) return fm.content_hash;
  const stored = typeof fm.id === 'string' ? kbHash?.(fm.id) : undefined;
  return stored && HASH.test(stored) ? stored : undefined;
}

/**
 * Every entry heal changed: `version` one up from HEAD's, `last_heal_timestamp` now, and
 * `content_hash` the hash of the body as written, so that compile keeps updating it — except
 * for an entry a person had edited, which stays theirs (its hash stays the one kb last wrote)
 * unless the fix rewrote its content (`adopt`). An entry that does not validate is put back as
 * it was and reported.
 */
export async function finalizeEntries(
  git: Git,
  root: string,
  now: number,
  adopt: Set<string>,
  log: FixLog,
  kbHash?: (id: string) => string | undefined,
): Promise<string[]> {
  const { changed, added } = await changedPaths(git);
  const validate = entryValidator(root);
  const touched: string[] = [];
  for (const path of [...changed, ...added]) {
    if (!ENTRY.test(path)) continue;
    const abs = join(root, path);
    if (!existsSync(abs)) continue;
    const { data, body } = parseEntryFile(readFileSync(abs, 'utf8'));
    const fm = data as EntryFrontmatter;
    const headText = await git.try(['show', `HEAD:./${path}`]);
    let head: { fm: EntryFrontmatter; body: string } | undefined;
    if (headText.code === 0) {
      try {
        const p = parseEntryFile(headText.stdout);
        head = { fm: p.data as EntryFrontmatter, body: p.body };
      } catch {
        head = undefined;
      }
    }
    if (head && Number.isInteger(head.fm.version)) fm.version = Math.max(Number(fm.version) || 1, head.fm.version + 1);
    fm.last_heal_timestamp = isoStamp(new Date(now * 1000));
    const headHash = head ? kbWroteHash(head.fm, kbHash) : undefined;
    const headEdited = head !== undefined && headHash !== bodyHash(head.body);
    fm.content_hash = headEdited && !adopt.has(path) ? (headHash ?? NO_KB_TEXT) : bodyHash(body);
    const errors = schemaErrors(validate, fm);
    if (errors.length) {
      log.cannot.push({
        file: path,
        why: `the fixed entry would not match the schema (${errors.join('; ')}); left as it was`,
      });
      if (head) await git.run(['checkout', 'HEAD', '--', path]);
      else rmSync(abs);
      continue;
    }
    writeFileAtomic(abs, stringifyEntryKeepingBody(fm, body));
    touched.push(path);
  }
  return touched;
}
