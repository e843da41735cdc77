import { join } from 'node:path';
import type { KbContext } from '../../kb/context.js';
import type { RawDocument } from '../../types.js';
import type { ModelRequest, ModelUsage } from '../../model/client.js';
import { requestTokens, zeroUsage } from '../../model/client.js';
import { costUsd } from '../../model/price.js';
import { priceOf } from '../../model/cached.js';
import { modelPlan, settingsForTask } from '../../model/provider.js';
import { fileOfRow, type DocumentRow, type EntityRow } from '../../store/store.js';
import { fileOf } from '../../ingest/posts.js';
import { countTokens } from '../../text/tokens.js';
import { chunkMarkdown } from '../../chunk/index.js';
import { scanWiki, type WikiScan } from '../../entry/wiki.js';
import { entityKey, makeEntryId } from '../../entry/names.js';
import { extractEntities, type FoundEntity } from '../offline/entities.js';
import { planDrafts } from '../plan-drafts.js';
import { conceptCatalog, rerenderedSources } from '../drafts.js';
import { rereadDocument } from '../reread.js';
import { entitiesFor } from '../ingest-changed.js';
import { draftEntities } from '../offline/writer.js';
import { entityMentions } from './writer.js';
import { currentEntry, currentOnRerender, entriesBySourceRef, updateOrCached } from './current.js';
import type { Catalog, CurrentEntry, SourceDraft } from '../types.js';
import { buildCatalog, documentsToCompile } from './plan.js';
import { currentsOf, documentRow, plannedCatalog } from './planned.js';
import {
  catalogParts,
  catalogXml,
  conceptNames,
  currentXml,
  loadTemplates,
  MAX_CONCEPT_SOURCES,
  modelReads,
  modelWriterName,
  promptBudget,
  quotedPassages,
  sourceParts,
  sourceRequest,
  type PromptBudget,
} from './prompts.js';

export interface CompileEstimate {
  model: string;
  /** Documents the next compile would compile. */
  documents: number;
  /** Documents the model reads (attachments and links keep the offline entry). */
  modelDocuments: number;
  /** Documents long enough to be read in parts (one call per part plus one to combine). */
  longDocuments: number;
  sourceCalls: number;
  conceptCalls: number;
  /** Source calls already answered in .kb/cache.db (free). */
  cachedCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** Of the input tokens: the catalog sent with every call (prompt-cached after the first). */
  catalogTokens: number;
  /** Of the input tokens: the catalog entries related to each call, sent after the cached part when the catalog is over its budget (mean per call). */
  relatedTokens: number;
  /** Repair rounds expected (a reply that fails its checks is asked again with the error), included in the tokens. */
  repairCalls: number;
  /** Repairs per call: measured on this knowledge base's past compiles, else assumed. */
  repairShare: number;
  repairShareMeasured: boolean;
  usd: number;
  /** The same through --batch (half price). */
  batchUsd: number;
  /** False when config.model.prices has no price for the model (usd is then 0). */
  priced: boolean;
}

/** The repair prompt's own words and the error it quotes, in tokens. */
const REPAIR_EXTRA = 150;
/** Repairs per call assumed until past compiles give a measure (a good model's replies mostly pass their checks). */
const ASSUMED_REPAIR_SHARE = 0.05;
/** Past calls needed before their repair share is taken as this knowledge base's. */
const MEASURED_MIN_CALLS = 20;

function repairShareOf(seen?: { share: number; calls: number }): { repairShare: number; repairShareMeasured: boolean } {
  return seen && seen.calls >= MEASURED_MIN_CALLS
    ? { repairShare: seen.share, repairShareMeasured: true }
    : { repairShare: ASSUMED_REPAIR_SHARE, repairShareMeasured: false };
}

/** Expected reply length of a source entry: summary, key points, entities. */
function sourceOutputTokens(input: number, max: number): number {
  return Math.min(max, Math.round(500 + 0.08 * input));
}
const CONCEPT_OUTPUT = 700;
const COMBINE_OUTPUT = 900;
/** A source's summary in a concept call… */
const SUMMARY_TOKENS = 50;
/** …and its first sentence, in the catalog a concept call gets, before it is written (about 30 tokens with its tags). */
const UNKNOWN_SUMMARY = 'What the source says, in one sentence, as a model writes it for the catalog.';
/** The names a model gives as what a work is about (the template allows 12; replies give about 8). */
const NAMED_PER_SOURCE = 8;

/** The chunk texts of a document: cut from its text when the compile ingests it, else from the store. */
function chunksOf(
  texts: Map<string, string>,
  opts: { maxTokens: number; overlapTokens: number },
  stored: (rawPath: string) => { text: string }[],
): (rawPath: string) => string[] {
  const memo = new Map<string, string[]>();
  return (p) => {
    let out = memo.get(p);
    if (!out) {
      const text = texts.get(p);
      out = (text !== undefined ? chunkMarkdown(text, opts) : stored(p)).map((c) => c.text);
      memo.set(p, out);
    }
    return out;
  };
}

/**
 * What `kb compile` would cost with the model, without calling it: the same documents compile()
 * would pick, the real prompts for them (token counts by kb's estimator), concepts predicted from
 * the offline entity extractor. Calls already in the cache cost nothing.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: mirrors compile step by step (scan, sources, long-source parts, concepts, repairs) so the estimate stays easy to check against it
export async function estimateCompile(
  ctx: KbContext,
  opts: {
    force?: boolean;
    isCached?: (req: ModelRequest) => boolean;
    /** Repairs per call seen in past compiles (`.kb/cache.db`), and on how many calls. */
    repairs?: { share: number; calls: number };
  } = {},
): Promise<CompileEstimate> {
  const { config } = ctx;
  const plan = modelPlan(config, ctx.env);
  const sources = settingsForTask(plan, 'compile-source');
  const concepts = settingsForTask(plan, 'concept');
  const model = plan.name;
  const budget = promptBudget(config, sources.contextTokens);
  const tpl = loadTemplates(ctx.paths.root);
  const scan = scanWiki(ctx.paths.wiki);
  const docs = await documentsToCompile(ctx, modelWriterName(model, tpl), Boolean(opts.force));
  // Source calls get the concepts this compile plans too (planned.ts), as compile sends them.
  const wiki = buildCatalog(scan.entries);
  // The offline reading of each document, read once: for the catalog and for the concepts below.
  const readings = new Map<string, FoundEntity[]>();
  const reading = (d: RawDocument) =>
    readings.get(d.path) ?? readings.set(d.path, extractEntities(d.markdown, d.title)).get(d.path)!;
  const catalog = plannedCatalog(ctx, docs, scan.entries, wiki, reading);
  // An edited source's call carries the entry it updates, as compile sends it.
  const currentOf = currentsOf(scan.entries, Boolean(opts.force));
  const catalogTokens = countTokens(catalogXml(catalog, budget.catalogTokens));
  // Sources and concepts may go to different models (model.tasks), priced apiece.
  const usages: Record<string, ModelUsage> = { source: zeroUsage(), concept: zeroUsage() };
  const est: CompileEstimate = {
    model,
    documents: docs.length,
    modelDocuments: 0,
    longDocuments: 0,
    sourceCalls: 0,
    conceptCalls: 0,
    cachedCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    catalogTokens,
    relatedTokens: 0,
    repairCalls: 0,
    ...repairShareOf(opts.repairs),
    usd: 0,
    batchUsd: 0,
    priced: priceOf(config, sources) !== undefined && priceOf(config, concepts) !== undefined,
  };
  // Calls per cached prefix (instructions + catalog): the first writes the prompt cache, the rest read it.
  const prefixes = new Map<string, { tokens: number; calls: number }>();
  let repairs = 0;
  let relatedSum = 0;
  const add = (input: number, output: number, prefix?: { name: string; tokens: number }) => {
    const usage = usages[prefix?.name ?? 'source']!;
    // A repair resends the prompt with the reply and what was wrong (REPAIR_EXTRA) and gets a new reply.
    usage.input_tokens += input + est.repairShare * (input + output + REPAIR_EXTRA);
    usage.output_tokens += output * (1 + est.repairShare);
    repairs += est.repairShare;
    if (prefix) {
      const p = prefixes.get(prefix.name) ?? { tokens: prefix.tokens, calls: 0 };
      p.calls++;
      prefixes.set(prefix.name, p);
    }
  };
  const sourcePrefix = { name: 'source', tokens: countTokens(tpl.source.text) + catalogTokens };
  const isCached = opts.isCached ?? (() => false);
  // The calls that write one source's entry: the request the writer picks (current.ts updateOrCached), or its parts and their combine.
  const countSource = (doc: RawDocument, current: CurrentEntry | undefined) => {
    const parts = sourceParts(doc, budget.partTokens);
    const reqs =
      parts.length === 1
        ? [updateOrCached((c) => sourceRequest(tpl, budget, doc, catalog, undefined, c), current, isCached)]
        : parts.map((text, i) => sourceRequest(tpl, budget, doc, catalog, { n: i + 1, of: parts.length, text }));
    for (const r of reqs) {
      est.sourceCalls++;
      if (isCached(r)) {
        est.cachedCalls++;
        continue;
      }
      const input = requestTokens(r);
      const related = countTokens(r.relatedContext ?? '');
      relatedSum += related;
      add(input, sourceOutputTokens(input - catalogTokens - related, budget.maxTokens), sourcePrefix);
    }
    if (parts.length > 1) {
      est.sourceCalls++;
      const related = countTokens(reqs[0]!.relatedContext ?? '');
      add(countTokens(reqs[0]!.system) + catalogTokens + related + parts.length * COMBINE_OUTPUT, COMBINE_OUTPUT);
    }
    return parts.length;
  };
  for (const doc of docs) {
    if (!modelReads(doc)) continue;
    est.modelDocuments++;
    if (countSource(doc, currentOf(doc)) > 1) est.longDocuments++;
  }

  // The concepts compile would draft (as compile decides it), each call's input; and the sources it
  // renders again, unchanged but their links shifting, which it writes again (compile/drafts.ts).
  const force = Boolean(opts.force);
  const { calls, rerendered } = conceptCallInputs(ctx, {
    docs,
    scan,
    catalog,
    writer: modelWriterName(model, tpl),
    force,
    reading,
    budget,
    conceptText: tpl.concept.text,
  });
  for (const c of calls) {
    est.conceptCalls++;
    relatedSum += c.related;
    add(c.input, CONCEPT_OUTPUT, { name: 'concept', tokens: c.prefix });
  }
  const bySourceRef = entriesBySourceRef(scan.entries);
  for (const row of rerendered) {
    const doc = await rereadDocument(ctx, row, (f) => join(ctx.paths.raw, f));
    if (doc && modelReads(doc)) countSource(doc, currentOnRerender(bySourceRef.get(row.raw_path), force));
  }

  est.repairCalls = Math.round(repairs);
  const paid = est.sourceCalls - est.cachedCalls + est.conceptCalls;
  est.relatedTokens = paid ? Math.round(relatedSum / paid) : 0;
  for (const u of Object.values(usages)) {
    u.input_tokens = Math.round(u.input_tokens);
    u.output_tokens = Math.round(u.output_tokens);
  }
  est.inputTokens = usages['source']!.input_tokens + usages['concept']!.input_tokens;
  est.outputTokens = usages['source']!.output_tokens + usages['concept']!.output_tokens;
  for (const [name, p] of prefixes) {
    // The API caches a prefix of at least 1024 tokens; a shorter one is plain input every time.
    if (p.tokens < 1024 || p.calls < 2) continue;
    const usage = usages[name]!;
    usage.input_tokens -= p.tokens * p.calls;
    usage.cache_creation_input_tokens += p.tokens;
    usage.cache_read_input_tokens += p.tokens * (p.calls - 1);
  }
  const [sp, cp] = [priceOf(config, sources), priceOf(config, concepts)];
  est.usd = costUsd(usages['source']!, sp) + costUsd(usages['concept']!, cp);
  est.batchUsd = costUsd(usages['source']!, sp, true) + costUsd(usages['concept']!, cp);
  return est;
}

/**
 * The entities compile stores for a changed document, predicted: the names a model gives, found in
 * the text as compile finds a reply's names and merged with the offline reading as compile merges
 * them (writer.ts entityMentions, ingest-changed.ts entitiesFor). For a source a model wrote
 * before (and updates now), the names it gave last time; for a new one (or under --force) the
 * offline reading's most mentioned names, as a model names what a work is about.
 */
function predictedEntities(d: RawDocument, last: readonly EntityRow[], found: FoundEntity[]): EntityRow[] {
  const offline = draftEntities(found);
  const named = last.filter((r) => r.named);
  // Its names, not its everyday words: a model names what the work is about.
  const reply = named.length
    ? named.map((r) => ({ name: r.surface, kind: 'concept', aliases: replyAliases(d, r, offline) }))
    : found
        .filter((f) => !f.weak)
        .sort((a, b) => b.count - a.count)
        .slice(0, NAMED_PER_SOURCE)
        .map((f) => ({ name: f.surface, kind: 'concept', aliases: f.aliases }));
  return entitiesFor(entityMentions(d.markdown, reply), offline).map((r) => ({ raw_path: d.path, ...r }));
}

/**
 * The other names a model gave a concept last time. The store keeps them merged with the offline
 * reading's, and a name the reply did not give finds other sentences: of all of them, none, or
 * those the offline reading does not give, the first that finds in the new text what the last
 * version's row holds (its sentences unchanged, the concept's page is kept), else all of them.
 */
function replyAliases(d: RawDocument, row: EntityRow, offline: SourceDraft['entities']): string[] {
  const own = new Set(offline.filter((o) => entityKey(o.name) === row.key).flatMap((o) => o.aliases));
  const candidates = [row.aliases, [], row.aliases.filter((a) => !own.has(a))];
  const same = (aliases: string[]) => {
    const found = entityMentions(d.markdown, [{ name: row.surface, kind: 'concept', aliases }]);
    const r = entitiesFor(found, offline).find((x) => x.key === row.key);
    return r !== undefined && r.count === row.count && r.snippets.join('\n') === row.snippets.join('\n');
  };
  return candidates.find(same) ?? row.aliases;
}

/**
 * The input of each concept call the compile would make: the documents and entities the wiki
 * would hold after it (the changed ones predicted), planned by compile's own code
 * (compile/plan-drafts.ts), so only the concepts compile drafts are counted — not those whose
 * inputs are as their last render left them; each with its `<current_entry>`. And the stored rows
 * of the sources the plan renders again though unchanged (their links shift), whose drafts compile
 * writes again (compile/drafts.ts rerenderedSources).
 */
function conceptCallInputs(
  ctx: KbContext,
  input: {
    docs: RawDocument[];
    scan: WikiScan;
    catalog: Catalog;
    writer: string;
    force: boolean;
    reading: (d: RawDocument) => FoundEntity[];
    budget: PromptBudget;
    conceptText: string;
  },
): { calls: { input: number; prefix: number; related: number }[]; rerendered: DocumentRow[] } {
  const { store, config } = ctx;
  const { scan, force } = input;
  const { rows, entities, drafts, texts, takenIds } = predictedWiki(ctx, input);
  const byId = new Map(scan.entries.map((e) => [e.fm.id as string, e]));
  const plan = planDrafts(ctx, { scan, docs: rows, entities, drafts, takenIds, writer: input.writer, force });
  // A concept call's catalog lists every entry the compile plans; a new source's summary is not
  // known yet: a sentence as long as one stands in for it.
  const planned = conceptCatalog(plan.names, plan.concepts, drafts, input.catalog, plan.sources);
  const catalog: Catalog = {
    entries: planned.entries.map((e) => (e.kind === 'source' && !e.summary ? { ...e, summary: UNKNOWN_SUMMARY } : e)),
  };
  const prefix = countTokens(input.conceptText) + countTokens(catalogXml(catalog, input.budget.catalogTokens));
  const entryOf = new Map(rows.map((r) => [r.raw_path, r.entry_id ?? '']));
  const chunks = chunksOf(texts, config.chunk, (p) => store.chunksOfEntry(entryOf.get(p) ?? ''));
  const out: { input: number; prefix: number; related: number }[] = [];
  for (const g of plan.concepts) {
    if (!plan.renders.concepts.has(g.id)) continue;
    // What the concept call quotes of each source (compile/model/prompts.ts quotedPassages).
    const names = conceptNames(g);
    const mentions = g.mentions.slice(0, MAX_CONCEPT_SOURCES);
    let quoted = 0;
    for (const m of mentions)
      quoted +=
        SUMMARY_TOKENS + quotedPassages(names, m.snippets, chunks(m.rawPath)).reduce((t, p) => t + countTokens(p), 0);
    // The page a model wrote last time, which the call updates (compile's currentOf).
    const current = force ? undefined : currentEntry(byId.get(g.id));
    if (current)
      quoted += countTokens(
        currentXml(
          current,
          mentions.map((m) => `raw/${m.rawPath}`),
        ),
      );
    // The catalog entries related to it that the shared catalog leaves out (prompts.ts catalogParts).
    const { related } = catalogParts(
      catalog,
      input.budget.catalogTokens,
      g.mentions.map((m) => m.rawPath),
    );
    out.push({ input: prefix + quoted + countTokens(related), prefix, related: countTokens(related) });
  }
  const rowOf = new Map(rows.map((r) => [r.raw_path, r]));
  const rerendered = rerenderedSources(plan.sources, plan.renders).flatMap((p) => rowOf.get(p.rawPath) ?? []);
  return { calls: out, rerendered };
}

/**
 * The documents and entities the wiki would hold after the compile, and the drafts of the changed
 * documents as far as planning reads them: the unchanged ones as stored, the changed ones predicted.
 */
function predictedWiki(
  ctx: KbContext,
  input: {
    docs: RawDocument[];
    scan: WikiScan;
    writer: string;
    force: boolean;
    reading: (d: RawDocument) => FoundEntity[];
  },
) {
  const { store } = ctx;
  const { docs, scan, force } = input;
  const byId = new Map(scan.entries.map((e) => [e.fm.id as string, e]));
  const changed = new Set(docs.map((d) => d.path as string));
  const changedFiles = new Set(docs.map((d) => fileOf(d) as string));
  const all = store.allDocuments();
  const before = new Map(all.map((d) => [d.raw_path, d]));
  const rows: DocumentRow[] = all.filter(
    (d) => !changed.has(d.raw_path) && !changedFiles.has(fileOfRow(d)) && (d.status === 'ok' || d.status === 'pending'),
  );
  const kept = new Set(rows.map((d) => d.raw_path));
  const stored = store.allEntities();
  const entities: EntityRow[] = stored.filter((e) => kept.has(e.raw_path));
  const lastOf = new Map<string, EntityRow[]>();
  for (const e of stored)
    if (changed.has(e.raw_path)) (lastOf.get(e.raw_path) ?? lastOf.set(e.raw_path, []).get(e.raw_path)!).push(e);
  const takenIds = new Set<string>([
    ...scan.entries.map((e) => e.fm.id as string),
    ...all.map((d) => d.entry_id ?? ''),
  ]);
  const drafts = new Map<string, SourceDraft>();
  const texts = new Map<string, string>();
  for (const d of docs) {
    const id = before.get(d.path)?.entry_id ?? makeEntryId('source', d.title, (x) => takenIds.has(x));
    takenIds.add(id);
    rows.push({ ...documentRow(d), hash: d.hash, file: fileOf(d), entry_id: id });
    // The entry's title and summary as the model gave them last time (an update keeps them), else kb's reading.
    const old = byId.get(id)?.fm;
    drafts.set(d.path, {
      title: old?.title ?? d.title,
      aliases: old?.aliases ?? [],
      summary: old?.summary ?? '',
      body: '',
      entities: [],
      compiledBy: input.writer,
    });
    if (!modelReads(d)) continue;
    texts.set(d.path, d.markdown);
    entities.push(...predictedEntities(d, force ? [] : (lastOf.get(d.path) ?? []), input.reading(d)));
  }
  return { rows, entities, drafts, texts, takenIds };
}
