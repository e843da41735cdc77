import { letTextGo, type LoadedEntry, type WikiScan } from '../entry/wiki.js';
import type { LinkContext } from './link-table.js';
import { WORDCHAR } from './linker.js';
import type { ConceptPlan, RenderPlan, SourcePlan } from './types.js';

/**
 * Whether the autolinker could link `key` (a lowercase name) in a lowercased text: it occurs there,
 * as a whole word where it begins or ends with a Latin letter or digit ("go" not in "going"). Every
 * place autolink links it passes (it also wants jieba's word boundaries for a Chinese name).
 */
export function mayLink(text: string, key: string): boolean {
  const head = WORDCHAR.test(key[0] ?? '');
  const tail = WORDCHAR.test(key.at(-1) ?? '');
  for (let at = text.indexOf(key); at >= 0; at = text.indexOf(key, at + 1)) {
    if (head && at > 0 && WORDCHAR.test(text[at - 1]!)) continue;
    const after = text[at + key.length];
    if (tail && after !== undefined && WORDCHAR.test(after)) continue;
    return true;
  }
  return false;
}

/** A wiki link as the text it shows: `[[File|text]]` as text, `[[File]]` as File. */
const WIKILINK = /!?\[\[([^[\]|\n]*)(?:\|([^[\]\n]*))?\]\]/g;

/**
 * Pages kept as they are whose text names an entry that is new this run, or a concept renamed or
 * given a new alias (`renders.named`): the offline compiler links a known name where a text mentions
 * it (linker.ts autolink), so a full compile would link it there. They are planned for rendering
 * again, and written as a full compile writes them. Pages are read only when some name is new, and
 * a name is looked for in a page's lowercased text (links read as the text they show) as mayLink
 * says: every place autolink would link it, and a few it would not.
 */
export function planNamed(
  renders: RenderPlan,
  input: {
    sources: readonly SourcePlan[];
    concepts: readonly ConceptPlan[];
    scan: WikiScan;
    links: LinkContext;
  },
): void {
  if (!renders.named.size) return;
  const names = [...input.links.table.byKey].filter(([, n]) => renders.named.has(n.id)).map(([k]) => k);
  if (!names.length) return;
  const oldById = new Map(input.scan.entries.map((e) => [e.fm.id as string, e]));
  const naming = (old: LoadedEntry | undefined) => {
    if (!old || old.humanEdited) return false;
    const text = old.body.replace(WIKILINK, (_m, target: string, shown?: string) => shown ?? target).toLowerCase();
    letTextGo(old);
    return names.some((k) => mayLink(text, k));
  };
  for (const p of input.sources) if (!renders.sources.has(p.id) && naming(oldById.get(p.id))) renders.sources.add(p.id);
  for (const g of input.concepts)
    if (!renders.concepts.has(g.id) && naming(oldById.get(g.id))) renders.concepts.add(g.id);
}
