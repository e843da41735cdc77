import type { KbContext } from '../kb/context.js';
import type { KbMessage } from '../diagnostics/message.js';
import { entryValidator } from '../entry/validate.js';
import type { ScanCache, WikiScan } from '../entry/wiki.js';
import { copyAttachments } from './attachments.js';
import { linksBrokenInEdited } from './edited-links.js';
import { indexWiki } from './index-wiki.js';
import { keepRest } from './keep.js';
import { mergeEdits } from './merge-edits.js';
import { offersDir, readOffers, removeOffer, writeOffer } from './offers.js';
import { buildLinkTable, type LinkContext } from './link-table.js';
import { refreshBacklinks } from './refresh-backlinks.js';
import { renderConcepts } from './render-concepts.js';
import { renderedKeys } from './render-keys.js';
import { renderSources } from './render-sources.js';
import type { ConceptPlan, EntryDraft, Finals, NamePlan, RenderPlan, SourcePlan } from './types.js';
import { writeFinals } from './write.js';

export { planNames } from './plan-names.js';
export { planRenders } from './plan-renders.js';
export type { ConceptPlan, EntryDraft, NamePlan, RenderPlan, SourcePlan } from './types.js';

export interface EmitInput {
  sources: SourcePlan[];
  concepts: ConceptPlan[];
  scan: WikiScan;
  /** Told about every file written, so the next scan need not parse it again. */
  scanCache?: ScanCache | undefined;
  /** Where each entry goes (planNames) and what is rendered again (planRenders). */
  names: NamePlan;
  renders: RenderPlan;
  /**
   * The drafts of the entries to render, by entry id (compile writes them). Emptied once rendered:
   * nothing after reads a draft, and the concept pages' drafts of a compile that draws them all
   * again (an upgrade at 10,000 documents) held ~20 MB of text through writing and indexing.
   */
  drafts: Map<string, EntryDraft>;
  /** Link mentions of known names in the text (the offline compiler; the model writes its own links). */
  autolink: boolean;
  /** The link table, when compile built it already to plan (buildLinkTable of the same input). */
  links?: LinkContext | undefined;
  /** Render key of each concept planned for rendering (emit/render-keys.ts): stored for the ones rendered. */
  renderKeys?: ReadonlyMap<string, string> | undefined;
  /** Where a raw file is on disk (its key is NFC; the name on disk may be spelled otherwise). */
  rawAbs?: ((rawPath: string) => string) | undefined;
  /** Awaited once the wiki is rendered, before a file is written (compile stops there on a signal). */
  beforeWrite?: (() => Promise<void>) | undefined;
  onIndex?: (() => void) | undefined;
  onFile?: ((line: string) => void) | undefined;
}

export interface EmitResult {
  messages: KbMessage[];
  protected: string[];
  written: number;
  concepts: { created: number; updated: number; deleted: number };
}

/**
 * Write the wiki compile planned: render the drafts, keep the rest (links kept resolvable),
 * refresh backlinks, write the files, index them. Emit makes no model call: it renders what it is given.
 */
export async function emitWiki(ctx: KbContext, input: EmitInput): Promise<EmitResult> {
  const { store, paths } = ctx;
  const attachments = store.attachmentPaths();
  const { names, renders } = input;
  const links = input.links ?? buildLinkTable({ concepts: input.concepts, scan: input.scan, attachments }, names);
  const finals: Finals = new Map();
  for (const f of renderSources(input, names, renders, links)) finals.set(f.id, f);
  for (const f of renderConcepts(input, names, renders, links)) finals.set(f.id, f);
  input.drafts.clear();
  const { deleted } = keepRest({ ...input, stored: store }, finals, names, links);
  // A person's edit gets kb's changes since kb last wrote the entry, where they touch other lines.
  const merging = mergeEdits(finals, store, links);
  // Turning the section on or off rewrites every entry's section once.
  const section = ctx.config.wiki.backlinksSection;
  const toggled = store.getMeta('backlinks_section') !== String(section);
  refreshBacklinks(input, finals, names, links, { section, toggled });
  await input.beforeWrite?.();
  // What the concept pages rendered are written as, taken before writing lets their bodies go.
  const keys = input.renderKeys ? renderedKeys(finals.values(), input.renderKeys) : [];
  const w = writeFinals(finals, deleted, {
    wikiDir: paths.wiki,
    validate: entryValidator(paths.root),
    heldBack: renders.heldBack,
    recordScan: Boolean(input.scanCache),
    store,
    keep: (cacheRows, bases) =>
      store.transaction(() => {
        if (input.scanCache) for (const [p, row] of cacheRows) input.scanCache.put(p, row);
        for (const [id, body] of bases) store.putEntryBase(id, body);
      }),
    onFile: input.onFile,
  });
  const messages = [...merging, ...w.messages, ...linksBrokenInEdited(input.scan, finals, attachments)];
  if (keys.length)
    store.transaction(() => {
      for (const [id, key] of keys) store.putRenderKey(id, key);
    });
  // An entry kb wrote (or merged into) has nothing left to offer; a conflict leaves kb's side.
  const offers = offersDir(paths.state);
  const written = new Set(w.based);
  for (const o of readOffers(offers)) if (written.has(o.id)) removeOffer(offers, o.id);
  for (const f of finals.values()) if (f.offer) writeOffer(offers, f.offer);
  input.onIndex?.();
  copyAttachments(paths.raw, paths.wiki, attachments, input.rawAbs, renders.changedDocs);
  store.setMeta('backlinks_section', String(section));
  await indexWiki(ctx, finals, w.written, deleted);
  // Indexed (a second at 10,000 entries): the entries written last are past their mtime's tick.
  input.scanCache?.settle?.(paths.wiki);
  return { messages, protected: w.protected, written: w.written.length, concepts: w.concepts };
}
