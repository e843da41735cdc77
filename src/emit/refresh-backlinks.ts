import { replaceSectionVerbatim } from '../entry/markers.js';
import { setBacklinks, setBacklinksVerbatim } from '../entry/backlinks.js';
import type { LinkContext } from './link-table.js';
import { linkIds } from './keep.js';
import { conceptsByDoc, conceptsSection } from './render-common.js';
import type { ConceptPlan, Finals, NamePlan, SourcePlan } from './types.js';
import { byCodePoint } from '../util/order.js';

export interface BacklinksInput {
  sources: readonly SourcePlan[];
  concepts: readonly ConceptPlan[];
}

/**
 * Backlinks from the final link graph: the `backlinks` frontmatter and the Backlinks section of
 * every entry. In an entry a person edited only kb's sections change (their text stays byte for byte).
 */
export function refreshBacklinks(
  input: BacklinksInput,
  finals: Finals,
  names: NamePlan,
  links: LinkContext,
  opts: { section: boolean; toggled?: boolean } = { section: true },
): void {
  const rawOf = new Map<string, string>(input.sources.map((p) => [p.id, p.rawPath]));
  const byDoc = conceptsByDoc(input.concepts);
  const inbound = new Map<string, Set<string>>();
  for (const f of finals.values()) {
    for (const l of f.links)
      if (finals.has(l) && l !== f.id) (inbound.get(l) ?? inbound.set(l, new Set()).get(l)!).add(f.id);
  }
  for (const f of finals.values()) {
    // By title, and two entries of one title by id: not in the order this run happened to meet them.
    const ins = [...(inbound.get(f.id) ?? [])].sort(
      (a, b) => finals.get(a)!.title.localeCompare(finals.get(b)!.title) || byCodePoint(a, b),
    );
    const items = () => ins.map((i) => finals.get(i)!);
    if (f.humanEdited) {
      // kb's sections stay true even in an entry a person edited; their text stays byte for byte.
      const was = f.merged ?? f.old?.body ?? f.body;
      let body = setBacklinksVerbatim(was, items(), opts.section);
      const raw = rawOf.get(f.id);
      if (raw !== undefined) {
        const concepts = (byDoc.get(raw) ?? []).filter((g) => finals.has(g.id));
        body = replaceSectionVerbatim(body, 'concepts', conceptsSection(concepts, names), { append: false });
      }
      if (f.merged !== undefined || body !== was || !sameList(f.fm.backlinks ?? [], ins)) {
        f.fm.backlinks = ins;
        f.body = body;
        f.links = new Set(linkIds(body, links));
        f.refreshed = true;
      }
      continue;
    }
    const same =
      !opts.toggled &&
      !f.rendered &&
      !f.touched &&
      f.old &&
      f.old.path === f.path &&
      sameList(f.old.fm.backlinks ?? [], ins);
    f.fm.backlinks = ins;
    if (same) continue; // its backlinks section is already right: do not even read the body
    const body = setBacklinks(f.body, items(), opts.section);
    // Written again when its frontmatter's list changed too, with no section in the body to show it.
    if (body !== f.body || !sameList(f.old?.fm.backlinks ?? [], ins)) {
      f.body = body;
      f.touched = true;
    }
  }
}

export function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
