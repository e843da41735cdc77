import type { EntryFrontmatter } from '../types.js';
import type { WikiScan } from '../entry/wiki.js';
import { fileBaseName } from '../entry/names.js';
import { sha256, sha256Pieces } from '../util/hash.js';
import { codeId } from '../kb/code-id.js';
import type { LinkContext } from './link-table.js';
import type { ConceptPlan, Final, NamePlan, RenderPlan } from './types.js';
import { ownText } from './write.js';

/**
 * Render keys: a concept page is rendered again only when what it is rendered from changed. The
 * key of a page hashes everything its render reads — kb's own code, the writer (its name holds the
 * model and the templates' hash), the concept's names and mentions with their sentences and source names,
 * its path, and the names the text links by; with it the store keeps a hash of what was written
 * (text and the frontmatter the render sets). A page whose key and file are both as recorded would
 * be written byte for byte as it is: it is kept. Anything else (a fallback draft, a page heal
 * rewrote, a file gone) is rendered as before.
 */
export interface StoredRenderKey {
  input: string;
  output: string;
}

/**
 * kb's own files beside the entries: in the vault after the first compile, never in an entry's
 * text, so they do not change a fingerprint (else every page would be rendered again once after it).
 */
const GENERATED = new Set(['index.json', 'embeddings.db', 'embeddings.db-wal', 'embeddings.db-shm']);

/** The names a body links by this run, and the titles a model is told of (a changed name can change any text). */
export function linkFingerprint(links: LinkContext, names: NamePlan): string {
  const rows = [...links.table.byKey].map(([k, n]) => `${k}\t${n.id}\t${n.file}`).sort();
  const files = [...links.attachments].filter((a) => !GENERATED.has(a)).sort();
  const titles = [...names.titleOf].map(([id, t]) => `${id}\t${t}`).sort();
  return sha256([...rows, '--', ...files, '--', ...titles].join('\n'));
}

/** The key of a concept page: every input of its draft and render. */
export function conceptRenderKey(g: ConceptPlan, names: NamePlan, writer: string, links: string): string {
  const path = names.pathOf.get(g.id);
  // Mention by mention: a concept named by thousands of works has megabytes of them.
  function* pieces() {
    yield JSON.stringify({
      writer,
      code: codeId(),
      links,
      id: g.id,
      path,
      key: g.key,
      title: g.title,
      aliases: g.aliases,
    });
    // A list, not an object spread (~180,000 mentions at 10,000 documents: 2.5 times as fast).
    for (const m of g.mentions) {
      const title = fileBaseName(names.pathOf.get(m.sourceId) ?? m.sourceId);
      yield `\n${JSON.stringify([m.rawPath, m.sourceId, m.count, title, m.snippets])}`;
    }
  }
  return sha256Pieces(pieces());
}

/** Every field of a mention is in its key: one added to the type and left out of the list above fails to compile here. */
const MENTION_FIELDS_KEYED: Record<keyof ConceptPlan['mentions'][number], true> = {
  rawPath: true,
  sourceId: true,
  count: true,
  snippets: true,
};
void MENTION_FIELDS_KEYED;

/** What a render wrote: the text without the Backlinks section, and the frontmatter fields a render sets. */
export function renderedHash(fm: EntryFrontmatter, body: string): string {
  const { title, aliases, summary, source_ref, tags, compiled_by, kind } = fm;
  return sha256(
    `${JSON.stringify({ title, aliases, summary, source_ref, tags, compiled_by, kind })}\n${ownText(body)}`,
  );
}

/**
 * The concepts planned for rendering whose key is the one stored and whose file is what that
 * render wrote: taken out of the plan (kept as they are). Returns the keys of every concept planned.
 */
export function keepUnchangedConcepts(
  renders: RenderPlan,
  input: {
    concepts: readonly ConceptPlan[];
    scan: WikiScan;
    names: NamePlan;
    writer: string;
    links: LinkContext;
    stored: ReadonlyMap<string, StoredRenderKey>;
    force: boolean;
  },
): Map<string, string> {
  const keys = new Map<string, string>();
  const planned = input.concepts.filter((g) => renders.concepts.has(g.id));
  if (!planned.length) return keys;
  const fp = linkFingerprint(input.links, input.names);
  const oldById = new Map(input.scan.entries.map((e) => [e.fm.id as string, e]));
  for (const g of planned) {
    const key = conceptRenderKey(g, input.names, input.writer, fp);
    keys.set(g.id, key);
    if (input.force) continue;
    const old = oldById.get(g.id);
    const stored = input.stored.get(g.id);
    if (!old || !stored || old.humanEdited || stored.input !== key) continue;
    if (old.path !== input.names.pathOf.get(g.id) || old.fm.compiled_by !== input.writer) continue;
    if (renderedHash(old.fm, old.body) !== stored.output) continue;
    renders.concepts.delete(g.id);
  }
  return keys;
}

/** The render keys to store for the concept pages rendered this run (what they were written as). */
export function renderedKeys(finals: Iterable<Final>, keys: ReadonlyMap<string, string>): [string, StoredRenderKey][] {
  const out: [string, StoredRenderKey][] = [];
  for (const f of finals) {
    const input = f.kind === 'concept' && f.rendered && !f.humanEdited ? keys.get(f.id) : undefined;
    if (input) out.push([f.id, { input, output: renderedHash(f.fm, f.body) }]);
  }
  return out;
}
