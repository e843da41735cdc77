import { linkKey } from './names.js';

/**
 * Links between wiki files, read the way Obsidian reads them. Every reader of `[[links]]` (lint,
 * heal, watch, status, `ask --save`) resolves them here; compile's name table (emit/linker.ts)
 * is the writer's side, which decides what a name links to before the link is written.
 */

/** `[[file]]` when the shown text is the file name, else `[[file|shown]]`. */
export function linkMarkup(file: string, shown: string): string {
  // Brackets and bars would end the link: their full-width forms read the same (`[译] …` → `［译］ …`).
  const safe = shown.replace(/\[/g, '［').replace(/\]/g, '］').replace(/\|/g, '｜');
  return linkKey(file) === linkKey(shown) && file === shown ? `[[${file}]]` : `[[${file}|${safe}]]`;
}

/** What `resolveLink` looks names up in: linkKey(base name) and linkKey(path) → wiki paths. */
export type LinkTable = ReadonlyMap<string, readonly string[]>;

/**
 * Obsidian's link resolution, as one pure function: a link names a file by its base name
 * (case-insensitive) or by a path from the vault root; `.md` may be left out.
 * Returns every wiki path the target names (more than one: ambiguous).
 */
export function resolveLink(target: string, files: LinkTable): string[] {
  const key = linkKey(target.replace(/\.md$/i, ''));
  if (!key) return [];
  return [...(files.get(key) ?? [])];
}

/** Build the table `resolveLink` takes from the wiki's file paths (relative to wiki/). */
export function linkTable(paths: Iterable<string>): Map<string, string[]> {
  const map = new Map<string, string[]>();
  const add = (k: string, p: string) => {
    const list = map.get(k);
    if (list) {
      if (!list.includes(p)) list.push(p);
    } else map.set(k, [p]);
  };
  for (const p of paths) {
    const noExt = p.replace(/\.md$/i, '');
    const base = noExt.split('/').pop() ?? noExt;
    // Attachments keep their extension in links ([[diagram.png]]).
    if (!/\.md$/i.test(p)) {
      add(linkKey(p.split('/').pop() ?? p), p);
      add(linkKey(p), p);
      continue;
    }
    add(linkKey(base), p);
    add(linkKey(noExt), p);
  }
  return map;
}

/** Turns a link target into the entry it names. */
export interface LinkResolver<E> {
  /** The entry a link target names as a file (base name or path), if exactly one. */
  entry(target: string): E | undefined;
  /** Whether the target names any file in the vault (entry, attachment, index…). */
  exists(target: string): boolean;
  /** The entry whose title (or alias, when the resolver was given them) is the target, if exactly one. */
  named(target: string): E | undefined;
}

/**
 * The one link resolver. `pathOf` gives an entry's wiki path; `files` every file of the vault
 * (entries are added to it); `namesOf` the names `named` matches (title, aliases).
 */
export function linkResolver<E>(
  entries: readonly E[],
  pathOf: (e: E) => string,
  opts: { files?: Iterable<string>; namesOf?: (e: E) => readonly string[] } = {},
): LinkResolver<E> {
  const byPath = new Map(entries.map((e) => [pathOf(e), e]));
  const table = linkTable(new Set([...(opts.files ?? []), ...byPath.keys()]));
  let names: Map<string, E[]> | undefined;
  const namesTable = () => {
    if (names) return names;
    names = new Map();
    for (const e of entries) {
      for (const n of new Set((opts.namesOf?.(e) ?? []).map(linkKey))) {
        const list = names.get(n) ?? [];
        list.push(e);
        names.set(n, list);
      }
    }
    return names;
  };
  // A wiki links the same few targets thousands of times: each is resolved once.
  const resolved = new Map<string, string[]>();
  const resolve = (t: string) => {
    let hits = resolved.get(t);
    if (!hits) {
      hits = resolveLink(t, table);
      resolved.set(t, hits);
    }
    return hits;
  };
  return {
    exists: (t) => resolve(t).length > 0,
    entry: (t) => {
      // An entry wins over an attachment of the same name (`x.png.md` / `x.png`), as compile links.
      const hits = resolve(t).filter((h) => byPath.has(h));
      return hits.length === 1 ? byPath.get(hits[0]!) : undefined;
    },
    named: (t) => {
      const hits = namesTable().get(linkKey(t));
      return hits?.length === 1 ? hits[0] : undefined;
    },
  };
}
