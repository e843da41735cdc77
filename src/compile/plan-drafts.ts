import type { KbContext } from '../kb/context.js';
import type { EntryId } from '../types.js';
import type { WikiScan } from '../entry/wiki.js';
import { fileOfRow, type DocumentRow, type EntityRow } from '../store/store.js';
import {
  planNames,
  planRenders,
  type ConceptPlan,
  type NamePlan,
  type RenderPlan,
  type SourcePlan,
} from '../emit/emit.js';
import { buildLinkTable, type LinkContext } from '../emit/link-table.js';
import { keepUnchangedConcepts } from '../emit/render-keys.js';
import { planNamed } from '../emit/plan-named.js';
import { groupConcepts, withConceptIds } from './concepts.js';
import { withDictionary } from './dictionary.js';
import { byRawPath } from './works.js';
import { hasTraditional } from '../text/fold.js';
import { HAN } from '../text/script.js';
import type { SourceDraft } from './types.js';

/** What a compile renders and drafts: its concepts, the entries' names, and the renders left after keeping unchanged pages. */
export interface DraftPlan {
  sources: SourcePlan[];
  concepts: ConceptPlan[];
  names: NamePlan;
  renders: RenderPlan;
  links: LinkContext;
  /** The render key of every concept planned (kept or not). */
  renderKeys: Map<string, string>;
  attachments: ReturnType<KbContext['store']['attachmentPaths']>;
}

/**
 * The entries compile draws again: concepts grouped from the entities (as the store holds them
 * after this run's updates), their ids, every entry's name, the renders (emit/plan-renders.ts) and,
 * of the concepts, only those whose inputs changed (emit/render-keys.ts). Compile plans its drafts
 * with it, and `--estimate` predicts its concept calls with it (on the entities it predicts), so
 * both decide alike which concepts are drafted.
 */
export function planDrafts(
  ctx: KbContext,
  input: {
    scan: WikiScan;
    /** Every document the wiki holds after this run (status ok or pending). */
    docs: readonly DocumentRow[];
    entities: readonly EntityRow[];
    /** Raw path → the draft written this run (the documents that changed). */
    drafts: ReadonlyMap<string, SourceDraft>;
    /** Entry ids in use (the concepts' new ones are added). */
    takenIds: Set<string>;
    writer: string;
    force: boolean;
  },
): DraftPlan {
  const { store, config } = ctx;
  const { scan, entities, force } = input;
  const docs = [...input.docs];
  const rows = [...entities];
  const { minConceptSources, maxConcepts } = config.compile;
  let workOf: ReadonlyMap<string, string> = new Map();
  const planned = withDictionary(ctx.paths.state, rows, (dict) =>
    groupConcepts(
      rows,
      docs,
      minConceptSources,
      maxConcepts,
      scan.entries,
      dict,
      (w) => (workOf = w),
      (path) => store.placesOf(path),
    ),
  );
  const concepts = withConceptIds(planned, scan.entries, input.takenIds);
  const sources = withVersions(sourcePlans(docs, input.drafts, force), workOf);
  const plan = { sources, concepts, scan, entities, force };
  const attachments = store.attachmentPaths();
  const names = planNames({ ...plan, attachments });
  const renders = planRenders(plan, names, (id) => store.hasEntryBase(id), {
    from: (id) => store.linksFrom(id),
    to: (id) => store.linksTo(id),
  });
  // Concept pages whose inputs and file are as their last render left them are kept (not drafted again).
  const links = buildLinkTable({ concepts, scan, attachments }, names);
  // Offline, a name new this run is linked wherever a text mentions it (the model writes its own links).
  if (input.writer.startsWith('offline')) planNamed(renders, { sources, concepts, scan, links });
  const renderKeys = keepUnchangedConcepts(renders, {
    concepts,
    scan,
    names,
    writer: input.writer,
    links,
    stored: store.renderKeys(),
    force,
  });
  // A page kept as it is is not drafted: its mentions' sentences (tens of megabytes at 10,000
  // documents) are let go; what else reads a mention (backlinks, a source's topics) needs no sentence.
  letSentencesGo(concepts, renders.concepts);
  return { sources, concepts, names, renders, links, renderKeys, attachments };
}

const NO_SNIPPETS: string[] = [];

/**
 * The concepts' mentions without their sentences (tens of megabytes at 10,000 documents), but for
 * the concepts in `drafted`: only a draft reads them.
 */
export function letSentencesGo(concepts: readonly ConceptPlan[], drafted: ReadonlySet<string> = new Set()): void {
  for (const c of concepts) if (!drafted.has(c.id)) for (const m of c.mentions) m.snippets = NO_SNIPPETS;
}

/**
 * One source plan per entry: a work saved in several files is one entry citing every copy; its
 * first copy by raw path is the one it is rendered from (and that concept pages cite).
 */
function sourcePlans(
  docs: readonly DocumentRow[],
  drafts: ReadonlyMap<string, SourceDraft>,
  force: boolean,
): SourcePlan[] {
  const byEntry = new Map<string, DocumentRow[]>();
  for (const d of docs)
    (byEntry.get(d.entry_id ?? '') ?? byEntry.set(d.entry_id ?? '', []).get(d.entry_id ?? '')!).push(d);
  return [...byEntry.values()].map((list) => {
    const copies = list.sort(byRawPath);
    const d = copies[0]!;
    const file = fileOfRow(d);
    const draft = copies.map((c) => drafts.get(c.raw_path)).find(Boolean);
    return {
      id: d.entry_id as EntryId,
      title: draft?.title ?? d.title,
      ...languageOf(d.lang, draft),
      rawPath: d.raw_path,
      ...(file !== d.raw_path ? { file } : {}),
      rawHash: d.hash,
      refs: copies.map((c) => c.raw_path),
      hashes: Object.fromEntries(copies.map((c) => [`raw/${fileOfRow(c)}`, c.hash])),
      draft,
      changed: Boolean(draft) || force,
    };
  });
}

/** A document's language as a reader names it (English, 中文, 繁體中文); Chinese by the script its draft is written in. */
function languageOf(lang: string, draft: SourceDraft | undefined): { language?: string } {
  const text = draft ? `${draft.title} ${draft.summary}` : '';
  // A text of both languages (commands, names in English) is Chinese when its summary is.
  if (lang === 'zh' || (lang === 'mixed' && HAN.test(text)))
    return { language: hasTraditional(text) ? '繁體中文' : '中文' };
  return lang === 'en' ? { language: 'English' } : {};
}

/**
 * Each source plan with the entries of its work's other versions (an article and its
 * translations, as concept grouping found them: raw path → the work's first version).
 */
function withVersions(sources: SourcePlan[], workOf: ReadonlyMap<string, string>): SourcePlan[] {
  if (!workOf.size) return sources;
  const byWork = new Map<string, EntryId[]>();
  const workOfPlan = (p: SourcePlan) => (p.refs ?? [p.rawPath]).map((r) => workOf.get(r)).find(Boolean);
  for (const p of sources) {
    const work = workOfPlan(p);
    if (work) (byWork.get(work) ?? byWork.set(work, []).get(work)!).push(p.id);
  }
  return sources.map((p) => {
    const work = workOfPlan(p);
    const versions = work ? byWork.get(work)!.filter((id) => id !== p.id) : [];
    return versions.length ? { ...p, versions } : p;
  });
}
