import { constants, copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Attachments from raw/ are copied into wiki/attachments/ so that the vault (wiki/) can embed
 * them (`![[diagram.png]]`): Obsidian shows no file outside its vault, and raw/ stays outside it
 * and is never modified. The copy is byte for byte, so git keeps one blob for both paths, and a
 * copy-on-write clone where the file system has them (APFS, Btrfs, XFS), so the disk keeps one
 * too. A hard link would share the bytes everywhere, but an edit in the vault would change raw/.
 * Copies of attachments that left raw/ are removed.
 */
export function copyAttachments(
  rawDir: string,
  wikiDir: string,
  rawPaths: string[],
  rawAbs: (p: string) => string = (p) => join(rawDir, p),
  changed: ReadonlySet<string> = new Set(),
): void {
  const dir = join(wikiDir, 'attachments');
  const wanted = new Map<string, string>();
  for (const p of rawPaths) {
    const name = p.split('/').pop()!;
    if (!wanted.has(name)) wanted.set(name, p);
  }
  if (wanted.size === 0 && !existsSync(dir)) return;
  mkdirSync(dir, { recursive: true });
  for (const [name, p] of wanted) {
    const src = rawAbs(p);
    const dst = join(dir, name);
    try {
      const s = statSync(src);
      // Size and time say "same copy" only for a file this compile did not see change.
      if (!changed.has(p) && existsSync(dst) && statSync(dst).size === s.size && statSync(dst).mtimeMs >= s.mtimeMs)
        continue;
      copyFileSync(src, dst, constants.COPYFILE_FICLONE);
    } catch {
      // The raw file vanished meanwhile: the next compile removes its entry.
    }
  }
  for (const f of readdirSync(dir)) if (!wanted.has(f) && !f.startsWith('.')) rmSync(join(dir, f), { force: true });
}
