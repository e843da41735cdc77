import type { EntryId } from '../types.js';
import type { WikiScan } from '../entry/wiki.js';
import { fileBaseName, linkKey } from '../entry/names.js';
import { buildNameTable, type LinkName, type NameTable } from './linker.js';
import type { ConceptPlan, NamePlan } from './types.js';

/** The names compile links by this run, and the attachments an embed may name. */
export interface LinkContext {
  table: NameTable;
  /** The entry a `[[link]]` target names: a title, file name, alias or a moved entry's old file name. */
  lookup: (target: string) => LinkName | undefined;
  /** linkKey of every attachment's file name (`![[diagram.png]]` stays as it is). */
  attachments: ReadonlySet<string>;
}

export interface LinkTableInput {
  concepts: readonly ConceptPlan[];
  scan: WikiScan;
  /** Raw paths of the attachments. */
  attachments: readonly string[];
}

/** Names that link: titles, file names and concept aliases, as this run names the files. */
export function buildLinkTable(input: LinkTableInput, names: NamePlan): LinkContext {
  const { scan } = input;
  const { pathOf } = names;
  const fileOf = (id: string) => fileBaseName(pathOf.get(id)!);
  const list: LinkName[] = [];
  for (const [id, title] of names.titleOf) {
    const file = fileOf(id);
    list.push({ name: title, file, id }, { name: file, file, id });
    // "Lilu (mythology)" is written "Lilu" in running text: the bare name links too (unless ambiguous).
    const bare = title.replace(/\s*[(（][^()（）]*[)）]\s*$/, '').trim();
    if (bare && bare !== title && Array.from(bare).length >= 3) list.push({ name: bare, file, id });
  }
  for (const g of input.concepts) for (const a of g.aliases) list.push({ name: a, file: fileOf(g.id), id: g.id });
  for (const e of scan.entries) {
    if (e.fm.kind !== 'answer') continue;
    for (const a of e.fm.aliases ?? []) list.push({ name: a, file: fileBaseName(e.path), id: e.fm.id as EntryId });
  }
  const table = buildNameTable(list);
  // Old file names of moved entries still resolve (links written by a person before a rename).
  for (const e of scan.entries) {
    const p = pathOf.get(e.fm.id);
    if (p && p !== e.path)
      table.byKey.set(linkKey(fileBaseName(e.path)), {
        name: fileBaseName(e.path),
        file: fileBaseName(p),
        id: e.fm.id,
      });
  }
  const attachments = new Set([
    ...scan.files.filter((f) => !f.endsWith('.md')).map((f) => linkKey(f.split('/').pop()!)),
    ...input.attachments.map((raw) => linkKey(raw.split('/').pop()!)),
  ]);
  return { table, lookup: (t) => table.byKey.get(linkKey(t)), attachments };
}
