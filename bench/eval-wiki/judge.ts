// Scores one compiled wiki against its corpus's hand-written labels (labels.ts). Pure: the
// runner reads the wiki, this counts. Every figure is one a reader of the wiki would notice.
import { entityKey } from '../../src/entry/names.js';
import type { ConceptLabel, CorpusLabels, Lang, SourceLabel } from './labels.js';

export interface WikiPage {
  id: string;
  kind: string;
  title: string;
  aliases: string[];
  summary: string;
  /** raw/ paths, posts with their `#anchor`. */
  sourceRef: string[];
  /** Ids this entry links to. */
  links: string[];
  /** A source entry's other versions (its `## Versions` section), by id. */
  versions?: string[];
}

export interface CorpusScore {
  corpus: string;
  conceptPages: number;
  /** Pages that name a labelled concept. */
  labelledPages: number;
  /** Pages judged real after reading, though no label names them. */
  judgedOk: number;
  /** Pages judged noise, and pages nobody judged yet (counted as noise until someone does). */
  noise: number;
  unjudged: number;
  /** Further pages of a concept that already has one. */
  duplicates: number;
  /** Pages that name two different labelled concepts (homonyms or two ideas run together). */
  conflated: number;
  central: number;
  centralWithPage: number;
  /** Concepts named in English and in Chinese, with a page. */
  namedPairs: number;
  namedPairsMerged: number;
  /** Works saved in two or more languages whose main concept is labelled. */
  translatedWorks: number;
  translatedWorksOnOnePage: number;
  /** Ordered pairs of versions of one labelled work (each version's entry should list the other). */
  versionPairs: number;
  versionPairsLinked: number;
  /** Entries listed as versions that are not of the same labelled work. */
  wrongVersions: number;
  sources: number;
  titlesRight: number;
  summariesRight: number;
  linksToConcepts: number;
  linksToNoise: number;
  missing: {
    central: string[];
    titles: { path: string; want: string; got: string }[];
    summaries: { path: string; summary: string }[];
    unjudged: string[];
    noise: string[];
    splitPairs: string[];
    splitWorks: string[];
    duplicates: string[];
    conflated: string[];
  };
}

const HAN = /\p{Script=Han}/u;

/** A name as both the labels and the wiki may write it: width, case, script, plural, spacing. */
export function nameKey(name: string): string {
  return entityKey(
    name
      .replace(/[`*_]/g, '')
      .replace(/^[\s\p{P}]+|[\s\p{P}]+$/gu, '')
      .trim(),
  );
}

/** A title compared as a reader compares it: punctuation and spacing aside. */
export function titleKey(title: string): string {
  return nameKey(title)
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function conceptKeys(c: ConceptLabel): Set<string> {
  return new Set(Object.values(c.names).flatMap((ns) => (ns ?? []).map(nameKey)));
}

/** Markup that a summary must not show: docs-toolchain roles, anchors, links, formula scraps. */
const SCRAP = /:[a-z]+:`|\{#[\w-]+\}|\]\(|^\s*https?:\/\/\S+\s*$|\$\$|\\(?:begin|frac|mathbf)\b|<\/?[a-z][^>]*>/i;

/** Length as a reader weighs it: a Han character says about as much as two letters. */
function readLength(s: string): number {
  return Array.from(s).reduce((n, ch) => n + (HAN.test(ch) ? 2 : 1), 0);
}

function refPath(ref: string): string {
  const i = ref.indexOf('#');
  return i >= 0 ? ref.slice(0, i) : ref;
}

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one pass per figure over the same tables
export function judgeWiki(
  labels: CorpusLabels,
  pages: readonly WikiPage[],
  raw?: ReadonlyMap<string, string>,
): CorpusScore {
  const concepts = pages.filter((p) => p.kind === 'concept');
  const sources = pages.filter((p) => p.kind === 'source');
  const keysOf = new Map(labels.concepts.map((c) => [c.id, conceptKeys(c)]));
  const byKey = new Map<string, string[]>();
  for (const [id, ks] of keysOf) for (const k of ks) byKey.set(k, [...(byKey.get(k) ?? []), id]);
  const judged = new Map(Object.entries(labels.judged ?? {}).map(([t, j]) => [nameKey(t), j]));

  // Which labelled concepts each page names (by its title first, then its aliases).
  const named = new Map<string, Set<string>>();
  const pagesOf = new Map<string, WikiPage[]>();
  for (const p of concepts) {
    const ids = new Set<string>();
    for (const n of [p.title, ...p.aliases]) for (const id of byKey.get(nameKey(n)) ?? []) ids.add(id);
    named.set(p.id, ids);
    for (const id of ids) pagesOf.set(id, [...(pagesOf.get(id) ?? []), p]);
  }
  const noisePages = new Set<string>();
  const unjudged: string[] = [];
  const noiseTitles: string[] = [];
  let judgedOk = 0;
  let labelledPages = 0;
  for (const p of concepts) {
    if (named.get(p.id)!.size) {
      labelledPages++;
      continue;
    }
    const j = judged.get(nameKey(p.title));
    if (j === 'ok') judgedOk++;
    else {
      noisePages.add(p.id);
      if (j === 'noise') noiseTitles.push(p.title);
      else unjudged.push(p.title);
    }
  }
  const duplicates: string[] = [];
  for (const [id, ps] of pagesOf) if (ps.length > 1) duplicates.push(`${id}: ${ps.map((p) => p.title).join(' | ')}`);
  const conflated = concepts
    .filter((p) => named.get(p.id)!.size > 1)
    .map((p) => `${p.title}: ${[...named.get(p.id)!].join(', ')}`);

  // A note titled by the concept it is about (a vault's `CUDA stream.md`) is that concept's page:
  // links to the name lead there, and no concept entry is made beside it.
  const notePage = new Set<string>();
  for (const p of sources) for (const id of byKey.get(nameKey(p.title)) ?? []) notePage.add(id);
  const central = labels.concepts.filter((c) => c.central);
  const missingCentral = central.filter((c) => !pagesOf.has(c.id) && !notePage.has(c.id)).map((c) => c.id);

  const langOf = new Map(labels.sources.map((s) => [s.path, s.lang]));
  const pageLangs = (p: WikiPage) => new Set(p.sourceRef.map((r) => langOf.get(refPath(r))));
  const pairs = labels.concepts.filter((c) => {
    const en = (c.names.en ?? []).map(nameKey);
    const zh = [...(c.names.zh ?? []), ...(c.names['zh-TW'] ?? [])].filter((n) => HAN.test(n)).map(nameKey);
    return (
      en.length > 0 &&
      zh.length > 0 &&
      !en.some((k) => zh.includes(k)) &&
      pagesOf.has(c.id) &&
      (!raw || namedInBoth(c, labels, raw))
    );
  });
  const splitPairs: string[] = [];
  for (const c of pairs) {
    const ps = pagesOf.get(c.id)!;
    const langs = ps.length === 1 ? pageLangs(ps[0]!) : new Set<Lang | undefined>();
    const bothSides = langs.has('en') && (langs.has('zh') || langs.has('zh-TW'));
    if (ps.length !== 1 || !bothSides) splitPairs.push(`${c.id}: ${ps.map((p) => p.title).join(' | ')}`);
  }

  // A work and its translations: its main concept (the first of its about-names a label holds) on one page citing every version.
  const works = new Map<string, SourceLabel[]>();
  for (const s of labels.sources) if (s.work) works.set(s.work, [...(works.get(s.work) ?? []), s]);
  let translatedWorks = 0;
  const splitWorks: string[] = [];
  for (const [work, versions] of works) {
    if (new Set(versions.map((v) => v.lang)).size < 2) continue;
    const main = versions
      .flatMap((v) => v.about)
      .map((n) => byKey.get(nameKey(n))?.[0])
      .find(Boolean);
    if (!main) continue;
    translatedWorks++;
    const paths = versions.map((v) => v.path);
    const together = (pagesOf.get(main) ?? []).some((p) => {
      const refs = new Set(p.sourceRef.map(refPath));
      return paths.every((x) => refs.has(x));
    });
    if (!together) splitWorks.push(`${work} (${main})`);
  }

  // A work's versions list each other: every ordered pair of its labelled versions, and no entry of another work.
  const entryOf = (path: string) => sources.find((e) => e.sourceRef.some((r) => refPath(r) === path));
  const workOfEntry = new Map<string, string>();
  for (const s of labels.sources) {
    const e = entryOf(s.path);
    if (e) workOfEntry.set(e.id, s.work ?? s.path);
  }
  let versionPairs = 0;
  let versionPairsLinked = 0;
  for (const versions of works.values())
    for (const a of versions)
      for (const b of versions) {
        const [ea, eb] = [entryOf(a.path), entryOf(b.path)];
        if (a === b || !ea || !eb || ea === eb) continue;
        versionPairs++;
        if (ea.versions?.includes(eb.id)) versionPairsLinked++;
      }
  let wrongVersions = 0;
  for (const e of sources)
    for (const v of e.versions ?? [])
      if (!workOfEntry.has(e.id) || workOfEntry.get(v) !== workOfEntry.get(e.id)) wrongVersions++;

  const wrongTitles: CorpusScore['missing']['titles'] = [];
  const badSummaries: CorpusScore['missing']['summaries'] = [];
  let titlesRight = 0;
  let summariesRight = 0;
  for (const s of labels.sources) {
    const entries = sources.filter((e) => e.sourceRef.some((r) => refPath(r) === s.path));
    const title = entries.find((e) => titleKey(e.title) === titleKey(s.title));
    if (title) titlesRight++;
    else
      wrongTitles.push({ path: s.path, want: s.title, got: entries.map((e) => e.title).join(' | ') || '(no entry)' });
    const entry = title ?? entries[0];
    const names = s.about.flatMap((n) => {
      const id = byKey.get(nameKey(n))?.[0];
      const c = id ? labels.concepts.find((x) => x.id === id) : undefined;
      return [n, ...(c ? Object.values(c.names).flat() : [])] as string[];
    });
    const summary = entry?.summary ?? '';
    const sk = nameKey(summary);
    const ok =
      readLength(summary) >= 12 &&
      !SCRAP.test(summary.replace(/`[^`\n]*`/g, '')) &&
      names.some((n) => n && sk.includes(nameKey(n)));
    if (ok) summariesRight++;
    else badSummaries.push({ path: s.path, summary });
  }

  let linksToConcepts = 0;
  let linksToNoise = 0;
  const linksTo = new Map<string, number>();
  const conceptIds = new Set(concepts.map((c) => c.id));
  for (const p of pages)
    for (const l of p.links) {
      if (!conceptIds.has(l)) continue;
      linksToConcepts++;
      if (noisePages.has(l)) {
        linksToNoise++;
        linksTo.set(l, (linksTo.get(l) ?? 0) + 1);
      }
    }
  // Each noise page with the links that lead to it, most first: what a reader meets most.
  const titleOf = new Map(concepts.map((c) => [c.id, c.title]));
  const noiseShown = [...noisePages]
    .filter((id) => noiseTitles.includes(titleOf.get(id)!))
    .sort((a, b) => (linksTo.get(b) ?? 0) - (linksTo.get(a) ?? 0) || (a < b ? -1 : 1))
    .map((id) => `${titleOf.get(id)} (${linksTo.get(id) ?? 0} links)`);

  return {
    corpus: labels.name,
    conceptPages: concepts.length,
    labelledPages,
    judgedOk,
    noise: noisePages.size,
    unjudged: unjudged.length,
    duplicates: [...pagesOf.values()].reduce((n, ps) => n + Math.max(0, ps.length - 1), 0),
    conflated: conflated.length,
    central: central.length,
    centralWithPage: central.length - missingCentral.length,
    namedPairs: pairs.length,
    namedPairsMerged: pairs.length - splitPairs.length,
    translatedWorks,
    translatedWorksOnOnePage: translatedWorks - splitWorks.length,
    versionPairs,
    versionPairsLinked,
    wrongVersions,
    sources: labels.sources.length,
    titlesRight,
    summariesRight,
    linksToConcepts,
    linksToNoise,
    missing: {
      central: missingCentral,
      titles: wrongTitles,
      summaries: badSummaries,
      unjudged,
      noise: noiseShown,
      splitPairs,
      splitWorks,
      duplicates,
      conflated,
    },
  };
}

/**
 * Whether the corpus itself names a concept in both languages: an English source writes one of its
 * English names and a Chinese one one of its Chinese names. A concept only a Chinese chapter names
 * (its English original is not in the corpus) cannot be a pair on one page.
 */
function namedInBoth(c: ConceptLabel, labels: CorpusLabels, raw: ReadonlyMap<string, string>): boolean {
  const names = (langs: string[]) =>
    langs.flatMap((l) => c.names[l as keyof typeof c.names] ?? []).map((n) => n.toLowerCase());
  const writes = (langs: string[]) => {
    const ns = names(langs);
    return labels.sources.some(
      (src) => langs.includes(src.lang) && ns.some((n) => (raw.get(src.path) ?? '').toLowerCase().includes(n)),
    );
  };
  return writes(['en']) && writes(['zh', 'zh-TW']);
}
