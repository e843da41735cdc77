import { compiledOffline, type WikiScan } from '../entry/wiki.js';
import { entityKey } from '../entry/names.js';
import type { EntityRow } from '../store/store.js';
import type { ConceptPlan, NamePlan, RenderPlan, SourcePlan } from './types.js';

export interface RenderInput {
  sources: readonly SourcePlan[];
  concepts: readonly ConceptPlan[];
  scan: WikiScan;
  /** Every document's entities, as the store holds them after this run's updates. */
  entities: readonly EntityRow[];
  force: boolean;
}

/**
 * What to render: changed documents, moved entries, concepts whose sources or names changed, and
 * the source entries that mention a name that appeared, went or changed (their links change).
 * Entries a person edited are held back: compile never writes over their text; it renders them
 * only to merge its changes in (`merges`: kb kept the text it wrote last).
 */
export function planRenders(
  input: RenderInput,
  names: NamePlan,
  merges: (id: string) => boolean = () => false,
  /** The links the store holds (what each entry linked to when last written), by id. */
  linked?: { from(id: string): string[]; to(id: string): string[] },
): RenderPlan {
  const { scan } = input;
  const oldById = new Map(scan.entries.map((e) => [e.fm.id as string, e]));
  const changedDocs = new Set(input.sources.filter((p) => p.changed).map((p) => p.rawPath));
  const groupIds = new Set(input.concepts.map((g) => g.id as string));
  const shifted = new Set<string>(); // keys of concepts created, deleted or retitled
  const named = new Set<string>();
  const concepts = new Set<string>();
  for (const g of input.concepts) {
    const old = oldById.get(g.id);
    const refs = g.mentions
      .map((m) => `raw/${m.rawPath}`)
      .sort()
      .join('\n');
    const oldRefs = [...(old?.fm.source_ref ?? [])].sort().join('\n');
    const had = new Set((old?.fm.aliases ?? []).map((a) => a.toLowerCase()));
    // An alias gone from a page kb wrote offline counts as much as one added: the page must stop
    // naming it. (A model's page has the model's aliases too, which kb does not plan: not that test.)
    const now = new Set(g.aliases.map((a) => a.toLowerCase()));
    const offline = old !== undefined && compiledOffline(old);
    const aliasesChanged =
      g.aliases.some((a) => !had.has(a.toLowerCase())) || (offline && [...had].some((a) => !now.has(a)));
    const retitled = !old || old.fm.title !== g.title;
    if (retitled || aliasesChanged) {
      for (const k of g.keys) shifted.add(k);
      named.add(g.id);
    }
    const mentionsChanged = g.mentions.some((m) => changedDocs.has(m.rawPath));
    if (retitled || input.force || refs !== oldRefs || aliasesChanged || mentionsChanged) concepts.add(g.id);
  }
  for (const c of scan.entries) {
    if (c.fm.kind !== 'concept' || groupIds.has(c.fm.id)) continue;
    for (const k of [c.fm.title, ...(c.fm.aliases ?? [])]) shifted.add(entityKey(k));
  }
  const plannedIds = new Set(input.sources.map((p) => p.id as string));
  // A source linking to one that is gone (a translation of its work, deleted) is written without the link.
  const linkedGone = new Set<string>();
  for (const e of scan.entries)
    if (e.fm.kind === 'source' && !plannedIds.has(e.fm.id)) {
      shifted.add(entityKey(e.fm.title));
      for (const id of linked?.to(e.fm.id) ?? []) linkedGone.add(id);
    }
  for (const p of input.sources)
    if (!oldById.has(p.id)) {
      shifted.add(entityKey(p.title));
      named.add(p.id);
    }
  const sources = new Set<string>();
  // The documents that name a key that shifted (by a name or an alias): their links change.
  const namingShifted = shifted.size ? docsNaming(input.entities, shifted) : new Set<string>();
  for (const p of input.sources) {
    const old = oldById.get(p.id);
    // A copy of the work added or gone changes its source_ref.
    const refs = (p.refs ?? [p.rawPath]).map((r) => `raw/${r}`);
    const refsChanged = refs.sort().join('\n') !== [...(old?.fm.source_ref ?? [])].sort().join('\n');
    // A version of its work (a translation) it does not link to yet: one added, or found only now.
    const linksNow = p.versions?.length && linked ? new Set(linked.from(p.id)) : undefined;
    const versionNew = Boolean(linksNow && p.versions!.some((v) => !linksNow.has(v)));
    if (p.changed || !old || refsChanged || old.path !== names.pathOf.get(p.id) || versionNew || linkedGone.has(p.id))
      sources.add(p.id);
    else if (namingShifted.has(p.rawPath)) sources.add(p.id);
  }
  const heldBack = new Set<string>();
  for (const id of [...sources, ...concepts]) {
    if (!oldById.get(id)?.humanEdited) continue;
    heldBack.add(id);
    // kb's new text is made where it can be merged into the person's (the store keeps what kb
    // wrote last: emit/merge-edits.ts); otherwise the entry is left alone.
    if (merges(id)) continue;
    sources.delete(id);
    concepts.delete(id);
  }
  return { sources, concepts, heldBack, changedDocs, named };
}

/** The raw paths of the documents whose entities name one of `keys`, by their key or an alias's. */
function docsNaming(entities: readonly EntityRow[], keys: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const e of entities) {
    if (out.has(e.raw_path)) continue;
    if (keys.has(e.key) || e.aliases.some((a) => keys.has(entityKey(a)))) out.add(e.raw_path);
  }
  return out;
}
