import { cutZh, isEverydayWord } from '../text/jieba.js';
import type { KbContext } from '../kb/context.js';
import { VECTORS_STALE, type ChunkRow, type EntryRow, type Store } from '../store/store.js';
import type { SearchThread } from '../store/search-thread.js';
import { sharedCounter, takeNext } from '../store/search-sql.js';
import { searchTerms } from '../text/search.js';
import { sentences } from '../text/segment.js';
import { ownReadingFirst } from './versions.js';
import { lexiconFor, translateQuestion, type TranslatedTerm } from './translate.js';
import * as EN from '../text/lang/en.js';
import { withoutInterrogatives } from '../text/lang/zh.js';

/**
 * Why a result is there: found by keywords, by meaning, by following a link from a top entry, or as
 * the version in the question's language of a work found in another (versions.ts).
 */
export type Via = 'bm25' | 'vector' | 'hop' | 'version';

export interface EntryHit {
  id: string;
  kind: string;
  title: string;
  /** Path under wiki/. */
  path: string;
  summary: string;
  sourceRef: string[];
  updated: number;
  score: number;
  via: Via[];
  /** For hop results: the top entry it was reached from. */
  hopFrom?: string;
  /** A version of a work in another language than the question's: the id of the version in the question's (versions.ts). */
  readAs?: string;
}

export interface PassageHit {
  chunkId: number;
  entryId: string;
  title: string;
  /** The raw file the passage comes from (source entries), or null (concept/answer bodies). */
  rawPath: string | null;
  heading: string;
  text: string;
  tokens: number;
  line: number;
  score: number;
  via: Via[];
}

export interface Retrieval {
  query: string;
  terms: string[];
  /** Weight of each term: its idf over the chunks (rare terms say more). */
  weights: Record<string, number>;
  /** The question's Chinese words and their surest English translations (编译器: compiler), when it searched with them. */
  renderings?: Record<string, string>;
  entries: EntryHit[];
  passages: PassageHit[];
  timings: { ftsMs: number; vectorMs: number; hopMs: number; totalMs: number };
}

export interface RetrieveOptions {
  /** Extra keyword queries (e.g. the model's Chinese + English expansion); OR-ed with the question. */
  queries?: string[];
  /** Entries to return. */
  limit?: number;
  /** Passages to return. */
  passageLimit?: number;
  /** Follow links and backlinks from the top entries (default true). */
  hop?: boolean;
  /** Use vectors (default true). */
  vectors?: boolean;
  signal?: AbortSignal | undefined;
  tuning?: Partial<Tuning>;
  /** Search with the question's translations when the wiki holds notes in the other language (default true). */
  translate?: boolean;
}

/** The knobs of ranking, tuned on the benchmark sets (bench/retrieval.ts). */
export interface Tuning {
  /** Reciprocal rank fusion constant. */
  rrfK: number;
  /** Candidates taken from each list. */
  depth: number;
  bm25Weight: number;
  vectorWeight: number;
  /** Weight of the entry-level lists (titles/summaries) against the chunk lists. */
  entryListWeight: number;
  /** Top entries the hop starts from. */
  hopSeeds: number;
  /** Share of a seed's score a linked entry inherits. */
  hopDecay: number;
  /** Neighbours taken per seed. */
  hopFanout: number;
  /** How much a passage's rank follows its entry's score. */
  entryBoost: number;
  /** Share of the hop gain for a linked entry the question's terms did not find. */
  hopUnseen: number;
  /** The entry keyword list matches titles and aliases only (summaries are in the chunks anyway). */
  titlesOnly: boolean;
  /** The passage of an entry named in the seed's best sentence comes right after the seed's passage. */
  bridgePassages: boolean;
  /** Search entry vectors (titles + summaries) as a list of their own. */
  entryVectors: boolean;
  /** Neighbours of a seed examined at most. */
  hopExamine: number;
  /** Weight of concept entries against sources and answers. */
  conceptWeight: number;
  /** Kinds of entries the hop may reach (default all). */
  hopKinds?: string[];
  /** Weight of the translated terms' BM25 against the question's own. */
  translationWeight: number;
  /** Weight of single Han characters' BM25 against words and character pairs. */
  charWeight: number;
  /** How much a Han character's weight falls when it is mostly seen inside a pair the question holds. */
  charRedundancy: number;
}

/** What search and ask say while the vectors were made by another embedder (they are not used). */
export function staleVectorsWarning(store: Store): string | undefined {
  return store.getMeta(VECTORS_STALE) === '1'
    ? 'The embedder changed: search uses keywords only until `kb compile` embeds the wiki again.'
    : undefined;
}

export const DEFAULT_TUNING: Tuning = {
  rrfK: 10,
  depth: 60,
  bm25Weight: 1,
  vectorWeight: 0.15,
  entryListWeight: 0.15,
  titlesOnly: true,
  hopSeeds: 3,
  hopDecay: 0.5,
  hopFanout: 4,
  hopUnseen: 0.6,
  hopKinds: ['source', 'answer'],
  entryBoost: 3,
  conceptWeight: 0.5,
  entryVectors: false,
  bridgePassages: true,
  hopExamine: 60,
  translationWeight: 0.7,
  charWeight: 1,
  charRedundancy: 0.85,
};

/**
 * Translations of the question when the wiki holds notes in a language it is not asked in: Chinese
 * to English when it has Han characters and there are English notes; English to Chinese when it
 * has none and there are Chinese notes.
 */
function translations(
  ctx: Pick<KbContext, 'store'> & Partial<Pick<KbContext, 'paths'>>,
  question: string,
): { terms: TranslatedTerm[]; ownLanguage: boolean } {
  if (!ctx.paths) return { terms: [], ownLanguage: true };
  const langs = ctx.store.languages();
  const han = /\p{Script=Han}/u.test(question);
  const want = {
    toEnglish: han && (langs.has('en') || langs.has('mixed')),
    toChinese: !han && /\p{L}/u.test(question) && (langs.has('zh') || langs.has('mixed')),
  };
  // Notes in the question's own language also there: they come first, translations next.
  const ownLanguage = langs.has('mixed') || (han ? langs.has('zh') : langs.has('en'));
  if (!want.toEnglish && !want.toChinese) return { terms: [], ownLanguage };
  return { terms: translateQuestion(question, lexiconFor(ctx.paths.state), ctx.store, want), ownLanguage };
}

/**
 * The query's search terms, deduplicated, English function words dropped (BM25 gives them ~0
 * anyway) and Chinese interrogatives too: 什么 and 多少 are rare in notes, so they would rank
 * passages that happen to ask something, and the sentence with the answer does not hold them.
 */
export function queryTerms(texts: string[]): string[] {
  const out = new Set<string>();
  for (const t of texts) {
    for (const term of searchTerms(withoutInterrogatives(t))) if (!EN.STOP.has(term)) out.add(term);
    // A qualified name (errors.Is, os.Open) is one term: searched as the phrase its words make in
    // the index, so a function word in it (Is, As) still counts.
    for (const q of qualifiedNames(t)) out.add(q);
  }
  if (out.size === 0) for (const t of texts) for (const term of searchTerms(t)) out.add(term);
  return [...out];
}

/** A qualified name in code: package or object, a dot, member (errors.Is, strings.Builder). */
const QUALIFIED = /(?<![\w.])([A-Za-z_]\w+)\.([A-Za-z_]\w+)(?![\w(]*\.\w)/g;

/** The qualified names a text writes, each as the phrase its words make in the index ("errors is"). */
export function qualifiedNames(text: string): string[] {
  return [...text.matchAll(QUALIFIED)].map((m) => `${m[1]} ${m[2]}`.toLowerCase());
}

/** An FTS5 MATCH expression with OR semantics: every term quoted, so no term is read as syntax. */
export function matchExpression(terms: string[]): string {
  return terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
}

/**
 * The question's Han character pairs that name nothing: words of everyday Chinese, and pairs that
 * cross two of jieba's words (a pair inside a longer word, 检测 of 检测器, is kept).
 */
export function plainPairs(question: string, terms: readonly string[]): string[] {
  const pairs = terms.filter((t) => /^\p{Script=Han}{2}$/u.test(t));
  if (!pairs.length) return [];
  const words = cutZh(question).filter((w) => w.length >= 2 && /^\p{Script=Han}+$/u.test(w));
  return pairs.filter((t) => {
    const inside = words.filter((w) => w.includes(t));
    return !inside.length || inside.every((w) => w === t && isEverydayWord(w));
  });
}

/** What a query word of everyday Chinese weighs beside the question's rarer words (retrieve). */
const EVERYDAY_WEIGHT = 0.5;

interface Ranked {
  key: number;
  rank: number;
}

function rrf(lists: { items: Ranked[]; weight: number }[], k: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const l of lists) for (const it of l.items) out.set(it.key, (out.get(it.key) ?? 0) + l.weight / (k + it.rank));
  return out;
}

type SearchCtx = Pick<KbContext, 'store' | 'embedder'> & Partial<Pick<KbContext, 'paths'>>;

/** The question's vector: its text, the queries it came with and its translations, as one. */
async function embedQuestion(
  ctx: SearchCtx,
  question: string,
  opts: RetrieveOptions,
  translated: readonly TranslatedTerm[],
): Promise<Float32Array | undefined> {
  const [v] = await ctx.embedder.embed(
    [[question, ...(opts.queries ?? []), translated.map((t) => t.match.replace(/ /g, '')).join(' ')].join('\n')],
    opts.signal,
  );
  return v;
}

/**
 * The nearest chunks, asked of the search thread now and read once the keyword lists are: from the
 * thread when it began the scan by then, else on this thread (a thread still starting up, as in a
 * command that asks once of a small store, is not waited for); here too if the thread fails.
 */
function nearestOn(store: Store, thread: SearchThread, v: Float32Array, depth: number): () => Promise<number[]> {
  const taken = sharedCounter();
  // Never awaited when this thread takes the scan, or when reading the keyword lists failed first (a damaged store).
  const there = thread.nearestChunks(v, depth, taken).catch(() => null);
  return async () => {
    if (takeNext(taken, 1) !== undefined) return store.nearestChunks(v, depth);
    return (await there) ?? store.nearestChunks(v, depth);
  };
}

/**
 * Each group's chunks (an FTS5 query each; one for groups that query the same terms), in the
 * groups' order. With a search thread both threads take the queries from one shared counter,
 * costliest first (by the rows their terms match, which the query's BM25 reads): the thread once
 * done with the vector scan it was asked first, this one at once, so neither waits while the other
 * has work. A query the thread took and failed to answer is read here.
 */
async function chunksMatching(
  store: Store,
  thread: SearchThread | undefined,
  groups: readonly string[][],
  df: ReadonlyMap<string, number>,
  depth: number,
): Promise<{ id: number; score: number }[][]> {
  const exprs = groups.map((g) => matchExpression(g));
  const matched = (g: readonly string[]) => g.reduce((n, t) => n + (df.get(t) ?? 0), 0);
  const cost = new Map(groups.map((g, i) => [exprs[i]!, matched(g)]));
  const order = [...cost.keys()].sort((a, b) => cost.get(b)! - cost.get(a)!);
  const lists = new Map<string, { id: number; score: number }[]>();
  const taken = sharedCounter();
  const there = thread && order.length > 1 ? thread.chunksMatchingShared(order, depth, taken).catch(() => []) : [];
  let here = 0;
  for (let i = takeNext(taken, order.length); i !== undefined; i = takeNext(taken, order.length)) {
    lists.set(order[i]!, store.searchChunks(order[i]!, depth));
    here++;
  }
  // Waited for only when the thread took some: one still starting up takes none, and answers later.
  if (here < order.length) for (const [i, rows] of await there) lists.set(order[i]!, rows);
  for (const e of order) if (!lists.has(e)) lists.set(e, store.searchChunks(e, depth));
  return exprs.map((e) => lists.get(e)!);
}

/**
 * Hybrid retrieval: BM25 (FTS5, OR of the terms) and vector KNN (sqlite-vec) over chunks and over
 * entry titles/summaries, fused by reciprocal rank; then one hop along links and backlinks from
 * the top entries, so that the second entry of a two-step question comes along.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one ranking pipeline whose steps (BM25 groups, vectors, fusion, one hop, language weights) share the same candidate maps and tuning; split once the retrieval work of issue 10 settles
export async function retrieve(ctx: SearchCtx, question: string, opts: RetrieveOptions = {}): Promise<Retrieval> {
  const t0 = performance.now();
  const tune: Tuning = { ...DEFAULT_TUNING, ...opts.tuning };
  const { store } = ctx;
  const limit = opts.limit ?? 10;
  const passageLimit = opts.passageLimit ?? 30;
  const terms = queryTerms([question, ...(opts.queries ?? [])]);
  const timings = { ftsMs: 0, vectorMs: 0, hopMs: 0, totalMs: 0 };

  // --- Keyword lists. Terms no chunk holds are left out, and so are terms most chunks hold
  // (FTS5's BM25 gives those no weight; their long posting lists only cost time). A question in
  // one language about notes in the other also searches with its translations (translate.ts),
  // grouped by how sure each is: a group's BM25 scores count at its weight.
  const chunkBm25: Ranked[] = [];
  const entryBm25: Ranked[] = [];
  const weights: Record<string, number> = {};
  const { terms: translated, ownLanguage } =
    opts.translate === false ? { terms: [], ownLanguage: true } : translations(ctx, question);
  // A process with a search thread (mapForSearch) embeds the question first and has the thread scan
  // the vectors while this one runs the keyword lists; both halves are the store's own searches.
  const thread = store.searchThread();
  const wantVectors = opts.vectors !== false && question.trim() !== '';
  const embedded = wantVectors && thread ? await embedQuestion(ctx, question, opts, translated) : undefined;
  const nearAsked = embedded && thread ? nearestOn(store, thread, embedded, tune.depth) : undefined;
  if (terms.length || translated.length) {
    const all = [...terms, ...translated.flatMap((t) => [t.match, ...(t.source ?? []), ...(t.edges ?? [])])];
    const { chunks: total, df } = store.termStats(all);
    const held = terms.filter((t) => (df.get(t) ?? 0) > 0);
    const useful = held.filter((t) => (df.get(t) ?? 0) <= total / 2);
    const groups = new Map<number, string[]>();
    const own = useful.length ? useful : held;
    // Single Han characters may weigh otherwise than words and character pairs.
    const single = (t: string) => t.length === 1 && /\p{Script=Han}/u.test(t);
    const share = charShares(terms, df, tune.charRedundancy);
    const words = own.filter((t) => !single(t));
    // In a Chinese question that names something in Latin letters (Go 的 recover 在实际开发中有用吗), a
    // word of everyday Chinese (实际, 开发, 有用) and a pair of characters across two words (际开, 发中)
    // weigh half: a small knowledge base makes any word rare, and notes that share only such words with
    // the question would outrank the one about what it names.
    const latin = words.some((t) => /^[a-z]/.test(t));
    const everyday = latin ? plainPairs(question, words) : [];
    const named = words.filter((t) => !everyday.includes(t));
    if (everyday.length && named.length) {
      groups.set(1, named);
      groups.set(EVERYDAY_WEIGHT, everyday);
    } else if (words.length) groups.set(1, [...words]);
    // A word the notes never write in the question's language (消息队列, where only English notes say
    // "message queue") is searched by its translation, not by its characters (消, 息, 队, 列 of other words).
    // Not where the word may be cut wrong: its characters make a word the notes hold with a neighbour (中文/件 and 文件).
    const none = (xs: string[] | undefined) => (xs ?? []).every((s) => (df.get(s) ?? 0) === 0);
    const alone = (t: TranslatedTerm) => Boolean(t.source?.length) && none(t.source) && none(t.edges);
    const translatedChars = new Set(
      translated.filter((t) => alone(t) && (df.get(t.match) ?? 0) > 0).flatMap((t) => t.source!.flatMap((s) => [...s])),
    );
    for (const t of own.filter((x) => single(x) && !translatedChars.has(x))) {
      // Quarters: each distinct weight is one more full-text query.
      const w = Math.max(0.25, Math.round(tune.charWeight * (share.get(t) ?? 1) * 4) / 4);
      (groups.get(w) ?? groups.set(w, []).get(w)!).push(t);
    }
    for (const t of terms) weights[t] = idf(total, df.get(t) ?? 0);
    for (const t of translated) {
      const n = df.get(t.match) ?? 0;
      if (n === 0 || n > total / 2) continue;
      const bucket = t.weight >= 0.75 ? 1 : t.weight >= 0.4 ? 0.5 : 0.25;
      // Half where notes in the question's language are there too (they come first). A translation
      // that stands alone (above) at full weight made confident answers unsure (eval:ask notes: 5 -> 4).
      const w = tune.translationWeight * bucket * (ownLanguage ? 0.5 : 1);
      (groups.get(w) ?? groups.set(w, []).get(w)!).push(t.match);
      // A translation's parts share its weight (its character pairs are one word, not four): a
      // sentence holding 上下文焦虑 must not outweigh one holding the question's own "context anxiety".
      const share = (idf(total, n) * t.weight) / Math.sqrt(t.parts.length);
      for (const part of t.parts) weights[part] = Math.max(weights[part] ?? 0, share);
    }
    const fused = new Map<number, number>();
    const lists = await chunksMatching(store, thread, [...groups.values()], df, tune.depth);
    // Summed in the groups' order, wherever each list was read: the same scores, bit for bit.
    [...groups.keys()].forEach((w, i) => {
      for (const r of lists[i]!) fused.set(r.id, (fused.get(r.id) ?? 0) + w * r.score);
    });
    [...fused]
      .sort((a, b) => b[1] - a[1])
      .slice(0, tune.depth)
      .forEach(([id], i) => {
        chunkBm25.push({ key: id, rank: i + 1 });
      });
    // A title that shares one Han character with the question (库 in 向量数据库) says little: titles
    // are matched by words and character pairs when the question has any.
    const titleTerms = [...terms.filter((t) => !single(t)), ...translated.map((t) => t.match)];
    const expr = matchExpression(titleTerms.length ? titleTerms : all);
    const titled = tune.titlesOnly ? `{title} : (${expr})` : expr;
    for (const [i, id] of store.searchEntries(titled, tune.depth).entries()) entryBm25.push({ key: id, rank: i + 1 });
  }
  const t1 = performance.now();
  timings.ftsMs = t1 - t0;

  // --- Vector lists.
  const chunkVec: Ranked[] = [];
  const entryVec: Ranked[] = [];
  if (wantVectors) {
    const v = embedded ?? (await embedQuestion(ctx, question, opts, translated));
    if (v) {
      const near = nearAsked ? await nearAsked() : store.nearestChunks(v, tune.depth);
      for (const [i, id] of near.entries()) chunkVec.push({ key: id, rank: i + 1 });
      if (tune.entryVectors)
        for (const [i, id] of store.nearestEntries(v, tune.depth).entries()) entryVec.push({ key: id, rank: i + 1 });
    }
  }
  const t2 = performance.now();
  timings.vectorMs = t2 - t1;

  // --- Fuse chunks; then entries from their chunks' ranks and their own lists.
  const chunkScore = rrf(
    [
      { items: chunkBm25, weight: tune.bm25Weight },
      { items: chunkVec, weight: tune.vectorWeight },
    ],
    tune.rrfK,
  );
  const chunks = new Map<number, ChunkRow>();
  const ids = [...chunkScore.keys()];
  for (const c of store.chunksByIds(ids)) chunks.set(c.id, c);
  for (const id of ids) if (!chunks.has(id)) chunkScore.delete(id);
  const rowidCache = new Map<string, number | undefined>();
  const entryRowid = (id: string): number | undefined => {
    if (!rowidCache.has(id)) rowidCache.set(id, store.entryRowid(id));
    return rowidCache.get(id);
  };
  const bestRank = (items: Ranked[]): Ranked[] => {
    const seen = new Map<number, number>();
    for (const it of items) {
      const c = chunks.get(it.key);
      if (!c) continue;
      const r = entryRowid(c.entry_id);
      if (r !== undefined && !seen.has(r)) seen.set(r, seen.size + 1);
    }
    return [...seen].map(([key, rank]) => ({ key, rank }));
  };
  const entryScore = rrf(
    [
      { items: bestRank(chunkBm25), weight: tune.bm25Weight },
      { items: bestRank(chunkVec), weight: tune.vectorWeight },
      { items: entryBm25, weight: tune.bm25Weight * tune.entryListWeight },
      { items: entryVec, weight: tune.vectorWeight * tune.entryListWeight },
    ],
    tune.rrfK,
  );
  const via = new Map<number, Set<Via>>();
  const mark = (items: Ranked[], v: Via) => {
    for (const it of items) (via.get(it.key) ?? via.set(it.key, new Set()).get(it.key)!).add(v);
  };
  mark(bestRank(chunkBm25), 'bm25');
  mark(entryBm25, 'bm25');
  mark(bestRank(chunkVec), 'vector');
  mark(entryVec, 'vector');

  const rows = new Map<number, EntryRow>();
  // Ranked without their lists of sources; the hits returned read theirs below.
  const found = store.entriesByRowids([...entryScore.keys()], false);
  for (const [rowid, sc] of entryScore) {
    const e = found.get(rowid);
    if (!e) entryScore.delete(rowid);
    else {
      rows.set(rowid, e);
      // Concept pages gather what several sources say: useful as a map, rarely the answer itself.
      if (e.kind === 'concept') entryScore.set(rowid, sc * tune.conceptWeight);
    }
  }

  // --- One hop along links and backlinks from the top entries. A linked entry inherits part of
  // its seed's score (more if the question's terms also found it), but never outranks its seed.
  const hopFrom = new Map<number, string>();
  /** Entries named in the seed's sentence that matches the question: their passage follows the seed's. */
  const bridged = new Map<number, { seed: string; ratio: number }>();
  if (opts.hop !== false && tune.hopSeeds > 0) {
    const seeds = [...entryScore].sort((a, b) => b[1] - a[1]).slice(0, tune.hopSeeds);
    const termSet = new Set(terms);
    const first = new Map(entryScore);
    // The first scores by entry id: a concept seed may have thousands of neighbours, and only these score.
    const firstById = new Map([...first].map(([r, sc]) => [rows.get(r)!.id, sc]));
    for (const [seedRow, seedScore] of seeds) {
      const seed = rows.get(seedRow)!;
      const neighbours = [...new Set([...store.linksFrom(seed.id), ...store.linksTo(seed.id)])];
      // The sentences of the seed's best passage, by how much they share with the question: a
      // link named in the sentence that matches the question is the bridge to the next entry.
      const seedChunk = bestChunkIn(seed.id, chunks, chunkScore) ?? store.chunksOfEntry(seed.id)[0];
      const said = (seedChunk ? sentences(seedChunk.text) : []).map((t) => ({
        text: t.toLowerCase(),
        overlap: new Set(searchTerms(t).filter((x) => termSet.has(x))).size,
      }));
      const mention = (row: EntryRow): number => {
        const names = [row.title, row.title.replace(/\s*\([^)]*\)\s*$/, ''), ...row.aliases]
          .map((n) => n.toLowerCase())
          .filter((n) => n.length >= 2);
        let best = 0;
        for (const x of said) if (x.overlap > best && names.some((n) => x.text.includes(n))) best = x.overlap;
        return best;
      };
      const cands: { rowid: number; row: EntryRow; own: number; overlap: number; mention: number }[] = [];
      // Ids start with their kind; a concept seed may have hundreds of backlinks, so look at a bounded number.
      const reachable = neighbours.filter(
        (nid) => !tune.hopKinds || tune.hopKinds.includes(nid.slice(0, nid.indexOf('/'))),
      );
      reachable.sort((a, b) => (firstById.get(b) ?? 0) - (firstById.get(a) ?? 0));
      for (const nid of reachable.slice(0, tune.hopExamine)) {
        const r = entryRowid(nid);
        if (r === undefined || r === seedRow) continue;
        const row = rows.get(r) ?? store.getEntry(nid, false);
        if (!row) continue;
        if (tune.hopKinds && !tune.hopKinds.includes(row.kind)) continue;
        const overlap = new Set(
          searchTerms(`${row.title} ${row.aliases.join(' ')} ${row.summary}`).filter((t) => termSet.has(t)),
        ).size;
        cands.push({ rowid: r, row, own: first.get(r) ?? 0, overlap, mention: mention(row) });
      }
      cands.sort(
        (a, b) =>
          b.mention - a.mention ||
          b.own - a.own ||
          b.overlap - a.overlap ||
          kindOrder(a.row.kind) - kindOrder(b.row.kind),
      );
      for (const [i, c] of cands.slice(0, tune.hopFanout).entries()) {
        // Named in the sentence that matches the question: right below its seed.
        const share = c.mention > 0 ? 1 : tune.hopDecay * (c.own > 0 ? 1 : tune.hopUnseen);
        const gain = seedScore * share * (c.row.kind === 'concept' ? tune.conceptWeight : 1);
        const lifted = Math.min(c.own + gain, seedScore * (0.99 - 0.01 * i));
        const had = entryScore.get(c.rowid) ?? 0;
        if (lifted <= had) continue;
        entryScore.set(c.rowid, lifted);
        if (!rows.has(c.rowid)) rows.set(c.rowid, c.row);
        if (c.own === 0 && !hopFrom.has(c.rowid)) hopFrom.set(c.rowid, seed.id);
        if (c.mention > 0 && !bridged.has(c.rowid)) bridged.set(c.rowid, { seed: seed.id, ratio: lifted / seedScore });
        (via.get(c.rowid) ?? via.set(c.rowid, new Set()).get(c.rowid)!).add('hop');
      }
    }
  }
  // A work in several languages: its version in the question's language first (versions.ts).
  const {
    standing,
    added: versionsAdded,
    readAs,
  } = ownReadingFirst(
    question,
    entryScore,
    rows,
    {
      linksFrom: (id) => store.linksFrom(id),
      linksTo: (id) => store.linksTo(id),
      rowid: entryRowid,
      entry: (id) => store.getEntry(id, false),
    },
    limit,
  );
  for (const rowid of versionsAdded) (via.get(rowid) ?? via.set(rowid, new Set()).get(rowid)!).add('version');
  const t3 = performance.now();
  timings.hopMs = t3 - t2;

  const rankedEntries = [...entryScore].sort((a, b) => b[1] - a[1]);
  const hits = rankedEntries.slice(0, limit);
  // The hits' lists of sources, read in one query (ranking read none).
  const withSources = store.entriesByRowids(hits.map(([rowid]) => rowid));
  const entries: EntryHit[] = hits.map(([rowid, score]) => {
    const e = rows.get(rowid)!;
    const hit: EntryHit = {
      id: e.id,
      kind: e.kind,
      title: e.title,
      path: e.path,
      summary: e.summary,
      sourceRef: withSources.get(rowid)?.source_ref ?? [],
      updated: e.updated,
      score: round(score),
      via: [...(via.get(rowid) ?? [])],
    };
    const from = hopFrom.get(rowid);
    if (from) hit.hopFrom = from;
    const own = readAs.get(rowid);
    if (own) hit.readAs = own;
    return hit;
  });

  // --- Passages: fused chunk score, lifted by their entry's score; hop entries bring their best chunk.
  const entryScoreById = new Map<string, number>();
  for (const [rowid, s] of entryScore) entryScoreById.set(rows.get(rowid)!.id, s);
  const chunkVia = new Map<number, Set<Via>>();
  for (const it of chunkBm25) (chunkVia.get(it.key) ?? chunkVia.set(it.key, new Set()).get(it.key)!).add('bm25');
  for (const it of chunkVec) (chunkVia.get(it.key) ?? chunkVia.set(it.key, new Set()).get(it.key)!).add('vector');
  const passScore = new Map<number, number>();
  for (const [id, s] of chunkScore) {
    const c = chunks.get(id)!;
    passScore.set(id, s + tune.entryBoost * (entryScoreById.get(c.entry_id) ?? 0));
  }
  const withChunks = new Set([...chunks.values()].map((c) => c.entry_id));
  // A hop entry, or a work's version in the question's language, brings its best passage when none was found.
  for (const rowid of [...hopFrom.keys(), ...standing]) {
    const e = rows.get(rowid)!;
    if (withChunks.has(e.id)) continue;
    const best = bestChunkOf(store, e.id, terms);
    if (!best) continue;
    chunks.set(best.id, best);
    withChunks.add(e.id);
    passScore.set(best.id, tune.entryBoost * (entryScore.get(rowid) ?? 0));
    chunkVia.set(best.id, new Set([hopFrom.has(rowid) ? 'hop' : 'version']));
  }
  if (tune.bridgePassages) {
    const bestOf = new Map<string, number>();
    for (const [id, sc] of passScore) {
      const e = chunks.get(id)!.entry_id;
      if (sc > (bestOf.get(e) ?? -Infinity)) bestOf.set(e, sc);
    }
    for (const [rowid, b] of bridged) {
      const e = rows.get(rowid)!;
      const seedBest = bestOf.get(b.seed);
      if (seedBest === undefined) continue;
      let mine: number | undefined;
      for (const [id, c] of chunks)
        if (c.entry_id === e.id && (mine === undefined || (passScore.get(id) ?? 0) > (passScore.get(mine) ?? 0)))
          mine = id;
      if (mine === undefined) {
        const best = bestChunkOf(store, e.id, terms);
        if (!best) continue;
        chunks.set(best.id, best);
        chunkVia.set(best.id, new Set(['hop']));
        mine = best.id;
      }
      passScore.set(mine, Math.max(passScore.get(mine) ?? 0, seedBest * b.ratio));
    }
  }
  const titleOf = new Map<string, string>();
  for (const e of rows.values()) titleOf.set(e.id, e.title);
  const passages: PassageHit[] = [...passScore]
    .sort((a, b) => b[1] - a[1])
    .slice(0, passageLimit)
    .map(([id, score]) => {
      const c = chunks.get(id)!;
      return {
        chunkId: c.id,
        entryId: c.entry_id,
        title: titleOf.get(c.entry_id) ?? store.getEntry(c.entry_id)?.title ?? c.entry_id,
        rawPath: c.raw_path,
        heading: c.heading,
        text: c.text,
        tokens: c.tokens,
        line: c.line,
        score: round(score),
        via: [...(chunkVia.get(id) ?? [])],
      };
    });
  timings.totalMs = performance.now() - t0;
  return { query: question, terms, weights, entries, passages, timings, ...renderingsOf(translated) };
}

function bestChunkIn(entryId: string, chunks: Map<number, ChunkRow>, score: Map<number, number>): ChunkRow | undefined {
  let best: ChunkRow | undefined;
  let bs = -Infinity;
  for (const [id, c] of chunks) {
    if (c.entry_id !== entryId) continue;
    const sc = score.get(id) ?? 0;
    if (sc > bs) {
      bs = sc;
      best = c;
    }
  }
  return best;
}

function kindOrder(kind: string): number {
  return kind === 'source' ? 0 : kind === 'answer' ? 1 : 2;
}

/** The chunk of an entry that shares the most terms with the question, else its first chunk. */
function bestChunkOf(store: Store, entryId: string, terms: string[]): ChunkRow | undefined {
  const chunks = store.chunksOfEntry(entryId);
  if (chunks.length <= 1 || !terms.length) return chunks[0];
  const want = new Set(terms);
  let best = chunks[0];
  let bs = -1;
  for (const c of chunks) {
    const n = new Set(searchTerms(`${c.heading} ${c.text}`).filter((t) => want.has(t))).size;
    if (n > bs) {
      bs = n;
      best = c;
    }
  }
  return best;
}

/**
 * The share of its weight each Han character of the question keeps. A character mostly seen inside
 * a pair the question also holds says little the pair does not (on xquad-zh, 颁 is in 6 chunks, all
 * as 颁布; 持 in 50, 30 of them as 支持), yet BM25 counts it on top of the pair, so a passage
 * repeating one of the question's words outranks one holding several of them. A character often
 * seen without the pair (名 of 闻名, matching 著名) keeps most of its weight. Measured, xquad-zh
 * answerRecall@1k misses at redundancy 0 / 0.5 / 0.65 / 0.75 / 0.85 / 0.9 / 1: 13 / 13 / 11 / 10 /
 * 10 / 10 / 11 (1 also lowers docHit5); cmrc2018 20 → 17 misses at 0.85, other sets unchanged.
 * It shapes the keyword search only: the weights that pick sentences keep each term's idf, so a
 * sentence naming a rare word (冲刺结构) still outscores one holding common ones (same recall).
 */
export function charShares(terms: string[], df: Map<string, number>, redundancy: number): Map<string, number> {
  const out = new Map<string, number>();
  const pairs = terms.filter((t) => t.length === 2 && /^\p{Script=Han}{2}$/u.test(t));
  for (const t of terms) {
    const n = df.get(t) ?? 0;
    if (t.length !== 1 || !/\p{Script=Han}/u.test(t) || !n) continue;
    const inPair = Math.max(0, ...pairs.filter((p) => p.includes(t)).map((p) => df.get(p) ?? 0));
    out.set(t, 1 - redundancy * Math.min(1, inPair / n));
  }
  return out;
}

/** BM25's idf, kept positive (a term most chunks hold still says a little). */
export function idf(total: number, df: number): number {
  return Math.log(1 + (total - df + 0.5) / (df + 0.5));
}

function round(x: number): number {
  return Math.round(x * 1e5) / 1e5;
}

/** The surest English rendering of each Chinese word of the question (weight ≥ 0.75): what a statement may call it. */
function renderingsOf(translated: readonly TranslatedTerm[]): { renderings?: Record<string, string> } {
  const best = new Map<string, TranslatedTerm>();
  for (const t of translated) {
    if (!t.from || t.weight < 0.75 || !/^[a-z]/i.test(t.match)) continue;
    const had = best.get(t.from);
    if (!had || had.weight < t.weight) best.set(t.from, t);
  }
  return best.size ? { renderings: Object.fromEntries([...best].map(([w, t]) => [w, t.match])) } : {};
}
