import type { KbConfig, WikiLanguage } from '../../config/defaults.js';
import type { ModelRequest } from '../../model/client.js';
import { loadTemplate, renderTemplate, splitTemplate, type Template } from '../../model/templates.js';
import { escapeXml } from '../../model/xml.js';
import { chunkMarkdown } from '../../chunk/index.js';
import { countTokens } from '../../text/tokens.js';
import { sha256 } from '../../util/hash.js';
import type { RawDocument } from '../../types.js';
import { readsText } from '../../ingest/detect.js';
import type { Catalog, ConceptGroup, CurrentEntry } from '../types.js';

/** A source longer than this (tokens) is read in parts, then the part notes are combined. */
export const PART_TOKENS = 12_000;
/** The catalog sent with every prompt is cut to this many tokens (most useful entries first). */
const CATALOG_TOKENS = 12_000;

/** How much of the model's context a prompt may use: the reply, a part of a source, the catalog. */
export interface PromptBudget {
  maxTokens: number;
  partTokens: number;
  catalogTokens: number;
  /** The language entries are written in (wiki.language); `auto`: the source's own. */
  language?: WikiLanguage;
}

/** Room kept for the instructions of a template. */
const INSTRUCTION_TOKENS = 1500;

/**
 * The budget for a model with this context window: the defaults for a large one (Claude's
 * 200K); for a small local model, a shorter reply and smaller parts and catalog that fit.
 */
export function promptBudget(config: KbConfig, contextTokens = 200_000): PromptBudget {
  const maxTokens = Math.min(config.model.maxTokens, Math.max(512, Math.floor(contextTokens / 4)));
  const room = Math.max(1000, contextTokens - maxTokens - INSTRUCTION_TOKENS);
  return {
    maxTokens,
    partTokens: Math.min(PART_TOKENS, Math.max(400, Math.floor(room * 0.6))),
    catalogTokens: Math.min(CATALOG_TOKENS, Math.max(200, Math.floor(room * 0.4))),
    language: config.wiki.language ?? 'auto',
  };
}

export interface Templates {
  source: Template;
  combine: Template;
  concept: Template;
  repair: Template;
}

export function loadTemplates(root: string): Templates {
  return {
    source: loadTemplate(root, 'compile-source'),
    combine: loadTemplate(root, 'combine-source'),
    concept: loadTemplate(root, 'concept'),
    repair: loadTemplate(root, 'repair-entry'),
  };
}

/**
 * Text from a source is data: it may hold `</source>` or a fake `<kb_entry>` to break out of its
 * element. Tags kb uses for structure are neutralised inside it; everything else stays verbatim.
 */
export function isolate(text: string): string {
  return text.replace(
    /<(\/?)(source|source_entry|kb_entry|catalog|concept|current_entry|changes|part_notes|previous_reply)\b/gi,
    '&lt;$1$2',
  );
}

/** A catalog line's summary is cut to this many characters: what the entry is, not all it says. */
const CATALOG_SUMMARY_CHARS = 160;

/** The first sentence of a summary, on one line, cut to CATALOG_SUMMARY_CHARS. */
function oneLineSummary(summary: string): string {
  const flat = summary.replace(/\s+/g, ' ').trim();
  const first = /^.+?[.!?。！？](?=\s|$)/u.exec(flat)?.[0] ?? flat;
  return first.length > CATALOG_SUMMARY_CHARS ? `${first.slice(0, CATALOG_SUMMARY_CHARS - 1)}…` : first;
}

/** One catalog line: an entry's kind, title, aliases and one-line summary. */
function catalogLine(e: Catalog['entries'][number]): string {
  const aliases = e.aliases.map((a) => `<alias>${escapeXml(a)}</alias>`).join('');
  const gist = oneLineSummary(e.summary);
  const summary = gist ? `<summary>${escapeXml(gist)}</summary>` : '';
  return `<entry kind="${escapeXml(e.kind)}" title="${escapeXml(e.title)}">${aliases}${summary}</entry>`;
}

/** Of the catalog's budget, the share left to the entries related to a call when the whole catalog does not fit. */
const RELATED_SHARE = 0.25;

/** A catalog laid out once for every call that gets it: its lines in order, and the part every call shares. */
interface CatalogLayout {
  entries: Catalog['entries'];
  lines: string[];
  tokens: number[];
  /** The part every call gets (the cached prefix). */
  shared: string;
  /** Entries (by index) the shared part lists; all of them when the catalog fits. */
  inShared: Set<number>;
  /** Raw path → the entries written from it. */
  byRef: Map<string, number[]>;
  /** What the catalog leaves a call's related entries. */
  relatedTokens: number;
}

const layouts = new WeakMap<Catalog, Map<number, CatalogLayout>>();

/** How linked an entry is across the catalog: a concept by its sources, a source by the concepts it is a source of. */
function linkWeights(entries: Catalog['entries'], byRef: Map<string, number[]>): number[] {
  return entries.map((e) => {
    const refs = e.refs ?? [];
    if (e.kind !== 'source') return refs.length;
    const concepts = new Set(refs.flatMap((r) => byRef.get(r) ?? []).filter((i) => entries[i]!.kind === 'concept'));
    return concepts.size;
  });
}

function layoutOf(catalog: Catalog, maxTokens: number): CatalogLayout {
  const memo = layouts.get(catalog) ?? layouts.set(catalog, new Map()).get(catalog)!;
  const known = memo.get(maxTokens);
  if (known) return known;
  const order = { concept: 0, source: 1, answer: 2 } as Record<string, number>;
  const entries = [...catalog.entries].sort(
    (a, b) => (order[a.kind] ?? 3) - (order[b.kind] ?? 3) || a.title.localeCompare(b.title),
  );
  const lines = entries.map(catalogLine);
  const tokens = lines.map(countTokens);
  const byRef = new Map<string, number[]>();
  entries.forEach((e, i) => {
    for (const r of new Set(e.refs ?? [])) (byRef.get(r) ?? byRef.set(r, []).get(r)!).push(i);
  });
  const total = tokens.reduce((a, b) => a + b, 0);
  let layout: CatalogLayout;
  if (total <= maxTokens) {
    const inShared = new Set(entries.keys());
    layout = { entries, lines, tokens, shared: wrapCatalog(lines), inShared, byRef, relatedTokens: 0 };
  } else {
    // The entries most linked across the wiki, the same for every call, listed in the catalog's order.
    const weights = linkWeights(entries, byRef);
    const more = (n: number) =>
      `<!-- ${n} more entries not shown; those related to this request follow in a second <catalog> -->`;
    // The wrappers and the note count against the budget too.
    const overhead = countTokens(wrapCatalog([more(entries.length)])) + countTokens(wrapCatalog([], RELATED_ATTRS));
    const budget = Math.floor(maxTokens * (1 - RELATED_SHARE)) - overhead;
    const inShared = new Set<number>();
    let used = 0;
    for (const i of [...entries.keys()].sort((a, b) => weights[b]! - weights[a]! || a - b)) {
      if (used + tokens[i]! > budget) continue;
      used += tokens[i]!;
      inShared.add(i);
    }
    const shown = lines.filter((_, i) => inShared.has(i));
    layout = {
      entries,
      lines,
      tokens,
      shared: wrapCatalog([...shown, more(entries.length - shown.length)]),
      inShared,
      byRef,
      relatedTokens: Math.max(0, maxTokens - used - overhead),
    };
  }
  memo.set(maxTokens, layout);
  return layout;
}

/** A concept of more sources than this does not lead a call to its other sources. */
const MAX_BRIDGE_SOURCES = 200;

/** The attributes of the second `<catalog>`, the call's own. */
const RELATED_ATTRS = ' related="this request"';

function wrapCatalog(lines: string[], attrs = ''): string {
  return `<catalog${attrs}>\n${lines.join('\n')}\n</catalog>`;
}

/**
 * The entries a call is about, most related first: those written from its raw paths (`about`: a
 * source's own entry and its concepts; a concept's sources and the concepts sharing them), by the
 * share of their own sources the call has (a concept's own sources first, a concept much of whose
 * sources it shares before one that shares a few of many), then by how many they share; then the
 * other sources of those concepts (through a concept of few sources before one of many), alike.
 */
function relatedEntries(layout: CatalogLayout, about: readonly string[]): number[] {
  const { entries, byRef } = layout;
  const direct = new Map<number, number>();
  for (const p of new Set(about)) for (const i of byRef.get(p) ?? []) direct.set(i, (direct.get(i) ?? 0) + 1);
  const second = new Map<number, number>();
  for (const i of direct.keys()) {
    if (entries[i]!.kind !== 'concept') continue;
    // A concept of many sources ties each of them less closely than one of two; one of very many
    // (most of the wiki) ties none, and is not walked for every call.
    const refs = new Set(entries[i]!.refs ?? []);
    if (refs.size > MAX_BRIDGE_SOURCES) continue;
    for (const r of refs)
      for (const j of byRef.get(r) ?? []) if (!direct.has(j)) second.set(j, (second.get(j) ?? 0) + 1 / refs.size);
  }
  const ranked = (m: Map<number, number>) => {
    const share = new Map([...m].map(([i, n]) => [i, n / Math.max(1, new Set(entries[i]!.refs ?? []).size)]));
    return [...m.keys()].sort((a, b) => share.get(b)! - share.get(a)! || m.get(b)! - m.get(a)! || a - b);
  };
  return [...ranked(direct), ...ranked(second)];
}

/**
 * The `<catalog>` of existing entries (titles, aliases, one-line summaries) a call gets, in two
 * parts. `shared`: the same for every call given this catalog, sent as the cached prefix — the
 * whole catalog when it fits in `maxTokens` (by kind, then title), else the entries most linked
 * across the wiki. `related`: when the shared part leaves entries out, those related to this call
 * (`about`: the raw paths it is written from), most related first, in what the budget has left;
 * sent after the cache breakpoint, so the prefix stays the same from call to call.
 */
export function catalogParts(
  catalog: Catalog,
  maxTokens = CATALOG_TOKENS,
  about: readonly string[] = [],
): { shared: string; related: string } {
  const layout = layoutOf(catalog, maxTokens);
  if (layout.inShared.size === layout.entries.length || about.length === 0)
    return { shared: layout.shared, related: '' };
  const lines: string[] = [];
  let used = 0;
  for (const i of relatedEntries(layout, about)) {
    if (layout.inShared.has(i) || used + layout.tokens[i]! > layout.relatedTokens) continue;
    used += layout.tokens[i]!;
    lines.push(layout.lines[i]!);
  }
  return { shared: layout.shared, related: lines.length ? wrapCatalog(lines, RELATED_ATTRS) : '' };
}

/** The shared `<catalog>` (the cached prefix every call of this catalog gets). */
export function catalogXml(catalog: Catalog, maxTokens = CATALOG_TOKENS): string {
  return layoutOf(catalog, maxTokens).shared;
}

/** A request's catalog: the shared part as its cached prefix, the part related to the call after it. */
function catalogFields(
  catalog: Catalog,
  budget: PromptBudget,
  about: readonly string[],
): Pick<ModelRequest, 'cachedPrefix' | 'relatedContext'> {
  const { shared, related } = catalogParts(catalog, budget.catalogTokens, about);
  return { cachedPrefix: shared, ...(related ? { relatedContext: related } : {}) };
}

function split(t: Template): { system: string; input: string } {
  return splitTemplate(t.text);
}

/** The Markdown a source is compiled from, cut into parts when it is long. */
export function sourceParts(doc: RawDocument, partTokens = PART_TOKENS): string[] {
  if (countTokens(doc.markdown) <= partTokens) return [doc.markdown];
  return chunkMarkdown(doc.markdown, { maxTokens: partTokens, overlapTokens: 0 }).map((c) => c.text);
}

/**
 * The compiler name stored with every document and in `compiled_by`. The templates' hash is part
 * of it: after a template edit, compile sees every document as compiled by another compiler and
 * redoes it, while the cache keeps the calls the edit does not affect free.
 */
export function modelWriterName(model: string, t: Templates): string {
  return `model:${model}@${sha256([t.source.hash, t.combine.hash, t.concept.hash, t.repair.hash].join('\n')).slice(0, 8)}`;
}

/** How a prompt names each language entries may be written in. */
export const LANGUAGE_NAMES: Record<Exclude<WikiLanguage, 'auto'>, string> = {
  en: 'English',
  zh: 'Simplified Chinese (简体中文)',
  'zh-TW': 'Traditional Chinese (繁體中文)',
};

/** `<wiki_language>` for a set language; nothing for `auto` (the template's own rule: the source's language). */
function languageXml(budget: PromptBudget): string {
  const l = budget.language;
  return l && l !== 'auto' ? `<wiki_language>${LANGUAGE_NAMES[l]}</wiki_language>` : '';
}

/** Documents the model has nothing to read in: they keep the offline entry. */
export function modelReads(doc: RawDocument): boolean {
  return readsText(doc) && doc.markdown.trim().length > 0;
}

/** The request for one part (or the whole) of a source. */
export function sourceRequest(
  tpl: Templates,
  budget: PromptBudget,
  doc: RawDocument,
  catalog: Catalog,
  part?: { n: number; of: number; text: string },
  current?: CurrentEntry,
): ModelRequest {
  const { system, input } = split(tpl.source);
  const content = part?.text ?? doc.markdown;
  const prompt = renderTemplate(input, {
    language: languageXml(budget),
    current: current && !part ? currentXml(current) : '',
    path: escapeXml(`raw/${doc.path}`),
    type: escapeXml(doc.type + (doc.language ? `/${doc.language}` : '')),
    title: escapeXml(doc.title),
    part: part ? ` part="${part.n}" of="${part.of}"` : '',
    part_note: part ? ` (part ${part.n} of ${part.of} of a long document: notes on this part only)` : '',
    content: isolate(content),
  });
  return {
    task: part ? 'compile-source-part' : 'compile-source',
    templateHash: tpl.source.hash,
    system: renderTemplate(system, {}),
    ...catalogFields(catalog, budget, [doc.path]),
    prompt,
    maxTokens: budget.maxTokens,
    cacheKey: sha256(prompt),
  };
}

/** The request that combines the notes on each part of a long source into one entry. */
export function combineRequest(
  tpl: Templates,
  budget: PromptBudget,
  doc: RawDocument,
  catalog: Catalog,
  notes: string[],
  current?: CurrentEntry,
): ModelRequest {
  const { system, input } = split(tpl.combine);
  const prompt = renderTemplate(input, {
    language: languageXml(budget),
    current: current ? currentXml(current) : '',
    path: escapeXml(`raw/${doc.path}`),
    title: escapeXml(doc.title),
    parts: String(notes.length),
    notes: notes.map((n) => isolate(n)).join('\n'),
  });
  return {
    task: 'combine-source',
    templateHash: tpl.combine.hash,
    system: renderTemplate(system, {}),
    ...catalogFields(catalog, budget, [doc.path]),
    prompt,
    maxTokens: budget.maxTokens,
    cacheKey: sha256(prompt),
  };
}

/** Passages a concept request carries for one source entry. */
export interface ConceptSource {
  title: string;
  rawPath: string;
  summary: string;
  passages: string[];
}

/** A concept call quotes this many sources at most… */
export const MAX_CONCEPT_SOURCES = 12;
/** …and of each, this many passages, each cut to PASSAGE_CHARS. */
const MAX_PASSAGES = 4;
const PASSAGE_CHARS = 1500;

/** The lowercase names a concept's passages are found by: its title and aliases. */
export function conceptNames(group: { title: string; aliases: readonly string[] }): string[] {
  return [group.title, ...group.aliases].map((n) => n.toLowerCase()).filter((n) => n.length > 1);
}

/**
 * What a concept call quotes of one source: the sentences naming it (`snippets`), then the chunks
 * of the source that name it, a chunk taking the place of the snippets it holds; four at most.
 */
export function quotedPassages(
  names: readonly string[],
  snippets: readonly string[],
  chunks: readonly string[],
): string[] {
  const passages = [...snippets];
  for (const text of chunks) {
    if (passages.length >= MAX_PASSAGES) break;
    const low = text.toLowerCase();
    if (!names.some((n) => low.includes(n))) continue;
    if (passages.some((p) => text.includes(p)))
      passages.splice(0, passages.length, ...passages.filter((p) => !text.includes(p)));
    const passage = text.length > PASSAGE_CHARS ? `${text.slice(0, PASSAGE_CHARS)}…` : text;
    // A work saved in two files has each chunk twice: once is enough.
    if (!passages.includes(passage)) passages.push(passage);
  }
  return passages.slice(0, MAX_PASSAGES);
}

/** The request that writes or updates one concept entry from what its sources say. */
export function conceptRequest(
  tpl: Templates,
  budget: PromptBudget,
  group: ConceptGroup,
  sources: ConceptSource[],
  catalog: Catalog,
  current: CurrentEntry | undefined,
): ModelRequest {
  const { system, input } = split(tpl.concept);
  const sourcesXml = sources
    .map((s) => {
      const passages = s.passages.map((p) => `<passage>\n${isolate(p)}\n</passage>`).join('\n');
      return `<source_entry title="${escapeXml(s.title)}" path="${escapeXml(`raw/${s.rawPath}`)}">\n<summary>${isolate(s.summary)}</summary>\n${passages}\n</source_entry>`;
    })
    .join('\n');
  const prompt = renderTemplate(input, {
    language: languageXml(budget),
    title: escapeXml(group.title),
    aliases: group.aliases.map((a) => `<alias>${escapeXml(a)}</alias>`).join(''),
    current: current
      ? currentXml(
          current,
          sources.map((s) => `raw/${s.rawPath}`),
        )
      : '',
    sources: sourcesXml,
  });
  return {
    task: 'concept',
    templateHash: tpl.concept.hash,
    system: renderTemplate(system, {}),
    ...catalogFields(
      catalog,
      budget,
      group.mentions.map((m) => m.rawPath),
    ),
    prompt,
    maxTokens: budget.maxTokens,
    cacheKey: sha256(prompt),
  };
}

/**
 * `<current_entry>`: the entry as written last time, and for a concept which of its sources are
 * new or gone (`now`: the raw paths it is written from this time), so the reply can be the
 * smallest edit that makes it true again.
 */
export function currentXml(current: CurrentEntry, now?: readonly string[]): string {
  const changes: string[] = [];
  if (now) {
    const before = new Set(current.sources);
    const after = new Set(now);
    for (const s of now) if (!before.has(s)) changes.push(`<added_source path="${escapeXml(s)}"/>`);
    for (const s of current.sources) if (!after.has(s)) changes.push(`<removed_source path="${escapeXml(s)}"/>`);
  }
  const changed = changes.length ? `\n<changes>\n${changes.join('\n')}\n</changes>` : '';
  return `<current_entry>\n${isolate(current.text)}\n</current_entry>${changed}`;
}

/** The repair round: the original request plus the unusable reply and what was wrong with it. */
export function repairRequest(tpl: Templates, req: ModelRequest, reply: string, error: string): ModelRequest {
  const { system, input } = split(tpl.repair);
  const prompt = `${req.prompt}\n\n${renderTemplate(system, { error })}\n\n${renderTemplate(input, { reply: isolate(reply) })}`;
  return {
    ...req,
    task: `${req.task}-repair`,
    templateHash: sha256(`${req.templateHash}+${tpl.repair.hash}`),
    prompt,
    cacheKey: sha256(`${req.cacheKey ?? req.prompt}\n${prompt}`),
  };
}
