import type { KbMessage } from '../diagnostics/message.js';
import { fileBaseName } from '../entry/names.js';
import type { ConceptPlan, EntryDraft, NamePlan, RenderPlan, SourcePlan } from '../emit/emit.js';
import type { Catalog, ConceptGroup, CurrentEntry, EntryWriter, ProgressEvent } from './types.js';

export interface DraftInput {
  sources: readonly SourcePlan[];
  concepts: readonly ConceptPlan[];
  names: NamePlan;
  renders: RenderPlan;
  writer: EntryWriter;
  /** The draft of an unchanged source that must be rendered again (its links change): its text is read again. */
  reload: (p: SourcePlan) => Promise<EntryDraft | undefined>;
  /** The entries of the wiki before this run (their aliases and summaries for the catalog). */
  known?: Catalog | undefined;
  /** The entry a model wrote for a concept last time, to update (compile/model/current.ts). */
  currentOf?: ((id: string) => CurrentEntry | undefined) | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((e: ProgressEvent) => void) | undefined;
}

/**
 * The drafts of every entry emit renders this run: the sources' (written during ingest, else
 * read again), then the concepts' — all started at once, so a model writer can run its calls
 * concurrently (it bounds them itself); their messages are kept in concept order.
 */
export async function writeDrafts(
  input: DraftInput,
): Promise<{ drafts: Map<string, EntryDraft>; messages: KbMessage[] }> {
  const { names, renders, writer, signal } = input;
  const drafts = new Map<string, EntryDraft>();
  const messages: KbMessage[] = [];
  const total = renders.sources.size + renders.concepts.size;
  let done = 0;
  const reloaded = new Set(rerenderedSources(input.sources, renders));
  for (const p of input.sources) {
    if (!renders.sources.has(p.id)) continue;
    const draft = reloaded.has(p) ? await input.reload(p) : p.draft;
    input.onProgress?.({ phase: 'write', done: done++, total, file: p.rawPath });
    if (draft) drafts.set(p.id, draft);
  }
  const catalog = conceptCatalog(names, input.concepts, drafts, input.known, input.sources);
  const pending = new Map<string, ReturnType<EntryWriter['writeConcept']>>();
  for (const g of input.concepts) {
    if (!renders.concepts.has(g.id)) continue;
    const p = writer.writeConcept(conceptGroup(g, names, input.currentOf?.(g.id)), catalog, signal);
    p.catch(() => undefined);
    pending.set(g.id, p);
  }
  for (const g of input.concepts) {
    const p = pending.get(g.id);
    if (!p) continue;
    input.onProgress?.({ phase: 'write', done: done++, total, file: g.title });
    const { draft, messages: wm } = await p;
    messages.push(...wm);
    drafts.set(g.id, draft);
  }
  return { drafts, messages };
}

/**
 * The sources this run renders though it wrote no draft of them (unchanged, their links shift):
 * their drafts are written again from their text (`reload`). `--estimate` counts their calls from it.
 */
export function rerenderedSources<P extends Pick<SourcePlan, 'id' | 'draft'>>(
  sources: readonly P[],
  renders: RenderPlan,
): P[] {
  return sources.filter((p) => renders.sources.has(p.id) && !p.draft);
}

/**
 * What a concept's writer may link to: every entry this run plans, with its other names and what
 * it is (from the sources' drafts of this run, else the wiki as it was), and the raw paths it is
 * written from (a concept's sources, a source's files). `--estimate` counts it alike.
 */
export function conceptCatalog(
  names: NamePlan,
  concepts: readonly ConceptPlan[],
  drafts: ReadonlyMap<string, Pick<EntryDraft, 'aliases' | 'summary'>>,
  wiki: Catalog | undefined,
  sources: readonly Pick<SourcePlan, 'id' | 'rawPath' | 'refs'>[] = [],
): Catalog {
  const known = new Map((wiki?.entries ?? []).map((e) => [e.id as string, e]));
  const conceptAliases = new Map(concepts.map((g) => [g.id as string, g.aliases]));
  const refs = new Map<string, string[]>([
    ...sources.map((p): [string, string[]] => [p.id, p.refs ?? [p.rawPath]]),
    ...concepts.map((g): [string, string[]] => [g.id, g.mentions.map((m) => m.rawPath)]),
  ]);
  return {
    entries: [...names.titleOf].map(([id, title]) => ({
      id,
      title,
      aliases: conceptAliases.get(id) ?? drafts.get(id)?.aliases ?? known.get(id)?.aliases ?? [],
      kind: id.split('/')[0] ?? '',
      summary: drafts.get(id)?.summary ?? known.get(id)?.summary ?? '',
      refs: refs.get(id) ?? known.get(id)?.refs ?? [],
    })),
  };
}

/** What the writer is told of a concept: its names and what each source says, by source file name. */
function conceptGroup(g: ConceptPlan, names: NamePlan, current: CurrentEntry | undefined): ConceptGroup {
  return {
    key: g.key,
    title: g.title,
    aliases: g.aliases,
    mentions: g.mentions.map((m) => ({ ...m, sourceTitle: fileBaseName(names.pathOf.get(m.sourceId) ?? m.sourceId) })),
    ...(current ? { current } : {}),
  };
}
