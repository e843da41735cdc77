import type { EntryId, EntryKind } from '../types.js';
import type { WikiScan } from '../entry/wiki.js';
import { fileBaseName, KIND_FOLDER, linkKey, safeFileName } from '../entry/names.js';
import type { ConceptPlan, NamePlan, SourcePlan } from './types.js';

export interface NameInput {
  sources: readonly SourcePlan[];
  concepts: readonly ConceptPlan[];
  scan: WikiScan;
  /** Raw paths of the attachments, copied into wiki/attachments/ under their own names. */
  attachments: readonly string[];
}

/**
 * File names, unique across the whole wiki case-insensitively (Obsidian resolves links by base
 * name): entries kept as they are hold theirs, an entry keeps its file while its title fits it,
 * a new name that is taken gets the kind and a number (`RAG (concept)`, `RAG (concept 2)`), and a
 * translation titled as its original its language (`SEO (中文)`).
 */
export function planNames(input: NameInput): NamePlan {
  const { scan } = input;
  const oldById = new Map(scan.entries.map((e) => [e.fm.id as string, e]));
  const taken = new Map<string, string>(); // linkKey(base) → id
  const pathOf = new Map<string, string>();
  const keepIds = new Set<string>([...input.sources.map((p) => p.id), ...input.concepts.map((g) => g.id)]);
  const entryPaths = new Set(scan.entries.map((e) => e.path as string));
  for (const f of scan.files)
    if (!f.endsWith('.md') || !entryPaths.has(f)) taken.set(linkKey(fileBaseName(f)), `file:${f}`);
  // Attachments are copied into wiki/attachments/ under their own names: no entry may take one,
  // or `[[diagram.png]]` would name both the image and its entry.
  for (const raw of input.attachments) taken.set(linkKey(raw.split('/').pop()!), `file:attachments/${raw}`);
  const wanted: { id: EntryId; kind: EntryKind; title: string; versions?: EntryId[]; language?: string }[] = [
    ...input.sources.map((p) => ({
      id: p.id,
      kind: 'source' as const,
      title: p.draft?.title ?? oldById.get(p.id)?.fm.title ?? p.title,
      ...(p.versions?.length ? { versions: p.versions } : {}),
      ...(p.language ? { language: p.language } : {}),
    })),
    ...input.concepts.map((g) => ({ id: g.id, kind: 'concept' as const, title: g.title })),
  ];
  // Entries kept as they are (answers, human-edited ones) hold their names first.
  for (const e of scan.entries) {
    // Answers and entries a person edited stay; sources and concepts not planned are removed later.
    if ((!keepIds.has(e.fm.id) && e.fm.kind === 'answer') || e.humanEdited) {
      taken.set(linkKey(fileBaseName(e.path)), e.fm.id);
      pathOf.set(e.fm.id, e.path);
    }
  }
  for (const w of wanted) {
    const old = oldById.get(w.id);
    if (!old) continue;
    const oldBase = fileBaseName(old.path);
    const fits =
      old.humanEdited || safeFileName(w.title) === oldBase || oldBase.startsWith(`${safeFileName(w.title)} (`);
    const holder = taken.get(linkKey(oldBase));
    if (fits && (holder === undefined || holder === w.id)) {
      taken.set(linkKey(oldBase), w.id);
      pathOf.set(w.id, old.path);
    }
  }
  for (const w of wanted) {
    if (pathOf.has(w.id)) continue;
    let b = safeFileName(w.title);
    // A translation titled as its original (SEO, SEO) is told apart by its language: `SEO (中文)`.
    const holder = taken.get(linkKey(b));
    if (holder && w.language && w.versions?.includes(holder as EntryId)) b = safeFileName(`${w.title} (${w.language})`);
    let name = b;
    for (let n = 1; taken.has(linkKey(name)) && taken.get(linkKey(name)) !== w.id; n++)
      name = n === 1 ? `${b} (${w.kind})` : `${b} (${w.kind} ${n})`;
    taken.set(linkKey(name), w.id);
    pathOf.set(w.id, `${KIND_FOLDER[w.kind]}/${name}.md`);
  }

  const titleOf = new Map<EntryId, string>();
  for (const w of wanted) titleOf.set(w.id, w.title);
  for (const e of scan.entries) if (!titleOf.has(e.fm.id) && pathOf.has(e.fm.id)) titleOf.set(e.fm.id, e.fm.title);
  return { pathOf, titleOf };
}
