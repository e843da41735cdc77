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
/** Concepts of one source compared pairwise at most (a source linking to hundreds is an index). */
const MAX_PAIRED = 40;

export function indexTopics(items: readonly TopicItem[]): { topics: Topic[]; rest: string[] } {
  const concepts = items.filter((i) => i.kind === 'concept');
  const isConcept = new Set(concepts.map((c) => c.id));
  const title = new Map(items.map((i) => [i.id, i.title]));
  const sourcesOf = new Map<string, string[]>();
  const shared = new Map<string, Map<string, number>>();
  const sources = items.filter((i) => i.kind === 'source');
  for (const s of sources) {
    const cs = [...new Set(s.links.filter((l) => isConcept.has(l)))].slice(0, MAX_PAIRED);
    for (const c of cs) (sourcesOf.get(c) ?? sourcesOf.set(c, []).get(c)!).push(s.id);
    for (const a of cs)
      for (const b of cs) {
        if (a === b) continue;
        const m = shared.get(a) ?? shared.set(a, new Map()).get(a)!;
        m.set(b, (m.get(b) ?? 0) + 1);
      }
  }
  const degree = (c: string) => sourcesOf.get(c)?.length ?? 0;
  const before = (a: string, b: string) =>
    degree(a) - degree(b) || (title.get(b) ?? b).localeCompare(title.get(a) ?? a);
  // Leaders in order of sources: a concept joins the earlier head its sources overlap most
  // (Jaccard, at least MIN_AFFINITY); else it heads a topic of its own.
  const jaccard = (a: string, b: string) => {
    const n = shared.get(a)?.get(b) ?? 0;
    return n ? n / (degree(a) + degree(b) - n) : 0;
  };
  // Heads by when they became one: of two heads as close, the earlier wins. Only a head that shares
  // a source with the concept can be close to it, so only those are weighed.
  const headAt = new Map<string, number>();
  const topicOfConcept = new Map<string, string>();
  const members = new Map<string, string[]>();
  for (const c of [...concepts].map((x) => x.id).sort((a, b) => before(b, a))) {
    let best: string | undefined;
    let bestScore = MIN_AFFINITY;
    for (const h of shared.get(c)?.keys() ?? []) {
      if (!headAt.has(h)) continue;
      const score = jaccard(c, h);
      if (score < bestScore) continue;
      if (!best || score > bestScore || headAt.get(h)! < headAt.get(best)!) [best, bestScore] = [h, score];
    }
    const head = best ?? c;
    if (!best) headAt.set(c, headAt.size);
    topicOfConcept.set(c, head);
    (members.get(head) ?? members.set(head, []).get(head)!).push(c);
  }
  const sourcesOfTopic = new Map<string, string[]>();
  for (const s of sources) {
    const votes = new Map<string, number>();
    // A concept few sources cite says more of what a source is about than one every source cites.
    for (const l of new Set(s.links)) {
      const t = topicOfConcept.get(l);
      if (t) votes.set(t, (votes.get(t) ?? 0) + 1 / degree(l));
    }
    const top = [...votes].sort((a, b) => b[1] - a[1] || before(b[0], a[0]))[0];
    if (top) (sourcesOfTopic.get(top[0]) ?? sourcesOfTopic.set(top[0], []).get(top[0])!).push(s.id);
  }
  const byTitle = (a: string, b: string) => (title.get(a) ?? a).localeCompare(title.get(b) ?? b);
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
