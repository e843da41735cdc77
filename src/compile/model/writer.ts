import { checkSourceEntry } from './check-source.js';
import { updateOrCached } from './current.js';
import { cleanEntry, echoedTemplate, type WrittenLanguage, wrongLanguage } from './clean.js';
import type { KbContext } from '../../kb/context.js';
import type { KbMessage } from '../../diagnostics/message.js';
import { message } from '../../diagnostics/message.js';
import { InterruptedError, KbError } from '../../diagnostics/errors.js';
import {
  BudgetExceededError,
  ModelUnavailableError,
  requestKey,
  type ModelClient,
  type ModelRequest,
} from '../../model/client.js';
import { apiFailure as failureOf, isAbortError, isTransient, type ApiFailure } from '../../model/errors.js';
import { describeEndpoint, type ProviderSettings } from '../../model/provider.js';
import { escapeXml, parseKbEntry, type KbEntryXml } from '../../model/xml.js';
import { sentences } from '../../text/segment.js';
import { safeFileName } from '../../entry/names.js';
import { stem } from '../../ingest/detect.js';
import { fileOf } from '../../ingest/posts.js';
import type { RawDocument } from '../../types.js';
import { OfflineWriter, offlineConcept, offlineSource } from '../offline/writer.js';
import type { Catalog, ConceptDraft, ConceptGroup, CurrentEntry, EntryWriter, SourceDraft } from '../types.js';
import {
  combineRequest,
  conceptNames,
  conceptRequest,
  MAX_CONCEPT_SOURCES,
  loadTemplates,
  modelReads,
  modelWriterName,
  promptBudget,
  quotedPassages,
  repairRequest,
  sourceParts,
  sourceRequest,
  type ConceptSource,
  type PromptBudget,
  type Templates,
} from './prompts.js';

/** The language wiki.language asks for, as a reply is checked against it; undefined for `auto`. */
function setLanguage(budget: PromptBudget): WrittenLanguage | undefined {
  const l = budget.language;
  return l === 'en' ? 'en' : l === 'zh' || l === 'zh-TW' ? 'zh' : undefined;
}

/** The largest max_tokens a cut-off reply is retried with. */
const MAX_RETRY_TOKENS = 32_000;

export interface AskResult {
  entry?: KbEntryXml;
  error?: string;
  /** The failure was the API (network, server), not the reply: worth trying again later. */
  transient?: boolean;
}

/**
 * The model compiler: Claude writes source and concept entries from templates, with the catalog
 * of existing entries. Every reply is checked (parsed, validated); a bad one gets one repair round,
 * then the document falls back to the offline compiler with a diagnostic.
 */
export class ModelWriter implements EntryWriter {
  readonly name: string;
  readonly templates: Templates;
  /** Raw paths whose model call failed for a transient reason: compile them again next time. */
  readonly retryLater = new Set<string>();
  readonly fallbacks = new Set<string>();
  private readonly summaries = new Map<string, string>();
  /**
   * Requests that failed for a transient reason in this run (a timeout, an outage): asked again by
   * the next compile, not a second time in this one (the prefetch and the compile would otherwise
   * each wait out the whole timeout).
   */
  private readonly unavailable = new Map<string, AskResult>();
  /**
   * Requests whose replies failed their checks in this round: never cached (the next compile asks
   * again), but not paid for twice in one (the prefetch and the compile both ask).
   */
  private readonly rejected = new Map<string, AskResult>();
  /** Sized for the model of source entries (a small local model gets smaller parts). */
  readonly budget: PromptBudget;

  constructor(
    private readonly ctx: KbContext,
    readonly client: ModelClient,
  ) {
    this.templates = loadTemplates(ctx.paths.root);
    this.name = modelWriterName(client.model, this.templates);
    this.budget = promptBudget(ctx.config, (client.settingsFor?.('compile-source') ?? client.settings)?.contextTokens);
  }

  /** A new round of compiling (watch keeps one writer): what failed in the last round is asked again. */
  startRound(): void {
    this.unavailable.clear();
    this.rejected.clear();
  }

  async writeSource(
    doc: RawDocument,
    catalog: Catalog,
    signal?: AbortSignal,
    current?: CurrentEntry,
  ): Promise<{ draft: SourceDraft; messages: KbMessage[] }> {
    const offline = offlineSource(doc);
    if (!modelReads(doc)) return { draft: { ...offline, compiledBy: this.name }, messages: [] };
    const file = `raw/${doc.path}`;
    const parts = sourceParts(doc, this.budget.partTokens);
    let res: AskResult;
    const check = (e: KbEntryXml) => this.checkSource(e, doc);
    if (parts.length === 1) {
      res = await this.ask(
        this.updateOrCached(
          (c) => sourceRequest(this.templates, this.budget, doc, catalog, undefined, c),
          current,
          check,
        ),
        check,
        signal,
      );
    } else {
      const notes = await Promise.all(
        parts.map((text, i) =>
          this.ask(
            sourceRequest(this.templates, this.budget, doc, catalog, { n: i + 1, of: parts.length, text }),
            () => undefined,
            signal,
          ),
        ),
      );
      const bad = notes.findIndex((n) => !n.entry);
      if (bad >= 0)
        res = {
          error: `part ${bad + 1} of ${parts.length}: ${notes[bad]!.error ?? ''}`,
          ...(notes[bad]!.transient ? { transient: true } : {}),
        };
      else
        res = await this.ask(
          this.updateOrCached(
            (c) =>
              combineRequest(
                this.templates,
                this.budget,
                doc,
                catalog,
                notes.map((n) => entryXml(n.entry!)),
                c,
              ),
            current,
            check,
          ),
          check,
          signal,
        );
    }
    if (!res.entry) return { draft: offline, messages: [this.fallback(file, res)] };
    const e = res.entry;
    const sourceSection =
      offline.body.indexOf('## Source') >= 0 ? offline.body.slice(offline.body.indexOf('## Source')) : '';
    const draft: SourceDraft = {
      title: e.title,
      aliases: withOwnTitle(e, doc),
      summary: e.summary,
      body: [cleanBody(e.body, e.title), sourceSection].filter(Boolean).join('\n\n'),
      entities: entityMentions(doc.markdown, e.entities),
      compiledBy: this.name,
    };
    this.summaries.set(doc.path, e.summary);
    return { draft, messages: [] };
  }

  async writeConcept(
    group: ConceptGroup,
    catalog: Catalog,
    signal?: AbortSignal,
  ): Promise<{ draft: ConceptDraft; messages: KbMessage[] }> {
    const sources = this.conceptSources(group);
    const titles = sources.map((s) => s.title);
    const req = conceptRequest(this.templates, this.budget, group, sources, catalog, group.current);
    const want = setLanguage(this.budget);
    const res = await this.ask(
      req,
      (e) => checkCitations(e, titles) ?? (want ? wrongLanguage(e, want) : undefined),
      signal,
    );
    if (!res.entry) {
      const file = `wiki/concepts/${safeFileName(group.title)}.md`;
      return { draft: offlineConcept(group), messages: [this.fallback(file, res)] };
    }
    const e = res.entry;
    // An alias the model adds must not name another entry: aliases merge concepts in later compiles.
    const own = new Set([group.title, ...group.aliases].map((a) => a.toLowerCase()));
    const others = new Set(
      catalog.entries
        .flatMap((c) => [c.title, ...c.aliases])
        .map((a) => a.toLowerCase())
        .filter((a) => !own.has(a)),
    );
    const seen = new Set([group.title.toLowerCase()]);
    const aliases: string[] = [];
    for (const a of [...group.aliases, ...e.aliases.filter((x) => !others.has(x.toLowerCase()))]) {
      if (seen.has(a.toLowerCase())) continue;
      seen.add(a.toLowerCase());
      aliases.push(a);
    }
    return {
      draft: {
        title: group.title,
        aliases,
        summary: e.summary,
        body: cleanBody(e.body, group.title),
        compiledBy: this.name,
      },
      messages: [],
    };
  }

  /** The request that writes a source's entry (current.ts updateOrCached), with this client's cache. */
  private updateOrCached(
    make: (current: CurrentEntry | undefined) => ModelRequest,
    current: CurrentEntry | undefined,
    check: (e: KbEntryXml) => string | undefined,
  ): ModelRequest {
    return updateOrCached(make, current, (r) => this.client.isCached?.({ ...r, keep: keepReply(check) }) ?? false);
  }

  /** A source entry's checks: REVIEW.md's (check-source.ts), then its language. */
  private checkSource(e: KbEntryXml, doc: RawDocument): string | undefined {
    const problem = checkSourceEntry(e, doc);
    if (problem) return problem;
    const set = setLanguage(this.budget);
    if (set) return wrongLanguage(e, set);
    // A work's own language: a title the work itself gives (not a file name) in the same script.
    const own = doc.lang === 'mixed' ? undefined : doc.lang;
    return own ? wrongLanguage(e, own, doc.title) : undefined;
  }

  private fallback(file: string, res: AskResult): KbMessage {
    this.fallbacks.add(file);
    // Nothing failed is cached: the next compile asks the model again for this source.
    if (file.startsWith('raw/')) this.retryLater.add(file.slice(4));
    return message(
      file,
      res.transient ? 'model-unavailable' : 'model-output',
      `${res.error ?? 'Unexpected model failure'}; used the offline compiler for this entry`,
      {
        severity: 'warning',
        note: res.transient
          ? 'the next `kb compile` tries the model again'
          : `${file.startsWith('raw/') ? 'the next `kb compile` asks the model again; if it fails again, ' : ''}${weakModelNote(this.client.settings)}`,
      },
    );
  }

  /** What each source says about the concept: its summary and passages naming it. */
  private conceptSources(group: ConceptGroup): ConceptSource[] {
    const names = conceptNames(group);
    return group.mentions.slice(0, MAX_CONCEPT_SOURCES).map((m) => ({
      title: m.sourceTitle,
      rawPath: m.rawPath,
      summary: this.summaries.get(m.rawPath) ?? this.ctx.store.getEntry(m.sourceId)?.summary ?? '',
      passages: quotedPassages(
        names,
        m.snippets,
        this.ctx.store.chunksOfEntry(m.sourceId).map((c) => c.text),
      ),
    }));
  }

  /**
   * One checked answer: the call, a retry with more room when the reply was cut at max_tokens,
   * and one repair round when the reply does not parse or fails the check.
   */
  async ask(
    request: ModelRequest,
    check: (e: KbEntryXml) => string | undefined,
    signal?: AbortSignal,
  ): Promise<AskResult> {
    const key = requestKey(this.client.model, request);
    const known = this.rejected.get(key);
    if (known) return known;
    // A reply that fails its checks is never kept: the next compile (or --force) asks again rather
    // than replaying it. A reply cut at max_tokens is kept: it leads to the call with more room.
    const req: ModelRequest = { ...request, keep: keepReply(check) };
    const res = await this.checkedAnswer(req, check, signal);
    if (!res.entry && !res.transient) this.rejected.set(key, res);
    return res;
  }

  private async checkedAnswer(
    req: ModelRequest,
    check: (e: KbEntryXml) => string | undefined,
    signal?: AbortSignal,
  ): Promise<AskResult> {
    const first = await this.call(req, signal);
    if (typeof first !== 'string') return first;
    const parsed = checked(first, check);
    if (parsed.entry) return parsed;
    const repaired = await this.call(repairRequest(this.templates, req, first, parsed.error!), signal);
    if (typeof repaired !== 'string') return repaired;
    const again = checked(repaired, check);
    if (again.entry) return again;
    return { error: `Unexpected model output twice (${parsed.error}; after repair: ${again.error})` };
  }

  /** The reply text, or why there is none. */
  private async call(req: ModelRequest, signal?: AbortSignal): Promise<string | AskResult> {
    const key = requestKey(this.client.model, req);
    const failed = this.unavailable.get(key);
    if (failed) return failed;
    let res: Awaited<ReturnType<ModelClient['complete']>>;
    try {
      res = await this.client.complete(req, signal);
      if (res.stopReason === 'max_tokens') {
        const more = Math.min(MAX_RETRY_TOKENS, (req.maxTokens ?? this.ctx.config.model.maxTokens) * 2);
        const keep = req.keep;
        // Cut again with more room: not kept, so the next compile asks again.
        const retry: ModelRequest = {
          ...req,
          maxTokens: more,
          keep: (r) => r.stopReason !== 'max_tokens' && (keep?.(r) ?? true),
        };
        if (more > (req.maxTokens ?? 0)) res = await this.client.complete(retry, signal);
      }
    } catch (err) {
      const failure = apiFailure(err, this.client.settingsFor?.(req.task) ?? this.client.settings, signal);
      if (failure.transient) this.unavailable.set(key, failure);
      return failure;
    }
    if (res.stopReason === 'max_tokens') {
      return {
        error: `Unexpected reply cut off at max_tokens (${req.maxTokens ?? this.ctx.config.model.maxTokens}, then retried with more), expected a complete <kb_entry>`,
      };
    }
    return res.text;
  }
}

/** The replies the cache keeps: one that passes its checks, or one cut at max_tokens (it leads to the call with more room). */
function keepReply(check: (e: KbEntryXml) => string | undefined): NonNullable<ModelRequest['keep']> {
  return (r) => r.stopReason === 'max_tokens' || checked(r.text, check).entry !== undefined;
}

function checked(text: string, check: (e: KbEntryXml) => string | undefined): AskResult {
  const p = parseKbEntry(text);
  if (!p.ok) return { error: p.error };
  const entry = cleanEntry(p.value);
  const problem = echoedTemplate(entry) ?? check(entry);
  return problem ? { error: problem } : { entry };
}

/** Errors that must stop the compile are thrown; the rest become a fallback for one entry. */
function apiFailure(err: unknown, settings: ProviderSettings | undefined, signal?: AbortSignal): AskResult {
  if (err instanceof BudgetExceededError || err instanceof KbError) throw err;
  if (signal?.aborted || isAbortError(err)) {
    throw new InterruptedError(
      'Compile interrupted; run `kb compile` again to finish (model replies received so far are cached).',
    );
  }
  if (err instanceof ModelUnavailableError) return { error: `Unexpected ${err.message}`, transient: true };
  const f = failureOf(err);
  if (!f) throw err;
  const api =
    settings && settings.kind !== 'anthropic'
      ? `${settings.label} at ${describeEndpoint(settings)}`
      : 'the Anthropic API';
  const keyEnv = settings?.keyEnv ?? 'ANTHROPIC_API_KEY';
  const status = f.status;
  if (status === 401 || status === 403) {
    throw new KbError(
      `${cap(api)} refused the key (HTTP ${status}); check ${keyEnv}, or run \`kb compile --offline\`.`,
    );
  }
  if (status === 404) {
    const model = settings && settings.kind !== 'anthropic' ? ` "${settings.model}"` : '';
    throw new KbError(
      `${cap(api)} does not know the model${model} (HTTP 404); check model.name in kb.config.json${settings?.local ? ' (pulled or loaded on the server?)' : ''}.`,
    );
  }
  return { error: failureReason(f, api), transient: isTransient(f) };
}

/** One line on a call that failed after its retries, naming the API: "No answer from DeepSeek at … after retries (…)". */
export function failureReason(f: ApiFailure, api: string): string {
  if (f.code === 'malformed' || f.code === 'cut')
    return `Unexpected reply from ${api} after retries (${f.detail}), expected a complete reply`;
  if (f.status === undefined) {
    const said = f.detail.replace(/\.$/, '');
    return `No answer from ${api} after retries (${f.code && !said.includes(f.code) ? `${said}: ${f.code}` : said})`;
  }
  return `${cap(api)} answered HTTP ${f.status} after retries`;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function weakModelNote(s: ProviderSettings | undefined): string {
  const base = 'edit the template or run `kb compile --force` after changing the model';
  if (!s || s.kind === 'anthropic') return base;
  return `${base}; a small model may not follow the <kb_entry> format: try a larger one, or a stronger one for sources in model.tasks`;
}

/**
 * The entry's aliases, with the work's own title when the entry is titled in another script (a
 * wiki.language that translates titles): a reader still finds the work by the name it gives
 * itself. Not a title taken from the file name, which the work does not give.
 */
export function withOwnTitle(e: KbEntryXml, doc: Pick<RawDocument, 'path' | 'post' | 'title'>): string[] {
  const own = doc.title.trim();
  const han = (s: string) => /\p{Script=Han}/u.test(s);
  if (!/[A-Za-z\p{Script=Han}]/u.test(own) || han(own) === han(e.title) || own === stem(fileOf(doc))) return e.aliases;
  const names = new Set([e.title, ...e.aliases].map((a) => a.toLowerCase()));
  return names.has(own.toLowerCase()) ? e.aliases : [...e.aliases, own];
}

/** A `<kb_entry>` as XML again (part notes handed to the combine step). */
export function entryXml(e: KbEntryXml): string {
  const aliases = e.aliases.map((a) => `<alias>${escapeXml(a)}</alias>`).join('');
  const ents = e.entities
    .map(
      (x) =>
        `<entity name="${escapeXml(x.name)}" kind="${escapeXml(x.kind)}">${x.aliases.map((a) => `<alias>${escapeXml(a)}</alias>`).join('')}</entity>`,
    )
    .join('');
  return `<kb_entry>\n<title>${escapeXml(e.title)}</title>\n<aliases>${aliases}</aliases>\n<summary>${escapeXml(e.summary)}</summary>\n<entities>${ents}</entities>\n<body>\n${escapeXml(e.body)}\n</body>\n</kb_entry>`;
}

/**
 * The model's Markdown made safe to place in an entry: no `# Title` (kb writes it), no kb markers
 * (kb owns the sections between them), no raw HTML comments that could hide them.
 */
export function cleanBody(body: string, title: string): string {
  let b = body.replace(/\r\n?/g, '\n').trim();
  const h1 = /^#\s+(.+)\n/.exec(b);
  if (h1 && h1[1]!.trim().toLowerCase() === title.toLowerCase()) b = b.slice(h1[0].length).trim();
  b = b.replace(/^#\s+/gm, '## ');
  b = b.replace(/<!--\s*\/?kb:[^>]*-->/g, '');
  return b.trim();
}

/** A concept entry must cite its sources: at least one `[[Source Title]]` of those given. */
export function checkCitations(e: KbEntryXml, sourceTitles: string[]): string | undefined {
  const cited = new Set(
    [...e.body.matchAll(/\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]/g)].map((m) => m[1]!.trim().toLowerCase()),
  );
  if (sourceTitles.some((t) => cited.has(t.toLowerCase()))) return undefined;
  return `Unexpected <body> without citations, expected every factual paragraph to cite its source as [[Source Title]] with one of: ${sourceTitles.map((t) => `[[${t}]]`).join(', ')}`;
}

/** Entities the model named, with how often and where the document mentions them. */
export function entityMentions(markdown: string, named: KbEntryXml['entities']): SourceDraft['entities'] {
  const sents = sentences(markdown.replace(/```[\s\S]*?```/g, ' ')).filter((s) => s.length >= 20 && !/^#+\s/.test(s));
  return named.map((e) => {
    const names = [e.name, ...e.aliases].map((n) => n.toLowerCase()).filter((n) => n.length > 1);
    const hits = sents.filter((s) => {
      const low = s.toLowerCase();
      return names.some((n) => low.includes(n));
    });
    return {
      name: e.name,
      aliases: e.aliases,
      count: Math.max(1, hits.length),
      snippets: hits.slice(0, 3).map((s) => (s.length > 300 ? `${s.slice(0, 297)}…` : s)),
    };
  });
}

export { OfflineWriter };
