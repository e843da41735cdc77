import { linkMarkup } from '../entry/links.js';
import { neutralizeMarkers } from '../entry/markers.js';
import { fileBaseName } from '../entry/names.js';
import { byCodePoint } from '../util/order.js';
import type { ConceptPlan, EntryDraft, NamePlan, SourcePlan } from './types.js';

/** `# Title`, the summary and the body of a draft; what a document or the model wrote can never pass for one of kb's marked sections. */
export function draftBody(title: string, draft: EntryDraft): string {
  return neutralizeMarkers(`# ${title}\n\n${draft.summary}\n\n${draft.body}`);
}

/** A source entry's list of the concepts it mentions, or null when it mentions none. */
export function conceptsSection(concepts: readonly ConceptPlan[], names: NamePlan): string | null {
  if (!concepts.length) return null;
  return `## Concepts\n\n${concepts.map((g) => `- ${linkMarkup(fileBaseName(names.pathOf.get(g.id)!), g.title)}`).join('\n')}`;
}

/** The work's other versions (its translations), each linked by its entry's name. */
export function versionsSection(p: SourcePlan, names: NamePlan): string | null {
  const linked = (p.versions ?? []).filter((id) => names.pathOf.has(id));
  if (!linked.length) return null;
  return `## Versions\n\n${linked.map((id) => `- ${linkMarkup(fileBaseName(names.pathOf.get(id)!), names.titleOf.get(id) ?? id)}`).join('\n')}`;
}

/**
 * Raw path → the concepts that cite it, those it mentions most first (then by title): an order of
 * the document's own, so that a page stays as it is when other documents make one concept more
 * widely shared than another (a compile after a change writes what a full compile writes).
 */
export function conceptsByDoc(concepts: readonly ConceptPlan[]): Map<string, ConceptPlan[]> {
  const byDoc = new Map<string, Map<ConceptPlan, number>>();
  for (const g of concepts)
    for (const m of g.mentions) {
      const counts = byDoc.get(m.rawPath) ?? byDoc.set(m.rawPath, new Map()).get(m.rawPath)!;
      if (!counts.has(g)) counts.set(g, m.count);
    }
  const out = new Map<string, ConceptPlan[]>();
  for (const [path, counts] of byDoc)
    out.set(
      path,
      [...counts.keys()].sort(
        (a, b) => counts.get(b)! - counts.get(a)! || byCodePoint(a.title, b.title) || byCodePoint(a.id, b.id),
      ),
    );
  return out;
}

export function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim().slice(0, 3900);
}

/**
 * A source entry's title, aliases and summary as its file has them: what its summary vector is
 * made of (index/entries.ts summaryText), so compile can embed it as soon as the draft is written.
 */
export function sourceIndexFields(
  draft: { title: string; aliases: string[]; summary: string },
  oldAliases: string[] | undefined,
): { title: string; aliases: string[]; summary: string } {
  return {
    title: draft.title,
    aliases: mergeAliases(draft.aliases, oldAliases),
    summary: oneLine(draft.summary) || draft.title,
  };
}

/** Aliases of a draft and of the entry before it, without repeats (case-insensitive). */
export function mergeAliases(a: string[], b: string[] | undefined): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const x of [...a, ...(b ?? [])]) {
    const k = x.toLowerCase();
    if (!x.trim() || seen.has(k)) continue;
    seen.add(k);
    out.push(x);
  }
  return out;
}
