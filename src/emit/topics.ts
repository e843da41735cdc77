import { byCodePoint } from '../util/order.js';

/**
 * Topics of the index: concepts grouped by the sources they share. Concepts are taken most cited
 * first; each joins the topic whose head's sources overlap its own most (Jaccard, at least
 * MIN_AFFINITY), else heads a topic of its own. A source is listed under the topic its concepts
 * point to, a rarely cited concept counting more. Deterministic; pairs bounded per source.
 */
export interface TopicItem {
  id: string;
  kind: string;
  title: string;
  links: readonly string[];
}

export interface Topic {
  head: string;
  concepts: string[];
  sources: string[];
}

/** A topic of one concept and fewer sources than this joins "other concepts". */
const MIN_TOPIC_SOURCES = 2;
/** Share of their sources two concepts must have in common for one to stand under the other. */
const MIN_AFFINITY = 0.34;
/** Pairs of concepts counted in a flat table at most (16 MB); more go in a Map. */
const MAX_TABLE = 1 << 22;
/** Concepts of one source compared pairwise at most (a source linking to hundreds is an index). */
const MAX_PAIRED = 40;

export function indexTopics(items: readonly TopicItem[], maxTable = MAX_TABLE): { topics: Topic[]; rest: string[] } {
  const concepts = items.filter((i) => i.kind === 'concept');
  const isConcept = new Set(concepts.map((c) => c.id));
  const title = new Map(items.map((i) => [i.id, i.title]));
  // Concepts by number, and the sources two concepts share by one number for the pair (a Map of
  // Maps keyed by id cost half a second at 10,000 sources).
  const index = new Map(concepts.map((c, i) => [c.id, i]));
  const n = concepts.length;
  const sourcesOf: string[][] = concepts.map(() => []);
  // Counted in a table of every pair where that is small (a few thousand concepts), else in a Map.
  const table = n * n <= maxTable ? new Int32Array(n * n) : undefined;
  const sparse = new Map<number, number>();
  const sharedOf = (k: number) => (table ? table[k]! : (sparse.get(k) ?? 0));
  const neighbours: number[][] = concepts.map(() => []);
  const sources = items.filter((i) => i.kind === 'source');
  for (const s of sources) {
    const cs = [...new Set(s.links.filter((l) => isConcept.has(l)))].slice(0, MAX_PAIRED).map((l) => index.get(l)!);
    for (const c of cs) sourcesOf[c]!.push(s.id);
    for (const a of cs)
      for (const b of cs) {
        if (a === b) continue;
        const k = a * n + b;
        const m = sharedOf(k);
        if (m === 0) neighbours[a]!.push(b);
        if (table) table[k] = m + 1;
        else sparse.set(k, m + 1);
      }
  }
  const degree = (c: number) => sourcesOf[c]!.length;
  const degreeOf = (id: string) => {
    const i = index.get(id);
    return i === undefined ? 0 : degree(i);
  };
  const titleOf = (c: number) => title.get(concepts[c]!.id) ?? concepts[c]!.id;
  // Two concepts of one title by id: the order must not hang on the order the entries came in.
  const before = (a: number, b: number) =>
    degree(a) - degree(b) || titleOf(b).localeCompare(titleOf(a)) || byCodePoint(concepts[b]!.id, concepts[a]!.id);
  // Leaders in order of sources: a concept joins the earlier head its sources overlap most
  // (Jaccard, at least MIN_AFFINITY); else it heads a topic of its own.
  const jaccard = (a: number, b: number) => {
    const k = sharedOf(a * n + b);
    return k ? k / (degree(a) + degree(b) - k) : 0;
  };
  // Heads by when they became one: of two heads as close, the earlier wins. Only a head that shares
  // a source with the concept can be close to it, so only those are weighed.
  const headAt = new Map<number, number>();
  const topicOfConcept = new Map<string, string>();
  const members = new Map<string, string[]>();
  for (const c of concepts.map((_, i) => i).sort((a, b) => before(b, a))) {
    let best: number | undefined;
    let bestScore = MIN_AFFINITY;
    for (const h of neighbours[c]!) {
      if (!headAt.has(h)) continue;
      const score = jaccard(c, h);
      if (score < bestScore) continue;
      if (best === undefined || score > bestScore || headAt.get(h)! < headAt.get(best)!) [best, bestScore] = [h, score];
    }
    const head = concepts[best ?? c]!.id;
    if (best === undefined) headAt.set(c, headAt.size);
    topicOfConcept.set(concepts[c]!.id, head);
    (members.get(head) ?? members.set(head, []).get(head)!).push(concepts[c]!.id);
  }
  const sourcesOfTopic = new Map<string, string[]>();
  for (const s of sources) {
    const votes = new Map<string, number>();
    // A concept few sources cite says more of what a source is about than one every source cites.
    for (const l of new Set(s.links)) {
      const t = topicOfConcept.get(l);
      if (t) votes.set(t, (votes.get(t) ?? 0) + 1 / degreeOf(l));
    }
    const top = [...votes].sort((a, b) => b[1] - a[1] || before(index.get(b[0])!, index.get(a[0])!))[0];
    if (top) (sourcesOfTopic.get(top[0]) ?? sourcesOfTopic.set(top[0], []).get(top[0])!).push(s.id);
  }
  const byTitle = (a: string, b: string) => (title.get(a) ?? a).localeCompare(title.get(b) ?? b) || byCodePoint(a, b);
  const topics: Topic[] = [];
  const rest: string[] = [];
  for (const [head, cs] of members) {
    const srcs = sourcesOfTopic.get(head) ?? [];
    if (cs.length === 1 && srcs.length < MIN_TOPIC_SOURCES) rest.push(head);
    else
      topics.push({
        head,
        concepts: [head, ...cs.filter((c) => c !== head).sort(byTitle)],
        sources: srcs.sort(byTitle),
      });
  }
  topics.sort(
    (a, b) => b.concepts.length + b.sources.length - (a.concepts.length + a.sources.length) || byTitle(a.head, b.head),
  );
  return { topics, rest: rest.sort(byTitle) };
}
