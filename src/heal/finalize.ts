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
  const diff = await git.run(['diff', '--name-status', '--relative', '--no-renames', 'HEAD', '--', 'wiki', 'raw']);
  const changed: string[] = [];
  const deleted: string[] = [];
  for (const line of diff.split('\n').filter(Boolean)) {
    const [status, path] = line.split('\t');
    if (!path) continue;
    if (status === 'D') deleted.push(path);
    else changed.push(path);
  }
  const added = (await git.run(['ls-files', '--others', '--exclude-standard', '--', 'wiki', 'raw'])).split('\n').filter(Boolean);
  return { changed, added, deleted };
}

/**
 * Every entry heal changed: `version` one up from HEAD's, `last_heal_timestamp` now, and
 * `content_hash` kept as HEAD had it for an entry a person edited (it stays theirs) unless the
 * fix rewrote its content. An entry that does not validate is put back as it was and reported.
 */
export async function finalizeEntries(git: Git, root: string, now: number, adopt: Set<string>, log: FixLog): Promise<string[]> {
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
    fm.last_heal_timestamp = now;
    const headEdited = head !== undefined && bodyHash(head.body) !== head.fm.content_hash;
    fm.content_hash = headEdited && !adopt.has(path) && head ? head.fm.content_hash : bodyHash(body);
    const errors = schemaErrors(validate, fm);
    if (errors.length) {
      log.cannot.push({ file: path, why: `the fixed entry would not match the schema (${errors.join('; ')}); left as it was` });
      if (head) await git.run(['checkout', 'HEAD', '--', path]);
      else rmSync(abs);
      continue;
    }
    writeFileAtomic(abs, stringifyEntryKeepingBody(fm, body));
    touched.push(path);
  }
  return touched;
}
