import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { message, type KbMessage } from '../diagnostics/message.js';
import { bodyHash } from '../entry/frontmatter.js';
import { linkIds } from './keep.js';
import type { LinkContext } from './link-table.js';
import type { Finals } from './types.js';

/** What a three-way merge of a person's edit and kb's new text gave. */
export type Merged = { clean: true; text: string } | { clean: false; conflicts: number } | { unavailable: string };

/**
 * `git merge-file` on three texts: `mine` (the person's), `base` (what kb wrote last) and `theirs`
 * (kb's new text). Lines only kb changed take kb's change; lines the person changed stay theirs
 * byte for byte; where both changed the same lines it is a conflict and nothing is merged.
 */
export function mergeThree(mine: string, base: string, theirs: string, favor?: 'theirs'): Merged {
  const dir = mkdtempSync(join(tmpdir(), 'kb-merge-'));
  try {
    const [a, b, c] = ['mine', 'base', 'theirs'].map((n) => join(dir, n));
    // Every text ends its last line: a file's final newline (the one on disk has it, the one kb
    // rendered may not) is no change to the last line.
    const line = (t: string) => (t.endsWith('\n') ? t : `${t}\n`);
    writeFileSync(a!, line(mine));
    writeFileSync(b!, line(base));
    writeFileSync(c!, line(theirs));
    try {
      const args = ['merge-file', '-p', '--quiet', ...(favor ? [`--${favor}`] : []), a!, b!, c!];
      const text = execFileSync('git', args, {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        maxBuffer: 64 * 1024 * 1024,
      });
      return { clean: true, text: mine.endsWith('\n') ? text : text.replace(/\n$/, '') };
    } catch (err) {
      const e = err as { status?: number | null; code?: string };
      // Exit status: the number of conflicts (1–127); a negative one or no git is no merge at all.
      if (typeof e.status === 'number' && e.status > 0 && e.status < 128) return { clean: false, conflicts: e.status };
      return {
        unavailable: e.code === 'ENOENT' ? 'git is not installed' : `git merge-file failed (${e.status ?? e.code})`,
      };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Entries a person edited that kb rendered again this run: kb's changes since it last wrote the
 * entry (the store keeps that text) merged into the person's text. A clean merge becomes the body
 * the write step writes (`merged`; kb's own new text is kept as `kbBody`, the next merge's base);
 * a conflict leaves the person's text as it is and says so. Without a base (written by an older kb)
 * nothing is merged.
 */
export function mergeEdits(
  finals: Finals,
  bases: { entryBase(id: string): string | undefined },
  links: LinkContext,
): KbMessage[] {
  const out: KbMessage[] = [];
  for (const f of finals.values()) {
    if (!f.humanEdited || !f.rendered || !f.old) continue;
    const base = bases.entryBase(f.id);
    if (base === undefined || base === f.body) continue;
    const r = mergeThree(f.old.body, base, f.body);
    const file = `wiki/${f.old.path}`;
    if ('unavailable' in r) {
      out.push(
        message(file, 'edit-merge', `Unexpected failure to merge kb's update into your edit: ${r.unavailable}`, {
          severity: 'warning',
          note: 'your text is kept as it is',
        }),
      );
      continue;
    }
    if (!r.clean) {
      // kb's side, offered by `kb lint --heal` on a branch: the person's lines everywhere else.
      const kbSide = mergeThree(f.old.body, base, f.body, 'theirs');
      if ('clean' in kbSide && kbSide.clean)
        f.offer = {
          id: f.id,
          path: f.old.path,
          mineHash: bodyHash(f.old.body),
          conflicts: r.conflicts,
          body: kbSide.text,
        };
      out.push(
        message(
          file,
          'edit-conflict',
          `Unexpected conflict between your edit and kb's update in ${r.conflicts} place${r.conflicts === 1 ? '' : 's'}, expected changes to different lines; your text is kept as it is`,
          {
            severity: 'warning',
            note: "`kb lint --heal` offers kb's side on a branch; or resolve the lines you both changed by hand (or delete the entry to take kb's text)",
          },
        ),
      );
      continue;
    }
    if (r.text === f.old.body) continue;
    f.kbBody = f.body;
    f.merged = r.text;
    f.links = new Set(linkIds(r.text, links));
  }
  return out;
}
