import { entryTags } from '../entry/tags.js';
import type { EntryFrontmatter } from '../types.js';
import type { WikiScan } from '../entry/wiki.js';
import { autolink, resolveLinks } from './linker.js';
import type { LinkContext } from './link-table.js';
import { conceptsByDoc, conceptsSection, draftBody, sourceIndexFields, versionsSection } from './render-common.js';
import type { ConceptPlan, EntryDraft, Final, NamePlan, RenderPlan, SourcePlan } from './types.js';

export interface SourceRenderInput {
  sources: readonly SourcePlan[];
  concepts: readonly ConceptPlan[];
  scan: WikiScan;
  /** Drafts of the sources to render (compile wrote or re-read them); a source without one is kept as it is. */
  drafts: ReadonlyMap<string, EntryDraft>;
  /** Link mentions of known names in the text (the offline compiler; the model writes its own links). */
  autolink: boolean;
}

/** The text without `## ` sections that hold nothing (`## Images` whose embeds all resolved to nothing). */
export function withoutEmptySections(md: string): string {
  return md.replace(/^## [^\n]*\n(?:[ \t]*\n)*(?=## |$(?![\s\S]))/gm, '');
}

/** Source entries rendered from their drafts: the concepts section, links checked (and added offline). */
export function renderSources(
  input: SourceRenderInput,
  names: NamePlan,
  renders: RenderPlan,
  links: LinkContext,
): Final[] {
  const oldById = new Map(input.scan.entries.map((e) => [e.fm.id as string, e]));
  const byDoc = conceptsByDoc(input.concepts);
  const counts = mentionCounts(input.concepts);
  const out: Final[] = [];
  for (const p of input.sources) {
    if (!renders.sources.has(p.id)) continue;
    const draft = input.drafts.get(p.id);
    if (!draft) continue;
    const old = oldById.get(p.id);
    const concepts = byDoc.get(p.rawPath) ?? [];
    let body = draftBody(draft.title, draft);
    const sections = [conceptsSection(concepts, names), versionsSection(p, names)].filter(Boolean).join('\n\n');
    if (sections) body = insertBefore(body, '## Source', `<!-- kb:concepts -->\n${sections}\n<!-- /kb:concepts -->`);
    // Link mentions in what the entry says, not in its file details.
    let linked = body;
    if (input.autolink) {
      const cut = body.indexOf('\n## Source');
      const head = cut >= 0 ? body.slice(0, cut) : body;
      linked = autolink(head, links.table, p.id) + (cut >= 0 ? body.slice(cut) : '');
    }
    const { text: resolved, links: ids } = resolveLinks(linked, links.lookup, links.attachments);
    // An embed of a file kb does not hold resolves to nothing: no heading is left over an empty section.
    const text = withoutEmptySections(resolved);
    const fm: EntryFrontmatter = {
      ...(old?.fm ?? {}),
      id: p.id,
      kind: 'source',
      ...sourceIndexFields(draft, old?.fm.aliases),
      source_ref: (p.refs ?? [p.rawPath]).map((r) => `raw/${r}`),
      entities: concepts.map((g) => g.title),
      backlinks: old?.fm.backlinks ?? [],
      version: old?.fm.version ?? 0,
      last_heal_timestamp: old?.fm.last_heal_timestamp ?? '',
      content_hash: '',
      source_hashes: p.hashes ?? { [`raw/${p.file ?? p.rawPath}`]: p.rawHash },
      compiled_by: draft.compiledBy,
      tags: entryTags('source', topicsOf(concepts, counts.get(p.rawPath)), [
        ...(Array.isArray(old?.fm.tags) ? old.fm.tags : []),
        ...(draft.tags ?? []),
      ]),
      ...(draft.date ? { date: draft.date } : {}),
    };
    const path = names.pathOf.get(p.id)!;
    out.push({
      id: p.id,
      kind: 'source',
      title: draft.title,
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

/** The concepts a source says most about, first (`counts`: its mentions of each, mentionCounts). */
function topicsOf(concepts: readonly ConceptPlan[], counts: ReadonlyMap<ConceptPlan, number> | undefined): string[] {
  const count = (g: ConceptPlan) => counts?.get(g) ?? 0;
  return [...concepts].sort((a, b) => count(b) - count(a)).map((g) => g.title);
}

/**
 * Raw path → how often the source mentions each concept, in one pass over all mentions: looked up
 * per concept and source, a concept's mention list (which grows with the wiki) was searched once
 * for every comparison of a sort.
 */
function mentionCounts(concepts: readonly ConceptPlan[]): Map<string, Map<ConceptPlan, number>> {
  const out = new Map<string, Map<ConceptPlan, number>>();
  for (const g of concepts)
    for (const m of g.mentions) {
      const counts = out.get(m.rawPath) ?? out.set(m.rawPath, new Map()).get(m.rawPath)!;
      if (!counts.has(g)) counts.set(g, m.count);
    }
  return out;
}

function insertBefore(body: string, heading: string, section: string): string {
  const i = body.indexOf(`\n${heading}`);
  if (i < 0) return `${body.trimEnd()}\n\n${section}`;
  return `${body.slice(0, i).trimEnd()}\n\n${section}\n\n${body.slice(i + 1)}`;
}
