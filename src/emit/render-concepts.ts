import { entryTags } from '../entry/tags.js';
import type { EntryFrontmatter } from '../types.js';
import { keptAliases, type WikiScan } from '../entry/wiki.js';
import { autolink, resolveLinks } from './linker.js';
import type { LinkContext } from './link-table.js';
import { draftBody, mergeAliases, oneLine } from './render-common.js';
import type { ConceptPlan, EntryDraft, Final, NamePlan, RenderPlan } from './types.js';

export interface ConceptRenderInput {
  concepts: readonly ConceptPlan[];
  scan: WikiScan;
  /** Drafts of the concepts to render, written by compile. */
  drafts: ReadonlyMap<string, EntryDraft>;
  /** Link mentions of known names in the text (the offline compiler; the model writes its own links). */
  autolink: boolean;
}

/** Concept entries rendered from their drafts, with links checked (and added offline). */
export function renderConcepts(
  input: ConceptRenderInput,
  names: NamePlan,
  renders: RenderPlan,
  links: LinkContext,
): Final[] {
  const oldById = new Map(input.scan.entries.map((e) => [e.fm.id as string, e]));
  const out: Final[] = [];
  for (const g of input.concepts) {
    if (!renders.concepts.has(g.id)) continue;
    const draft = input.drafts.get(g.id);
    if (!draft) continue;
    const old = oldById.get(g.id);
    let body = draftBody(draft.title, draft);
    if (input.autolink) body = autolink(body, links.table, g.id, new Set(g.mentions.map((m) => m.sourceId)));
    const { text, links: ids } = resolveLinks(body, links.lookup, links.attachments);
    const fm: EntryFrontmatter = {
      ...(old?.fm ?? {}),
      id: g.id,
      kind: 'concept',
      title: g.title,
      aliases: mergeAliases(draft.aliases, old ? keptAliases(old) : []),
      summary: oneLine(draft.summary) || g.title,
      source_ref: g.mentions.map((m) => `raw/${m.rawPath}`),
      entities: [],
      backlinks: old?.fm.backlinks ?? [],
      version: old?.fm.version ?? 0,
      last_heal_timestamp: old?.fm.last_heal_timestamp ?? '',
      content_hash: '',
      compiled_by: draft.compiledBy,
      tags: entryTags('concept', [g.title], old?.fm.tags),
    };
    delete fm.source_hashes;
    const path = names.pathOf.get(g.id)!;
    out.push({
      id: g.id,
      kind: 'concept',
      title: g.title,
      path,
      fm,
      body: text,
      links: new Set(ids),
      humanEdited: Boolean(old?.humanEdited),
      rendered: true,
      old,
    });
  }
  return out;
}
