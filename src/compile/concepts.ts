import { WEIGHTS } from './offline/weights.js';
import * as EN from '../text/lang/en.js';
import type { EntryId } from '../types.js';
import { byRawPath } from './works.js';
import { snippetHeading } from './types.js';
import type { DocumentRow, EntityRow } from '../store/store.js';
import { type LoadedEntry, keptAliases } from '../entry/wiki.js';
import { entityKey, makeEntryId } from '../entry/names.js';
import { foldText, hasTraditional, mainlandWord } from '../text/fold.js';
import { glossedSenses, usedAlike, withSenses, wordForms } from './glossed-senses.js';
import { isCommonEnglishWord, isKnownEnglishWord } from '../text/english-words.js';
import { baseForm } from '../text/lexicon.js';
import { alignOutlines, outlineHeadings } from '../text/outline.js';
import { tagZh } from '../text/jieba.js';
import { calledByKind } from './called-kind.js';
import { headingNamePairs, rowsByDoc } from './heading-names.js';
import { alignedByParagraphs, clearlyBest, type VersionSides } from './aligned-paragraphs.js';
import type { ConceptPlan } from '../emit/types.js';

/** A concept shared by several sources, as the store knows it; `id` when the wiki has an entry for it. */
export type PlannedConcept = Omit<ConceptPlan, 'id'> & { id?: EntryId };

/** Each concept with its entry id: the existing concept entry's, else a new one (added to `takenIds`). */
export function withConceptIds(
  groups: readonly PlannedConcept[],
  existing: readonly LoadedEntry[],
  takenIds: Set<string>,
): ConceptPlan[] {
  const kinds = new Map(existing.map((e) => [e.fm.id as string, e.fm.kind]));
  return groups.map((g) => {
    if (g.id && kinds.get(g.id) === 'concept') return { ...g, id: g.id };
    const id = makeEntryId('concept', g.title, (x) => takenIds.has(x));
    takenIds.add(id);
    return { ...g, id };
  });
}

class UnionFind {
  private parent = new Map<string, string>();
  find(x: string): string {
    let p = this.parent.get(x) ?? x;
    if (p !== x) {
      p = this.find(p);
      this.parent.set(x, p);
    }
    return p;
  }
  union(a: string, b: string): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent.set(rb, ra);
  }
  /**
   * `find` for rows in name order (allEntities gives them so): a run of rows of one name is looked
   * up once. For use while no union is made.
   */
  finder(): (x: string) => string {
    let last: string | undefined;
    let root = '';
    return (x) => {
      if (x !== last) {
        last = x;
        root = this.find(x);
      }
      return root;
    };
  }
}

/** English → its usual Chinese translation (CC-CEDICT), for names that no text pairs. */
export type Translate = (englishKey: string) => string | undefined;

/** CC-CEDICT as concept merging reads it (src/text/lexicon.ts), for names that no text pairs. */
export interface Dictionary {
  /** The usual Chinese for an English name (a lowercase key), when the dictionary has one. */
  chinese: Translate;
  /** The English words a Chinese word translates to, lowercase and singular. */
  english(word: string): readonly string[];
  /** A run of Han characters cut into dictionary words. */
  words(run: string): string[];
}

/** A short all-capitals name: stands for a longer one, and may stand for two (IdP, CR). */
function isAbbreviation(name: string): boolean {
  return /^[A-Z][A-Za-z0-9]{0,7}$/.test(name) && /[A-Z].*[A-Z]|^[A-Z]{2,}/.test(name) && name.length <= 8;
}

/** Vendors whose name is often left off a product's (Microsoft Azure is Azure). */
const VENDOR =
  /^(?:microsoft|google|amazon|aws|apple|meta|anthropic|openai|ibm|oracle|adobe|apache|mozilla|nvidia) (\S+)$/;

/**
 * Aliases that tie nothing together: an abbreviation given for two different Latin names in
 * different documents (IdP for "identity provider" and for something else: each name keeps its own
 * page), and a Chinese gloss given to many different names ("Interfaces（中文版）", "Generics（中文版）":
 * a link to a translation beside every reference, not a translation of any).
 */
function ambiguousAliases(entities: EntityRow[]): { ambiguous: Set<string>; labels: Set<string> } {
  const expansions = new Map<string, Set<string>>();
  const glossed = new Map<string, Set<string>>();
  for (const e of entities) {
    if (!/[a-z]/i.test(e.key) || /[\u3400-\u9fff]/.test(e.key)) continue;
    for (const a of e.aliases) {
      const byAlias = isAbbreviation(a) ? expansions : HAN.test(a) ? glossed : undefined;
      if (!byAlias) continue;
      const ak = entityKey(a);
      (byAlias.get(ak) ?? byAlias.set(ak, new Set()).get(ak)!).add(e.key);
    }
  }
  const labels = namingAtLeast(glossed, WEIGHTS.LABEL_GLOSS_NAMES);
  const twoMeanings = [...expansions].filter(([, keys]) => !oneExpansion([...keys])).map(([k]) => k);
  return { ambiguous: new Set([...twoMeanings, ...labels]), labels };
}

/**
 * Expansions of one abbreviation that say the same words, some cut short ("multi page app" and
 * "multi page application" for MPA; "config file" and "configuration file"): one meaning. "Identity
 * Provider" and "Interface Description Package" (IdP) are two.
 */
function oneExpansion(keys: readonly string[]): boolean {
  const [first, ...rest] = keys.map((k) => k.split(' '));
  return rest.every(
    (words) =>
      words.length === first!.length &&
      words.every((w, i) => {
        const o = first![i]!;
        return w === o || (Math.min(w.length, o.length) >= 3 && (w.startsWith(o) || o.startsWith(w)));
      }),
  );
}

/** The aliases given to at least `n` different names. */
function namingAtLeast(names: ReadonlyMap<string, ReadonlySet<string>>, n: number): Set<string> {
  return new Set([...names].filter(([, s]) => s.size >= n).map(([k]) => k));
}

/**
 * Concepts from the entities of every document: names that are the same concept are merged into
 * one group — case, plural, Traditional/Simplified spelling (in the key), a translation or an
 * abbreviation a text gives in parentheses, the dictionary translation (`dict`: of the whole name or word by word), a role
 * name and the same name with 智能体/agent after it, a vendor's
 * name left off — never because one name is part of a longer one. A group mentioned by at least
 * `minSources` works becomes a concept (versions of one work, such as an article and its
 * translation, count once: versionsOfWorks), and so does one a single work introduces or stresses
 * (salient) and keeps coming back to. Existing concept entries keep their title and id.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: merging names into groups, then titles, aliases and mentions for each group, over shared union-find tables
export function groupConcepts(
  found: EntityRow[],
  docs: DocumentRow[],
  minSources: number,
  maxConcepts: number,
  existing: LoadedEntry[],
  dict?: Dictionary,
  /** Told which documents are versions of one work (raw path → its first version's), as grouping found them. */
  onWorks?: (workOf: ReadonlyMap<string, string>) => void,
  /** Where each name of a document stands among its paragraphs (Store.placesOf), for rows that do not carry it. */
  placesOf?: (rawPath: string) => ReadonlyMap<string, string>,
): PlannedConcept[] {
  const okDocs = firstCopies(docs);
  const entities = dict ? found.filter((e) => !partlyGlossed(e, dict)).map((e) => withoutGlosses(e, dict)) : found;
  const uf = new UnionFind();
  // Everyday words (weak rows) join a concept that other names make, never make one: their ties wait
  // until the names' own are made, and a weak word then joins the one concept its ties lead to.
  const strongRows = entities.filter((e) => !e.weak);
  const strongKeys = new Set<string>();
  for (const e of strongRows) {
    strongKeys.add(e.key);
    for (const a of e.aliases) strongKeys.add(entityKey(a));
  }
  const deferred: [string, string][] = [];
  const tie = (a: string, b: string) => {
    if (strongKeys.has(a) && strongKeys.has(b)) uf.union(a, b);
    else deferred.push([a, b]);
  };
  // The rows of the documents grouped (a copy's are left out): looked up once, not in every pass.
  const okRows = entities.every((e) => okDocs.has(e.raw_path))
    ? entities
    : entities.filter((e) => okDocs.has(e.raw_path));
  const surfaces = new Map<string, Map<string, number>>();
  const { ambiguous, labels } = ambiguousAliases(entities);
  for (const e of okRows) {
    let s = surfaces.get(e.key);
    if (!s) {
      s = new Map<string, number>();
      surfaces.set(e.key, s);
    }
    s.set(e.surface, (s.get(e.surface) ?? 0) + 1);
    for (const a of e.aliases) {
      const ak = entityKey(a);
      if (!ak || ak === e.key) continue;
      if (!ambiguous.has(ak)) tie(e.key, ak);
      const sa = surfaces.get(ak) ?? new Map<string, number>();
      sa.set(a, (sa.get(a) ?? 0) + 0.5);
      surfaces.set(ak, sa);
    }
  }
  // Names written by works in Traditional script: Taiwan's words, though some hold no Traditional character (伺服器, 命令列).
  const share = traditionalShare(okRows, () => true);
  const taiwan = new Set<string>();
  for (const e of entities)
    if (HAN.test(e.surface) && !hasTraditional(e.surface) && share(e.raw_path) >= WEIGHTS.TAIWAN_SHARE)
      taiwan.add(e.surface);
  // 智慧體 and 智能体, 上下文視窗 and 上下文窗口, 伺服器 and 服务器: Taiwan and Mainland words for one thing.
  const asMainland = new Map<string, string>();
  for (const [k, written] of surfaces)
    for (const w of written.keys()) {
      const mainland = hasTraditional(w) || taiwan.has(w) ? entityKey(mainlandWord(w, { taiwan: true })) : k;
      if (mainland === k) continue;
      if (surfaces.has(mainland)) tie(k, mainland);
      if (!asMainland.has(mainland)) asMainland.set(mainland, k);
    }
  for (const k of surfaces.keys()) {
    const vendor = VENDOR.exec(k)?.[1];
    if (vendor && surfaces.has(vendor)) tie(k, vendor);
    // The dictionary's Chinese for an English name, as Mainland or Taiwan writes it (server: 服务器, 伺服器).
    const zh = dict && /^[a-z][a-z -]{3,}$/.test(k) ? entityKey(dict.chinese(k) ?? '') : '';
    // Through Taiwan's word only for a name written in lowercase somewhere: Windows, always
    // capitalised, is a product, not the plural of window (視窗, Taiwan's 窗口).
    const lower = [...surfaces.get(k)!.keys()].some((w) => /^[a-z]/.test(w));
    const written = zh && (surfaces.has(zh) ? zh : lower ? asMainland.get(zh) : undefined);
    if (written) tie(written, k);
  }
  if (dict) for (const [zh, en] of wordByWord([...surfaces.keys()], dict)) tie(zh, en);
  for (const [named, role] of roleAgents(surfaces)) tie(role, named);
  for (const [name, kind] of namesOfKind(surfaces.keys(), strongKeys)) tie(name, kind);
  for (const [gerund, base] of gerunds(surfaces)) tie(base, gerund);
  for (const [open, closed] of closedCompounds(surfaces)) tie(closed, open);
  // Existing concept entries tie their aliases together too, so a person's (or a model's) alias merges
  // names; the offline compiler's own are made again from the sources each run, so an older kb's
  // mistake (云端 as a name of Firestore) is not kept.
  const existingByKey = new Map<string, LoadedEntry>();
  for (const c of existing) {
    if (c.fm.kind !== 'concept') continue;
    const keys = [c.fm.title, ...keptAliases(c)].map(entityKey);
    for (const k of keys) existingByKey.set(k, c);
    for (const k of keys.slice(1)) if (surfaces.has(k) && surfaces.has(keys[0]!)) tie(keys[0]!, k);
  }

  const workOf = versionsOfWorks(strongRows, okDocs, uf.finder());
  onWorks?.(workOf);
  // A translation's title word that is no subject of the original's title (工程师 beside "Engineer")
  // is not the work's subject either.
  const demoted = new Set<string>();
  for (const [a, b] of alignedSubjects(strongRows, okDocs, workOf, uf.finder(), dict, demoted)) tie(a, b);
  for (const [a, b] of alignedHeadings(okDocs, workOf, strongRows, dict))
    if (surfaces.has(a) && surfaces.has(b)) tie(a, b);
  for (const [a, b] of alignedBySections(strongRows, okDocs, workOf)) tie(a, b);
  const versions = versionSides(entities, okDocs, workOf);
  for (const [a, b] of alignedByParagraphs(strongRows, versions, placesOfRows(entities, placesOf))) tie(a, b);
  if (dict) {
    // The senses the texts' own glosses teach (倉庫: repository) join compounds of their words too.
    const alike = usedAlike(entities, okDocs, workOf);
    const senses = glossedSenses(entities, dict, (zh, en) => surfaces.has(en) && alike(zh, en));
    const taught = withSenses(dict, senses);
    // Word by word again, only for the Chinese names holding a word a gloss taught (the rest were matched above).
    const heads = [...senses.keys()];
    const again = [...surfaces.keys()].filter((k) => !HAN.test(k) || heads.some((h) => k.includes(h)));
    if (heads.length) for (const [zh, en] of wordByWord(again, taught)) tie(zh, en);
    for (const [a, b] of alignedWords(entities, okDocs, workOf, taught, strongKeys)) tie(a, b);
    for (const [a, b] of calledByKind([...surfaces.keys()], (k) => uf.find(k), dict)) tie(a, b);
  }
  attachWeak(uf, deferred, strongKeys);
  // Versions of one work (an article and its translations) count once.
  const workOfPath = (p: string) => workOf.get(p) ?? p;
  const rootOf = uf.finder();
  const hopeless = hopelessGroups(okRows, okDocs.size, rootOf, workOfPath);
  const groups = new Map<string, { keys: Set<string>; byDoc: Map<string, EntityRow[]> }>();
  for (const e of okRows) {
    const root = rootOf(e.key);
    if (hopeless.has(root)) continue;
    let g = groups.get(root);
    if (!g) {
      g = { keys: new Set(), byDoc: new Map() };
      groups.set(root, g);
    }
    g.keys.add(e.key);
    for (const a of e.aliases) if (!ambiguous.has(entityKey(a))) g.keys.add(entityKey(a));
    const list = g.byDoc.get(e.raw_path) ?? [];
    list.push(e);
    g.byDoc.set(e.raw_path, list);
  }

  // A name that is already a source entry's title needs no concept entry: links go to the source.
  const sourceTitles = new Set(docs.map((d) => entityKey(d.title)));
  const works = (byDoc: Map<string, EntityRow[]>) => new Set([...byDoc.keys()].map(workOfPath)).size;
  const out: { c: Omit<PlannedConcept, 'mentions'>; byDoc: Map<string, EntityRow[]>; total: number }[] = [];
  for (const g of groups.values()) {
    // Support, stress and introduction are the names' own: everyday words only add mentions.
    const named = withoutDemoted(namedRows(g.byDoc, workOf), demoted);
    if (!named.size) continue;
    // A single document's own topics get pages only in a knowledge base of several documents.
    const n = works(named);
    if (n < minSources && !(okDocs.size >= 5 && stressed(named, n, minSources, okDocs))) continue;
    if (n < WEIGHTS.PASSING_WORKS && okDocs.size >= WEIGHTS.PASSING_MIN_DOCS && !introduced(named)) continue;
    // A work's title given with another name (卡片盒笔记法（Zettelkasten）) leaves the other name its
    // page when other works use it; the title itself stays the source's (links go there).
    const titled = [...g.keys].filter((k) => sourceTitles.has(k));
    if (titled.length && (titled.length === g.keys.size || n < 3)) continue;
    for (const k of titled) g.keys.delete(k);
    if (passingAbbreviation(named)) continue;
    // The title: the name most documents use (a longer name wins a tie: "Retrieval-Augmented Generation" over "RAG").
    const votes = new Map<string, number>();
    // A name's two scripts (設計質量 and 设计质量) also vote together, once a document: a work in
    // Traditional script must not hand the title to another name.
    const byKey = new Map<string, number>();
    for (const rows of g.byDoc.values()) {
      const seenHere = new Set<string>();
      const keysHere = new Map<string, number>();
      const vote = (name: string, v: number) => {
        if (seenHere.has(name)) return;
        seenHere.add(name);
        votes.set(name, (votes.get(name) ?? 0) + v);
        const k = foldText(name);
        keysHere.set(k, Math.max(keysHere.get(k) ?? 0, v));
      };
      for (const r of rows) {
        vote(r.surface, r.weak ? WEIGHTS.WEAK_VOTE : 1);
        for (const a of r.aliases) if (!labels.has(entityKey(a))) vote(a, 0.6);
      }
      for (const [k, v] of keysHere) byKey.set(k, (byKey.get(k) ?? 0) + v);
    }
    const together = (name: string) => byKey.get(foldText(name)) ?? 0;
    // Of a name and a longer one holding it, the one the texts write more often: 数据流 (Stream) over
    // 双向数据流 (Stream), a modifier of one sentence before it.
    const uses = new Map<string, number>();
    for (const rows of g.byDoc.values())
      for (const r of rows) uses.set(r.surface, (uses.get(r.surface) ?? 0) + r.count);
    const inside = (a: string, b: string) =>
      ONLY_HAN.test(a) && ONLY_HAN.test(b) && (a.includes(b) || b.includes(a))
        ? (uses.get(b) ?? 0) - (uses.get(a) ?? 0)
        : 0;
    // A name is the title before any everyday word: a page is titled by what names it.
    const byName = new Set<string>();
    for (const rows of named.values()) for (const r of rows) for (const x of [r.surface, ...r.aliases]) byName.add(x);
    // "HTTP protocol" beside "HTTP": the name is the title, the name with its kind an alias.
    const keysHere = new Set([...votes.keys()].map(entityKey));
    const kinded = new Set(namesOfKind(keysHere, keysHere).map(([, k]) => k));
    const withKind = (name: string) => kinded.has(entityKey(name));
    const ranked = [...votes.entries()]
      .filter(([name]) => !sourceTitles.has(entityKey(name)))
      .sort(
        (a, b) =>
          Number(byName.has(b[0])) - Number(byName.has(a[0])) ||
          Number(withKind(a[0])) - Number(withKind(b[0])) ||
          together(b[0]) - together(a[0]) ||
          b[1] - a[1] ||
          Number(hasTraditional(a[0])) - Number(hasTraditional(b[0])) ||
          inside(a[0], b[0]) ||
          b[0].length - a[0].length ||
          a[0].localeCompare(b[0]),
      );
    if (!ranked.length) continue;
    // An abbreviation is an alias: "Retrieval-Augmented Generation" is the title, "RAG" the alias.
    const top = ranked[0]![0];
    if (/^[A-Z][A-Z0-9]+s?$/.test(top)) {
      // Spelt out, not the abbreviation with a word after it ("HTTP protocol" spells out nothing).
      const expansion = ranked.find(
        ([n]) =>
          n.includes(' ') &&
          /^[A-Za-z]/.test(n) &&
          initials(n).startsWith(top[0]!.toLowerCase()) &&
          !n
            .toLowerCase()
            .split(/[\s-]+/)
            .includes(top.toLowerCase()),
      );
      if (expansion) {
        ranked.splice(ranked.indexOf(expansion), 1);
        ranked.unshift(expansion);
      }
    }
    const prior = [...g.keys].map((k) => existingByKey.get(k)).find(Boolean);
    const title = prior?.fm.title ?? ranked[0]![0];
    const seenKeys = new Set([spellingKey(title)]);
    const aliases: string[] = [];
    const names = ranked.map(([n]) => n);
    for (const [name] of ranked) {
      const k = spellingKey(name);
      if (seenKeys.has(k) || verbBefore(name, names)) continue;
      seenKeys.add(k);
      aliases.push(name);
    }
    for (const a of prior ? keptAliases(prior) : []) {
      if (seenKeys.has(spellingKey(a))) continue;
      seenKeys.add(spellingKey(a));
      aliases.push(a);
    }
    const c: Omit<PlannedConcept, 'mentions'> = {
      key: entityKey(title),
      keys: [...g.keys],
      title,
      aliases: aliases.slice(0, 12),
    };
    if (prior) c.id = prior.fm.id as EntryId;
    let total = 0;
    for (const rows of g.byDoc.values()) for (const r of rows) total += r.count;
    out.push({ c, byDoc: g.byDoc, total });
  }
  // Most widely shared first; cap the count. Mentions are listed for the concepts kept only.
  out.sort((a, b) => b.byDoc.size - a.byDoc.size || b.total - a.total || a.c.key.localeCompare(b.c.key));
  return out.slice(0, maxConcepts).map(({ c: { id, ...c }, byDoc }) => ({
    ...c,
    mentions: mentionsOf(byDoc, okDocs),
    ...(id ? { id } : {}),
  }));
}

const ONLY_HAN = /^[\p{Script=Han}]+$/u;

/**
 * The groups (by root) that cannot become a concept, known from their rows alone before a group is
 * gathered (most groups are one name of one document: gathering each costs tens of megabytes at
 * 10,000 documents). Each test is one the loop over the gathered groups makes, on an upper bound:
 * no name but everyday words; or fewer than WEIGHTS.PASSING_WORKS works name it, in a knowledge base of at
 * least WEIGHTS.PASSING_MIN_DOCS, and none introduces it. The works counted are those of the names' rows,
 * which are at least the works the loop counts (it may leave out standing text, never add).
 */
function hopelessGroups(
  /** The rows of the documents grouped. */
  entities: readonly EntityRow[],
  /** How many documents are grouped. */
  docs: number,
  root: (key: string) => string,
  workOf: (rawPath: string) => string,
): Set<string> {
  const out = new Set<string>();
  if (docs < WEIGHTS.PASSING_MIN_DOCS) return out;
  // Root → the works of its names' rows (up to WEIGHTS.PASSING_WORKS), or true once one introduces it.
  const seen = new Map<string, string[] | true>();
  const weakOnly = new Set<string>();
  for (const e of entities) {
    const r = root(e.key);
    if (e.weak) {
      if (!seen.has(r)) weakOnly.add(r);
      continue;
    }
    weakOnly.delete(r);
    const s = seen.get(r);
    if (s === true) continue;
    if (e.salient || e.named) {
      seen.set(r, true);
      continue;
    }
    const w = workOf(e.raw_path);
    if (!s) seen.set(r, [w]);
    else if (s.length < WEIGHTS.PASSING_WORKS && !s.includes(w)) s.push(w);
  }
  for (const r of weakOnly) out.add(r);
  for (const [r, s] of seen) if (s !== true && s.length < WEIGHTS.PASSING_WORKS) out.add(r);
  return out;
}

/**
 * A group's rows that are names, not everyday words, by document — without those that name it only
 * in standing text (standingSentences), once enough works name it for text to stand in them.
 */
function namedRows(byDoc: Map<string, EntityRow[]>, workOf: Map<string, string>): Map<string, EntityRow[]> {
  const out = new Map<string, EntityRow[]>();
  for (const [path, rows] of byDoc) {
    const named = rows.filter((r) => !r.weak);
    if (named.length) out.set(path, named);
  }
  if (
    out.size < WEIGHTS.STANDING_WORKS ||
    new Set([...out.keys()].map((p) => workOf.get(p) ?? p)).size < WEIGHTS.STANDING_WORKS
  )
    return out;
  // Only the sentences of rows that could name it in standing text alone need their works counted.
  const asked = new Set<string>();
  for (const rows of out.values()) for (const r of rows) if (onlyStanding(r)) for (const s of r.snippets) asked.add(s);
  if (!asked.size) return out;
  const standing = standingSentences(out, workOf, asked);
  if (!standing.size) return out;
  for (const [path, rows] of out) {
    const own = rows.filter((r) => !onlyStanding(r, standing));
    if (own.length) out.set(path, own);
    else out.delete(path);
  }
  return out;
}

/** Rows of demoted keys read as neither the work's subject nor stressed (alignedSubjects). */
function withoutDemoted(byDoc: Map<string, EntityRow[]>, demoted: ReadonlySet<string>): Map<string, EntityRow[]> {
  if (!demoted.size) return byDoc;
  const out = new Map<string, EntityRow[]>();
  for (const [path, rows] of byDoc)
    out.set(
      path,
      rows.map((r) => (r.subject && demoted.has(r.key) ? { ...r, subject: false, salient: false } : r)),
    );
  return out;
}

/** A document's snippets of a name (entities.ts keeps at most this many). */
const MAX_SNIPPETS = 3;

/**
 * Sentences that several works write word for word when they name one concept — a newsletter's
 * standing lines ("Every week we highlight…"), a site's footer, a licence notice — among the
 * sentences its rows keep as snippets (of those `asked` about).
 */
function standingSentences(
  byDoc: Map<string, EntityRow[]>,
  workOf: Map<string, string>,
  asked: ReadonlySet<string>,
): Set<string> {
  const worksOf = new Map<string, Set<string>>();
  for (const [path, rows] of byDoc)
    for (const r of rows)
      for (const s of r.snippets)
        if (asked.has(s)) (worksOf.get(s) ?? worksOf.set(s, new Set()).get(s)!).add(workOf.get(path) ?? path);
  return new Set([...worksOf].filter(([, w]) => w.size >= WEIGHTS.STANDING_WORKS).map(([s]) => s));
}

/**
 * A document names it only in standing text (every sentence that names it is one): the template's
 * name, not the work's, even where a heading stresses it (the template's headings are standing too:
 * "News from the project team" in every issue). A work's title still names its own subject.
 * Without `standing`: whether a row could be one (it keeps all its sentences).
 */
function onlyStanding(r: EntityRow, standing?: ReadonlySet<string>): boolean {
  // A heading kept where no sentence names it (entities.ts) is the work's outline, not its standing text.
  if (
    !r.snippets.length ||
    r.snippets.length >= MAX_SNIPPETS ||
    r.subject ||
    r.snippets.every((s) => snippetHeading(s) !== undefined)
  )
    return false;
  return !standing || r.snippets.every((s) => standing.has(s));
}

/**
 * Everyday words tied to names (by a gloss, the dictionary, or the versions of a translated work):
 * each joins the concept its ties lead to when they lead to exactly one — 提交 to commit — and
 * none when they lead to two (a word shared by two ideas bridges neither) or to none.
 */
function attachWeak(uf: UnionFind, deferred: readonly [string, string][], strongKeys: ReadonlySet<string>): void {
  const ties = new UnionFind();
  const node = (k: string) => (strongKeys.has(k) ? `s\t${uf.find(k)}` : `w\t${k}`);
  for (const [a, b] of deferred) ties.union(node(a), node(b));
  const roots = new Map<string, Set<string>>();
  const weak = new Set<string>();
  for (const [a, b] of deferred)
    for (const k of [a, b]) {
      const n = node(k);
      const c = ties.find(n);
      if (!roots.has(c)) roots.set(c, new Set());
      if (n.startsWith('s\t')) roots.get(c)!.add(n.slice(2));
      else weak.add(k);
    }
  for (const k of weak) {
    const names = roots.get(ties.find(node(k)))!;
    if (names.size === 1) uf.union([...names][0]!, k);
  }
}

/** The documents that mention a concept, most mentions first, each with up to three snippets. */
function mentionsOf(byDoc: Map<string, EntityRow[]>, okDocs: Map<string, DocumentRow>): PlannedConcept['mentions'] {
  return [...byDoc.entries()]
    .map(([rawPath, rows]) => ({
      rawPath,
      sourceId: okDocs.get(rawPath)!.entry_id as EntryId,
      count: rows.reduce((n, r) => n + r.count, 0),
      snippets: firstSnippets(rows),
    }))
    .sort((a, b) => b.count - a.count || a.rawPath.localeCompare(b.rawPath));
}

/** The first three different snippets of a document's rows. */
function firstSnippets(rows: readonly EntityRow[]): string[] {
  const out: string[] = [];
  for (const r of rows)
    for (const s of r.snippets) {
      if (out.length === 3) return out;
      if (!out.includes(s)) out.push(s);
    }
  return out;
}

/**
 * 并用维基链接 beside 维基链接: another name of the group with a verb of the sentence in front of it
 * (one document read the verb into the name). Not a name to list.
 */
function verbBefore(name: string, names: readonly string[]): boolean {
  if (!/^[\u3400-\u9fff]{3,}$/.test(name)) return false;
  const shorter = names.find((n) => n !== name && n.length >= 2 && name.endsWith(n));
  if (!shorter) return false;
  const head = tagZh(name.slice(0, name.length - shorter.length));
  return head.length === 1 && head[0]!.tag === 'v';
}

/**
 * Adjective endings and the noun endings of the same word: a Chinese word is often both (焦虑 is
 * glossed "anxious", 一致 "consistent", 可用 "usable"), so "context anxiety", "consistency" and
 * "usability" must translate it too.
 */
const NOUN_OF_ADJECTIVE: readonly [string, string[]][] = [
  ['ious', ['iety']],
  ['ent', ['ence', 'ency']],
  ['ant', ['ance', 'ancy']],
  ['able', ['ability']],
  ['ible', ['ibility']],
  ['ive', ['ivity']],
  ['al', ['ality']],
];

/** A gloss word with the nouns of the same adjective (anxious → anxiety, latent → latence, latency). */
function wordFamily(w: string): string[] {
  const out = [w];
  for (const [adj, nouns] of NOUN_OF_ADJECTIVE)
    if (w.length >= adj.length + 3 && w.endsWith(adj)) out.push(...nouns.map((n) => w.slice(0, -adj.length) + n));
  return out;
}

const HAN_KEY = /^[\u3400-\u9fff]{3,12}$/;
/** A name of an English word and a Chinese noun ("cache 物件", "token 对象"). */
const MIXED_KEY = /^([a-z]{3,20}) ?([\u3400-\u9fff]{2,6})$/;
const EN_PHRASE = /^[a-z]+(?:[ -][a-z]+){1,3}$/;

/**
 * "X <kind>" and X, when the knowledge base names both: the defer statement is defer, the SSH
 * protocol SSH (en.KIND_WORDS), the version control system version control (en.DOER_WORDS, after a
 * phrase). X must be a name of its own, not a word of the phrase only.
 */
function namesOfKind(keys: Iterable<string>, names: ReadonlySet<string>): [string, string][] {
  const out: [string, string][] = [];
  for (const k of keys) {
    const at = k.lastIndexOf(' ');
    if (at < 1 || !/^[a-z0-9 -]+$/.test(k)) continue;
    const kind = baseForm(k.slice(at + 1));
    const name = k.slice(0, at);
    if (!EN.KIND_WORDS.has(kind) && !(EN.DOER_WORDS.has(kind) && name.includes(' '))) continue;
    if (names.has(name)) out.push([name, k]);
  }
  return out;
}

/**
 * Chinese compounds whose dictionary words translate an English name word by word, in order:
 * 精灵/编辑器 (spirit, fairy, elf, sprite …/editor) is "sprite editor", 音乐/制作/程序 would be
 * "music production program" but not "music production". Every word must translate, so a name is
 * never matched by a piece of it; English names are looked up by their last word.
 */
function wordByWord(keys: readonly string[], dict: Dictionary): [string, string][] {
  const byHead = new Map<string, string[]>();
  for (const k of keys) {
    if (!EN_PHRASE.test(k)) continue;
    const head = baseForm(k.split(/[ -]/).pop()!);
    (byHead.get(head) ?? byHead.set(head, []).get(head)!).push(k);
  }
  if (!byHead.size) return [];
  const glosses = new Map<string, Set<string>>();
  const gloss = (w: string) =>
    glosses.get(w) ?? glosses.set(w, new Set(dict.english(w).flatMap((g) => wordForms(g).flatMap(wordFamily)))).get(w)!;
  const out: [string, string][] = [];
  for (const k of keys) {
    const mixed = MIXED_KEY.exec(k);
    if (!HAN_KEY.test(k) && !mixed) continue;
    // "cache 物件": the English word as it is, the Chinese cut into dictionary words.
    const words = mixed ? [mixed[1]!, ...dict.words(mixed[2]!)] : dict.words(k);
    // A one-character word only as the head (卡片/盒, card box): elsewhere it is a piece of a longer word.
    if (words.length < 2 || words.length > 4 || words.slice(0, -1).some((w) => w.length < 2)) continue;
    const same = (w: string, i: number) => (mixed && i === 0 ? baseForm(words[0]!) === w : gloss(words[i]!).has(w));
    for (const head of gloss(words[words.length - 1]!))
      for (const en of byHead.get(head) ?? []) {
        // "re-render": a prefix is a word of its own (重新/渲染: re, render).
        const enWords = en.split(/[ -]/).map(baseForm);
        if (enWords.length === words.length && enWords.every(same)) out.push([k, en]);
      }
  }
  return out;
}

const HAN = /\p{Script=Han}/u;

/**
 * A name's aliases without the everyday Chinese words a text put beside it as a gloss, not as its
 * name: `Firestore（云端）` says where Firestore is (云端: cloud), and the dictionary's senses of
 * 云端 hold no word of "Firestore". A Chinese name glossed by an English word (儲藏（Stashing）,
 * 仓库（repository）) is the translator giving the original term, often a technical sense the
 * dictionary lacks: it stays a pair, as does a pair the dictionary does not know either side of
 * (a transliterated person's name beside the name; 数字音频工作站, DAW).
 */
function withoutGlosses(e: EntityRow, dict: Dictionary): EntityRow {
  if (!e.aliases.length) return e;
  const aliases = heldGlosses(e, dict).filter((a) => {
    if (!HAN.test(a) && HAN.test(e.surface)) return !nameBeside(e.key, a, dict);
    if (!HAN.test(a) || HAN.test(e.surface)) return true;
    const senses = wordSenses(a, dict);
    return !senses?.size || inSenses(e.surface, senses);
  });
  return aliases.length === e.aliases.length ? e : { ...e, aliases };
}

/**
 * 安裝方式（Docker）, 向量数据库（Pinecone）: a Chinese phrase of dictionary words, each of two
 * characters or more, beside a product's name that translates none of them (nor the whole phrase)
 * is told how or with what, not what the phrase is called: the name is no gloss of it. A
 * transliteration (斯托曼, Stallman: no word of two characters) and a compound the name spells
 * (反向链接, Backlinks: 链接 is "link") stay glossed.
 */
function nameBeside(zh: string, en: string, dict: Dictionary): boolean {
  // A product's name: one capital, no abbreviation (GPhC for 药物管理委员会 spells it), no word of
  // the English dictionary (Plumbing, Porcelain: a translator's metaphor for 底层命令, 高层命令).
  if (!/^[A-Z][a-z]+$/.test(en) || isKnownEnglishWord(en)) return false;
  const words = dict.words(zh);
  if (words.length < 2 || words.some((w) => w.length < 2 || !dict.english(w).length)) return false;
  const lower = en.toLowerCase();
  const forms = new Set(wordForms(lower));
  const spells = (g: string) =>
    wordFamily(baseForm(g)).some((f) => forms.has(f) || (f.length >= 4 && lower.includes(f)));
  return !words.some((w) => dict.english(w).some(spells)) && !dict.english(zh).some(spells);
}

/**
 * 歸併(squash) in one place and 歸併(merge) in another: a Chinese word the text glosses with several
 * English words is named by those its dictionary senses hold, when they hold any (merge); the rest
 * glossed what the sentence did with it.
 */
function heldGlosses(e: EntityRow, dict: Dictionary): string[] {
  const english = e.aliases.filter((a) => !HAN.test(a));
  const senses = english.length < 2 ? undefined : wordSenses(e.surface, dict);
  if (!senses) return e.aliases;
  const held = new Set(english.filter((a) => inSenses(a, senses)));
  return held.size ? e.aliases.filter((a) => HAN.test(a) || held.has(a)) : e.aliases;
}

/** The dictionary's senses (with their word families) of a Chinese word of two to four characters, not of a phrase. */
function wordSenses(zh: string, dict: Dictionary): Set<string> | undefined {
  if (!/^[\p{Script=Han}]{2,4}$/u.test(zh) || dict.words(zh).length !== 1) return undefined;
  return new Set(dict.english(zh).flatMap((g) => wordFamily(baseForm(g))));
}

/** Whether a word of an English name is in the senses ("embedding" for 嵌入, to embed: an -ing form names the doing of a sense). */
function inSenses(en: string, senses: ReadonlySet<string>): boolean {
  return en
    .toLowerCase()
    .split(/[\s-]+/)
    .some((w) => wordForms(w).some((f) => senses.has(f)));
}

/**
 * 追蹤檔案(track), 試驗分支(experiment), 偏移資訊(offset): a Chinese phrase of several dictionary words
 * glossed by one English word that translates only one of them, not its last (the head). The
 * translator glossed a word of the sentence (a verb, a modifier), not the name of an idea; the
 * phrase is no name.
 */
function partlyGlossed(e: EntityRow, dict: Dictionary): boolean {
  if (e.aliases.length !== 1 || !HAN.test(e.surface)) return false;
  const gloss = e.aliases[0]!;
  if (!/^[A-Za-z][a-z]+$/.test(gloss)) return false;
  const words = dict.words(e.key);
  if (words.length < 2) return false;
  const forms = new Set(wordForms(gloss.toLowerCase()));
  const translates = words.map((w) => dict.english(w).some((g) => wordFamily(baseForm(g)).some((f) => forms.has(f))));
  // Only a word before the last: a gloss of the head alone (推論吞吐量, Throughput) still names the idea loosely.
  return (
    translates.filter(Boolean).length === 1 &&
    !translates[words.length - 1] &&
    !dict.english(e.key).some((g) => forms.has(baseForm(g)))
  );
}

/** Role names (an agent noun: 评估器, 规划者, evaluator, planner) and the class noun that can follow them. */
const ROLE_ZH = /^([\u3400-\u9fff]{1,8}[器者员师])(?:智能体|代理)$/;
const ROLE_EN = /^([a-z][a-z-]*(?:or|er))(?: agent)$/;

/**
 * "评估器智能体" and "评估器", "evaluator agent" and "evaluator": a role already names an agent, so
 * the class noun after it adds nothing (an apposition, not a kind of evaluator). Only these heads
 * after a role name join: 音乐制作程序 stays apart from 音乐制作, "vector database" from "database".
 */
function roleAgents(surfaces: Map<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  for (const k of surfaces.keys()) {
    const role = (ROLE_ZH.exec(k) ?? ROLE_EN.exec(k))?.[1];
    if (role && surfaces.has(role)) out.push([k, role]);
  }
  return out;
}

/**
 * "Rebasing" and "rebase", "tagging" and "tag", "branching model" and "branch model": a name whose
 * last word is the -ing form of another name's is the doing of that thing, one page. Only where both
 * names are there; the -ing word keeps a stem of four letters or more (not "string", "coding").
 */
function gerunds(surfaces: Map<string, Map<string, number>>): [string, string][] {
  const out: [string, string][] = [];
  for (const k of surfaces.keys()) {
    const m = /^((?:[a-z][a-z-]* )*)([a-z]{4,})ing$/.exec(k);
    if (!m) continue;
    const [, head, stem] = m as unknown as [string, string, string];
    const doubled = /([b-df-hj-np-tv-z])\1$/.test(stem) ? [stem.slice(0, -1)] : [];
    // A base only ever written in capitals is a label (QUERY), not the word the -ing form does.
    const word = (b: string) => [...(surfaces.get(b)?.keys() ?? [])].some((s) => !/^[A-Z0-9 -]+$/.test(s));
    const base = [stem, `${stem}e`, ...doubled].map((b) => `${head}${b}`).find(word);
    if (base) out.push([k, base]);
  }
  return out;
}

/**
 * An English compound written open and closed (file name, filename; data set, dataset; code base,
 * codebase) is one word spelt two ways: one page, where both are names.
 */
function closedCompounds(surfaces: Map<string, Map<string, number>>): [string, string][] {
  const out: [string, string][] = [];
  for (const k of surfaces.keys()) {
    if (!/^[a-z]+(?: [a-z]+)+$/.test(k)) continue;
    const closed = k.replace(/ /g, '');
    if (surfaces.has(closed)) out.push([k, closed]);
  }
  return out;
}

/**
 * A bare abbreviation no source expands or stresses is no concept of its own: a word in capitals
 * (ORDER, PUT, DOS) never, and one in passing (API, PDF: once or twice a source) unless the sources
 * keep coming back to it (ADK, LLM, BM25: at least twice each on average).
 */
function passingAbbreviation(byDoc: Map<string, EntityRow[]>): boolean {
  // One pass that stops at the first name that is no abbreviation (most groups): groups are many.
  let words = true;
  let mentions = 0;
  let salient = false;
  for (const rows of byDoc.values())
    for (const r of rows) {
      for (const n of [r.surface, ...r.aliases]) {
        if (!/^[A-Z][A-Z0-9]{1,9}s?$/.test(n)) return false;
        words &&= /^[A-Z]+$/.test(n) && isCommonEnglishWord(n);
      }
      mentions += r.count;
      salient ||= Boolean(r.salient);
    }
  return words || (!salient && mentions < 2 * byDoc.size);
}

/** A single document introduces or stresses the name and mentions it three times or more. */
function stressed(
  byDoc: Map<string, EntityRow[]>,
  works: number,
  minSources: number,
  docs: Map<string, DocumentRow>,
): boolean {
  if (minSources > 2 || works !== 1) return false;
  for (const [path, rows] of byDoc) {
    const count = rows.reduce((n, r) => n + r.count, 0);
    if (rows.some((r) => r.salient) && count >= 3) return true;
    // Two or more versions of one work (an article and its translation) name it, and one keeps
    // coming back to it or names it in its title too.
    if (byDoc.size === 1) continue;
    const title = docs.get(path)?.title.toLowerCase() ?? '';
    if (count >= WEIGHTS.VERSIONS_RETURN || (count >= 3 && rows.some((r) => title.includes(r.surface.toLowerCase()))))
      return true;
  }
  return false;
}

function introduced(byDoc: Map<string, EntityRow[]>): boolean {
  for (const rows of byDoc.values()) for (const r of rows) if (r.salient || r.named) return true;
  return false;
}

/**
 * Documents that are versions of one work — an article and its translations, a post saved and
 * then edited — by the names they share once merged across languages (the by-name roots of
 * `root`): two documents are one work when at least WEIGHTS.VERSION_MIN_SHARED names, and a share of the
 * names of the one with fewer, are the same. Names that many documents hold are left out.
 * Returns raw path → the first version's raw path, for documents that have another version.
 */
function versionsOfWorks(
  entities: readonly EntityRow[],
  okDocs: Map<string, DocumentRow>,
  root: (key: string) => string,
): Map<string, string> {
  const namesOf = new Map<string, Set<string>>();
  for (const e of entities) {
    if (!okDocs.has(e.raw_path)) continue;
    const set = namesOf.get(e.raw_path) ?? namesOf.set(e.raw_path, new Set()).get(e.raw_path)!;
    set.add(root(e.key));
  }
  const docsOf = new Map<string, string[]>();
  for (const [path, names] of namesOf) for (const n of names) (docsOf.get(n) ?? docsOf.set(n, []).get(n)!).push(path);
  const marks = markSets(okDocs);
  const none = new Set<string>();
  const markSet = (path: string) => marks.get(path) ?? none;
  const uf = new UnionFind();
  for (const [path, names] of namesOf) {
    const shared = new Map<string, number>();
    for (const n of names) {
      const docs = docsOf.get(n)!;
      if (docs.length > WEIGHTS.VERSION_MAX_SHARED) continue;
      for (const other of docs) if (other > path) shared.set(other, (shared.get(other) ?? 0) + 1);
    }
    for (const [other, n] of shared) {
      const fewer = Math.min(names.size, namesOf.get(other)!.size);
      const sameLanguage = okDocs.get(path)!.lang === okDocs.get(other)!.lang;
      const share = sameLanguage ? WEIGHTS.SAME_LANGUAGE_SHARE : WEIGHTS.TRANSLATION_SHARE;
      if (n < WEIGHTS.VERSION_MIN_SHARED || n < share * fewer) continue;
      if (sameLanguage && marksDiffer(markSet(path), markSet(other))) continue;
      uf.union(path, other);
    }
  }
  for (const [a, b] of translations(okDocs, marks)) uf.union(a, b);
  const members = new Map<string, string[]>();
  for (const path of [...namesOf.keys()].sort()) {
    const r = uf.find(path);
    (members.get(r) ?? members.set(r, []).get(r)!).push(path);
  }
  const out = new Map<string, string>();
  for (const paths of members.values()) if (paths.length > 1) for (const p of paths) out.set(p, paths[0]!);
  return out;
}

/** Each document's marks (text/marks.ts) as a set, for documents that have any. */
function markSets(okDocs: Map<string, DocumentRow>): Map<string, Set<string>> {
  const marks = new Map<string, Set<string>>();
  for (const [path, d] of okDocs) if (d.marks) marks.set(path, new Set(d.marks.split(' ')));
  return marks;
}

/**
 * Two texts in one language that each hold code or links, and keep few of each other's: issues of
 * one newsletter or pages of one template, which share their standing names (section headings,
 * the publisher's name) but not what they link to or quote. An edited copy of a text keeps most.
 */
function marksDiffer(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size < WEIGHTS.TRANSLATION_MIN_MARKS || b.size < WEIGHTS.TRANSLATION_MIN_MARKS) return false;
  let shared = 0;
  for (const m of b) if (a.has(m)) shared++;
  return shared < WEIGHTS.TRANSLATION_MARK_SHARE * Math.min(a.size, b.size);
}

/**
 * A Chinese text and the English text it translates, by what a translation keeps as written (its
 * code and the addresses it links to: text/marks.ts): the two share most of it, clearly more than
 * the translation shares with any other English text. A Simplified and a Traditional translation
 * may share one original.
 */
function translations(okDocs: Map<string, DocumentRow>, marks: Map<string, Set<string>>): [string, string][] {
  const english = [...marks.keys()].filter((p) => okDocs.get(p)!.lang === 'en');
  const other = [...marks.keys()].filter((p) => okDocs.get(p)!.lang !== 'en');
  if (!english.length || !other.length) return [];
  const byMark = new Map<string, string[]>();
  for (const e of english) for (const m of marks.get(e)!) (byMark.get(m) ?? byMark.set(m, []).get(m)!).push(e);
  // A mark many texts hold (a footer's link, a template's code) says nothing about which one a text
  // translates; it is left out of the counts, so the comparison stays linear in the marks.
  const telling = (m: string) => (byMark.get(m)?.length ?? 0) <= WEIGHTS.VERSION_MAX_SHARED;
  const sizeOf = new Map<string, number>();
  const size = (p: string) =>
    sizeOf.get(p) ?? sizeOf.set(p, [...marks.get(p)!].filter((m) => !byMark.has(m) || telling(m)).length).get(p)!;
  const out: [string, string][] = [];
  for (const o of other) {
    const mine = marks.get(o)!;
    const shared = new Map<string, number>();
    for (const m of mine) if (telling(m)) for (const e of byMark.get(m) ?? []) shared.set(e, (shared.get(e) ?? 0) + 1);
    const ranked = [...shared]
      .filter(([, n]) => n >= WEIGHTS.TRANSLATION_MIN_MARKS)
      .map(([e, n]) => [e, n / Math.min(size(o), size(e))] as const)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const [first, second] = ranked;
    if (
      first &&
      first[1] >= WEIGHTS.TRANSLATION_MARK_SHARE &&
      (!second || second[1] < WEIGHTS.TRANSLATION_MARGIN * first[1])
    )
      out.push([first[0], o]);
  }
  return out;
}

/**
 * Words one version of a work uses in Chinese and another in English, that the dictionary gives as
 * translations of each other (分支 and branch, 快照 and snapshot): the same idea, named in each
 * language of one text. Only words both versions use repeatedly; a Chinese word takes the English
 * word its versions use most among its translations, a name before an everyday word.
 */
function alignedWords(
  entities: readonly EntityRow[],
  okDocs: Map<string, DocumentRow>,
  workOf: Map<string, string>,
  dict: Dictionary,
  names: ReadonlySet<string>,
): [string, string][] {
  type Work = { han: Map<string, number>; latin: Map<string, number>; inNames: Set<string> };
  const byWork = new Map<string, Work>();
  for (const e of entities) {
    const work = workOf.get(e.raw_path);
    const d = okDocs.get(e.raw_path);
    if (!work || !d || e.count < WEIGHTS.ALIGNED_MIN_COUNT) continue;
    const w = byWork.get(work) ?? byWork.set(work, { han: new Map(), latin: new Map(), inNames: new Set() }).get(work)!;
    if (d.lang !== 'en' && /^[\u3400-\u9fff]{2,6}$/.test(e.key)) w.han.set(e.key, (w.han.get(e.key) ?? 0) + e.count);
    else if (d.lang === 'en' && /^[a-z][a-z-]{2,}$/.test(e.key))
      w.latin.set(e.key, (w.latin.get(e.key) ?? 0) + e.count);
    else if (d.lang === 'en' && !e.weak && e.key.includes(' ')) for (const x of e.key.split(' ')) w.inNames.add(x);
  }
  // A Chinese word pairs with one English word in all: the one its works pair it with most (样式 is
  // "style" in a text on styling and "type" beside TypeScript's types; both would chain into one page).
  const best = new Map<string, Map<string, number>>();
  for (const { han, latin, inNames } of byWork.values()) {
    if (!han.size || !latin.size) continue;
    // An everyday word that is a word of one of the version's names (knowledge of "knowledge base")
    // is read as part of the name, not as a word to translate on its own.
    for (const k of latin.keys()) if (!names.has(k) && inNames.has(k)) latin.delete(k);
    const byForm = new Map<string, string>();
    // A name before an everyday word (branching of the title before the word branch), then the most used.
    const order = (a: string, b: string) =>
      Number(names.has(b)) - Number(names.has(a)) || latin.get(b)! - latin.get(a)! || (a < b ? -1 : 1);
    for (const k of [...latin.keys()].sort(order)) for (const f of wordForms(k)) if (!byForm.has(f)) byForm.set(f, k);
    for (const z of [...han.keys()].sort()) {
      const glosses = dict.english(z).flatMap((g) => wordFamily(baseForm(g)));
      // An everyday word on either side is the same word in both versions only where the two are
      // used about as often (知识库 glossed "knowledge base" is not the text's every "knowledge").
      // A compound (知识库) translates to a phrase, not to one of its words: it pairs with names only.
      const alike = (en: string) =>
        (names.has(z) && names.has(en)) ||
        ((z.length === 2 || names.has(en)) &&
          Math.min(han.get(z)!, latin.get(en)!) >= WEIGHTS.ALIGNED_RATIO * Math.max(han.get(z)!, latin.get(en)!));
      const en = glosses.map((g) => byForm.get(g)).find((e) => e !== undefined && alike(e));
      if (!en) continue;
      const to = best.get(z) ?? best.set(z, new Map()).get(z)!;
      to.set(en, (to.get(en) ?? 0) + Math.min(han.get(z)!, latin.get(en)!));
    }
  }
  const out: [string, string][] = [];
  for (const [z, to] of best) {
    const [en] = [...to].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!;
    out.push([z, en]);
  }
  return out;
}

/**
 * The share of a document's Chinese names written in Traditional script (0 without any), among the
 * documents `keep` takes.
 */
function traditionalShare(entities: readonly EntityRow[], keep: (path: string) => boolean): (path: string) => number {
  const script = new Map<string, [number, number]>();
  for (const e of entities) {
    if (!HAN.test(e.surface) || !keep(e.raw_path)) continue;
    const [trad, han] = script.get(e.raw_path) ?? [0, 0];
    script.set(e.raw_path, [trad + Number(hasTraditional(e.surface)), han + 1]);
  }
  return (path) => {
    const [trad, han] = script.get(path) ?? [0, 0];
    return han ? trad / han : 0;
  };
}

/** The versions of each work (of `paths`) that have an outline of sections. */
function outlinedVersions(
  paths: Iterable<string>,
  okDocs: Map<string, DocumentRow>,
  workOf: Map<string, string>,
): DocumentRow[][] {
  const versions = new Map<string, DocumentRow[]>();
  for (const path of paths) {
    const d = okDocs.get(path);
    const work = workOf.get(path);
    if (d?.headings && work) (versions.get(work) ?? versions.set(work, []).get(work)!).push(d);
  }
  return [...versions.values()];
}

/**
 * Headings of an English text and its Chinese translation, paired one by one where the two outlines
 * align (text/outline.ts: the same sections at the same depths, but for a few one version lacks)
 * ("Topic Branches" and 特性分支, "Initial render" and 初次渲染): a translated heading names what the
 * original names, and so does the one name each holds ("Viewing the Commit History" and 檢視提交的歷史記錄:
 * commit history and 历史记录; compile/heading-names.ts), judged with the dictionary. Returned as name
 * keys; a pair joins two names only where both are names the texts use.
 */
function alignedHeadings(
  okDocs: Map<string, DocumentRow>,
  workOf: Map<string, string>,
  rows: readonly EntityRow[],
  dict?: Dictionary,
): [string, string][] {
  const out: [string, string][] = [];
  const versions = outlinedVersions(workOf.keys(), okDocs, workOf);
  // The rows of every version, read once (not once a work: thousands of works, hundreds of thousands of rows).
  const byDoc = rowsByDoc(rows, versions.flat());
  for (const docs of versions) {
    const outlined = (en: boolean) =>
      docs
        .filter((d) => (d.lang === 'en') === en)
        .map((d) => [outlineHeadings(d.headings!), byDoc.get(d.raw_path) ?? []] as const);
    for (const [a, rowsA] of outlined(true))
      for (const [b, rowsB] of outlined(false)) {
        const pairs = alignOutlines(a, b) ?? [];
        for (const [i, j] of pairs) {
          const [ka, kb] = [entityKey(a[i]![1]), entityKey(b[j]![1])];
          if (ka && kb && ka !== kb && HAN.test(kb) && !HAN.test(ka)) out.push([ka, kb]);
        }
        if (dict) out.push(...headingNamePairs(pairs, a, b, rowsA, rowsB, dict));
      }
  }
  return out;
}

/**
 * Names two versions of a work use in the same sections, and no other name as nearly (an English
 * text and its Chinese translation, or a Simplified and a Traditional one: alignable): where the two
 * outlines align (text/outline.ts), a translation names what its original names where the original names it
 * (remote branch and 远程分支, 服务器 and 伺服器), whatever words it uses. Each name takes the other
 * version's name whose sections match its own best, only when that match is clearly the best for both.
 */
function alignedBySections(
  entities: readonly EntityRow[],
  okDocs: Map<string, DocumentRow>,
  workOf: Map<string, string>,
): [string, string][] {
  if (!workOf.size) return [];
  const byDoc = new Map<string, Placed[]>();
  for (const e of entities)
    if (e.sections && e.count >= 2 && workOf.has(e.raw_path))
      (byDoc.get(e.raw_path) ?? byDoc.set(e.raw_path, []).get(e.raw_path)!).push({
        key: e.key,
        count: e.count,
        sections: e.sections.split(' ').map(Number),
      });
  // Mostly Traditional: a version that writes as many names one way as the other is no Traditional one.
  const share = traditionalShare(entities, (path) => workOf.has(path));
  const traditional = (d: DocumentRow) => share(d.raw_path) > 0.5;
  const out: [string, string][] = [];
  for (const docs of outlinedVersions(byDoc.keys(), okDocs, workOf))
    docs.forEach((a, i) => {
      for (const b of docs.slice(i + 1)) {
        const sides = alignable(a, b, traditional);
        if (!sides) continue;
        const [[x, hanX], [y, hanY]] = sides;
        const pairs = alignOutlines(outlineHeadings(x.headings!), outlineHeadings(y.headings!));
        if (!pairs) continue;
        // Sections numbered alike in both versions: section 0 before the headings, section k + 1 after the
        // k-th paired heading; a section of either version without its pair is left out.
        const [ofX, ofY] = [new Map([[0, 0]]), new Map([[0, 0]])];
        pairs.forEach(([i, j], k) => {
          ofX.set(i + 1, k + 1);
          ofY.set(j + 1, k + 1);
        });
        const placed = (rows: Placed[], han: boolean, of: Map<number, number>) =>
          rows
            .filter((r) => HAN.test(r.key) === han)
            .map((r) => ({ ...r, sections: r.sections.flatMap((s) => of.get(s) ?? []) }))
            .filter(
              (r) =>
                r.sections.length >= WEIGHTS.ALIGNED_MIN_SECTIONS &&
                r.sections.length <= WEIGHTS.ALIGNED_MAX_SPREAD * (pairs.length + 1),
            );
        out.push(...sectionPairs(placed(byDoc.get(x.raw_path)!, hanX, ofX), placed(byDoc.get(y.raw_path)!, hanY, ofY)));
      }
    });
  return out;
}

/** Where each document's names stand among its paragraphs: as its rows carry it, else as `placesOf` reads it. */
function placesOfRows(
  entities: readonly EntityRow[],
  placesOf?: (rawPath: string) => ReadonlyMap<string, string>,
): (rawPath: string) => ReadonlyMap<string, string> {
  const carried = new Map<string, Map<string, string>>();
  for (const e of entities)
    if (e.places) (carried.get(e.raw_path) ?? carried.set(e.raw_path, new Map()).get(e.raw_path)!).set(e.key, e.places);
  return (path) => carried.get(path) ?? placesOf?.(path) ?? new Map();
}

/** Every two versions of a work with an outline whose names can differ for one idea (alignable). */
function versionSides(
  entities: readonly EntityRow[],
  okDocs: Map<string, DocumentRow>,
  workOf: Map<string, string>,
): VersionSides[] {
  if (!workOf.size) return [];
  const share = traditionalShare(entities, (path) => workOf.has(path));
  const traditional = (d: DocumentRow) => share(d.raw_path) > 0.5;
  const paths = new Set<string>();
  for (const e of entities) if (workOf.has(e.raw_path)) paths.add(e.raw_path);
  const out: VersionSides[] = [];
  for (const docs of outlinedVersions(paths, okDocs, workOf))
    docs.forEach((a, i) => {
      for (const b of docs.slice(i + 1)) {
        const sides = alignable(a, b, traditional);
        if (sides) out.push(sides);
      }
    });
  return out;
}

/**
 * Two versions whose names can differ for one idea, each with whether its names are Chinese: an
 * English text and a Chinese one, or a Chinese text in Simplified script and one in Traditional
 * (服务器 and 伺服器, 运算符 and 運算子: Mainland and Taiwan words). Two texts in one script name
 * one idea alike.
 */
function alignable(
  a: DocumentRow,
  b: DocumentRow,
  traditional: (d: DocumentRow) => boolean,
): [[DocumentRow, boolean], [DocumentRow, boolean]] | undefined {
  if ((a.lang === 'en') !== (b.lang === 'en'))
    return a.lang === 'en'
      ? [
          [a, false],
          [b, true],
        ]
      : [
          [b, false],
          [a, true],
        ];
  if (a.lang === 'en') return undefined;
  return traditional(a) !== traditional(b)
    ? [
        [a, true],
        [b, true],
      ]
    : undefined;
}

/** A name of one version and the sections of its outline that name it. */
interface Placed {
  key: string;
  count: number;
  sections: number[];
}

/** The pairs of alignedBySections: each English name's clearly best Chinese name, when it is that name's clearly best too. */
function sectionPairs(english: Placed[], chinese: Placed[]): [string, string][] {
  const overlap = (a: Placed, b: Placed) => {
    const set = new Set(a.sections);
    const shared = b.sections.filter((s) => set.has(s)).length;
    return (2 * shared) / (a.sections.length + b.sections.length);
  };
  const best = (row: Placed, others: Placed[]) => clearlyBest(row, others, overlap, WEIGHTS.ALIGNED_MIN_OVERLAP);
  const out: [string, string][] = [];
  for (const e of english) {
    const z = best(e, chinese);
    if (!z || z.key === e.key || best(z, english) !== e) continue;
    if (Math.min(e.count, z.count) < WEIGHTS.ALIGNED_MIN_RATIO * Math.max(e.count, z.count)) continue;
    out.push([e.key, z.key]);
  }
  return out;
}

/**
 * The subjects of the versions of one work (分支 of "Git 分支", "branching" of "Git Branching") are
 * one idea: a text and its translation are about the same thing. The subject most versions share is
 * the work's; a version whose title names none of it but exactly one other subject names it in its
 * own language, and the two are joined.
 */
function alignedSubjects(
  entities: readonly EntityRow[],
  okDocs: Map<string, DocumentRow>,
  workOf: Map<string, string>,
  root: (key: string) => string,
  dict?: Dictionary,
  demoted?: Set<string>,
): [string, string][] {
  const byWork = new Map<string, Map<string, Map<string, string>>>();
  // Every name each version uses, by its group: a subject another version names too is shared, not apart.
  const namedIn = new Map<string, Set<string>>();
  for (const e of entities) {
    const work = workOf.get(e.raw_path);
    if (!work || !okDocs.has(e.raw_path)) continue;
    (namedIn.get(e.raw_path) ?? namedIn.set(e.raw_path, new Set()).get(e.raw_path)!).add(root(e.key));
    if (!e.subject) continue;
    const versions = byWork.get(work) ?? byWork.set(work, new Map()).get(work)!;
    const roots = versions.get(e.raw_path) ?? versions.set(e.raw_path, new Map()).get(e.raw_path)!;
    roots.set(root(e.key), e.key);
  }
  // A language as its texts are written: Traditional and Simplified Chinese apart.
  const traditional = traditionalShare(entities, (path) => byWork.has(workOf.get(path) ?? ''));
  const langOf = (path: string) => `${okDocs.get(path)!.lang}${traditional(path) >= 0.5 ? '-traditional' : ''}`;
  const out: [string, string][] = [];
  for (const versions of byWork.values()) {
    const votes = new Map<string, number>();
    for (const roots of versions.values()) for (const r of roots.keys()) votes.set(r, (votes.get(r) ?? 0) + 1);
    const ranked = [...votes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const main = ranked.length && !(ranked[1] && ranked[1][1] === ranked[0]![1]) ? ranked[0]![0] : undefined;
    const before = out.length;
    // Only a version in a language whose versions all lack it: one in the same language as a version
    // naming it is another text about something else, not a translation.
    const named = new Set([...versions].filter(([, roots]) => main && roots.has(main)).map(([p]) => langOf(p)));
    if (main)
      for (const [path, roots] of versions)
        if (!roots.has(main) && roots.size === 1 && !named.has(langOf(path))) out.push([main, [...roots.values()][0]!]);
    if (out.length > before) continue;
    // "Git Branching" and "Git 分支": what the English and the Chinese titles name apart from what both name.
    const english = new Map<string, string>();
    const other = new Map<string, string>();
    const namedEn = new Set<string>();
    const namedOther = new Set<string>();
    for (const [path, roots] of versions) {
      const en = okDocs.get(path)!.lang === 'en';
      for (const [r, k] of roots) (en ? english : other).set(r, k);
      for (const r of namedIn.get(path) ?? []) (en ? namedEn : namedOther).add(r);
    }
    // 全文检索 of 全文检索笔记 is no translation of "indexes" when the English version names full-text search too.
    const en = [...english].filter(([r]) => !namedOther.has(r));
    const zh = [...other].filter(([r]) => !namedEn.has(r));
    if (en.length !== 1 || zh.length !== 1) continue;
    const titles = [...versions.keys()].filter((p) => okDocs.get(p)!.lang === 'en').map((p) => okDocs.get(p)!.title);
    if (!dict || !translatesOther(zh[0]![1], en[0]![1], titles, dict)) out.push([en[0]![1], zh[0]![1]]);
    else demoted?.add(zh[0]![1]);
  }
  return out;
}

/**
 * A title and its translation whose subjects differ, as "Ten Habits Every Engineer Should Learn" and
 * "每个工程师都该养成的十个习惯" (the Chinese title's subject 工程师 translates another word of the
 * English title, "Engineer", not its subject, Habits): such two subjects are no translation of each other.
 */
function translatesOther(zh: string, en: string, englishTitles: readonly string[], dict: Dictionary): boolean {
  const glosses = new Set(dict.english(zh).flatMap((g) => wordForms(baseForm(g))));
  if (!glosses.size) return false;
  const forms = (w: string) => wordForms(w.toLowerCase());
  const own = new Set(en.split(/[\s-]+/).flatMap(forms));
  if ([...own].some((f) => glosses.has(f))) return false;
  return englishTitles.some((t) =>
    (t.match(/[A-Za-z]+/g) ?? []).some((w) => !own.has(w.toLowerCase()) && forms(w).some((f) => glosses.has(f))),
  );
}

/**
 * The documents by raw path, one per source entry: a work saved twice (one post in two feed
 * exports) shares an entry (compile/works.ts) and counts once, cited by its first copy as its entry is.
 */
function firstCopies(docs: readonly DocumentRow[]): Map<string, DocumentRow> {
  const out = new Map<string, DocumentRow>();
  const seen = new Set<string>();
  for (const d of [...docs].sort(byRawPath)) {
    const entry = d.entry_id ?? `doc:${d.raw_path}`;
    if (seen.has(entry)) continue;
    seen.add(entry);
    out.set(d.raw_path, d);
  }
  return out;
}

/** The key of a name as spelt: a Traditional spelling stays an alias of its Simplified title (Obsidian links by it). */
function spellingKey(name: string): string {
  return hasTraditional(name) ? `${entityKey(name)}#traditional` : entityKey(name);
}

function initials(phrase: string): string {
  return phrase
    .split(/[\s-]+/)
    .map((w) => w[0]?.toLowerCase() ?? '')
    .join('');
}
