import { describe, expect, it } from 'vitest';
import type { EntryRow } from '../store/store.js';
import type { Catalog } from './catalog.js';
import { drawnEdges, graphData } from './graph.js';

/** A catalog of a star (c links to s1…s5), a chain s1 → a, and one entry linked to nothing. */
function catalog(): Catalog {
  const row = (id: string): EntryRow => ({
    id,
    kind: id.split('/')[0]!,
    title: id,
    path: `${id}.md`,
    aliases: [],
    summary: '',
    source_ref: [],
    content_hash: '',
    human_edited: false,
    updated: 0,
  });
  const ids = ['answer/a', 'concept/c', 'concept/alone', ...[1, 2, 3, 4, 5].map((i) => `source/s${i}`)];
  const entries = ids.map(row);
  const links = new Map<string, string[]>([
    ['concept/c', ['source/s1', 'source/s2', 'source/s3', 'source/s4', 'source/s5', 'concept/gone']],
    ['answer/a', ['source/s1']],
  ]);
  const backlinks = new Map<string, string[]>();
  for (const [s, ds] of links) for (const d of ds) backlinks.set(d, [...(backlinks.get(d) ?? []), s]);
  return {
    entries,
    byId: new Map(entries.map((e) => [e.id, e])),
    byPage: new Map(),
    links,
    backlinks,
    topics: { topics: [], rest: [] },
    resolve: () => undefined,
    language: 'en',
    version: '1',
  };
}

const href = (id: string) => `entry/${id}`;

describe('graphData', () => {
  it('draws every entry and every link between entries (none to an entry that is gone), each node placed', () => {
    const g = graphData(catalog(), href);
    expect(g.nodes.map((n) => n.id).sort()).toEqual([...catalog().byId.keys()].sort());
    expect(g.edges).toHaveLength(6);
    expect(g.total).toBe(8);
    for (const n of g.nodes) {
      expect(Number.isFinite(n.x) && Number.isFinite(n.y)).toBe(true);
      expect(n.href).toBe(`entry/${n.id}`);
    }
    const c = g.nodes.find((n) => n.id === 'concept/c')!;
    const alone = g.nodes.find((n) => n.id === 'concept/alone')!;
    expect(c.size).toBeGreaterThan(alone.size);
  });

  it('draws the same wiki the same way every time', () => {
    expect(graphData(catalog(), href)).toEqual(graphData(catalog(), href));
  });

  it('a neighbourhood: the entry, what it links to and what links to it, and their neighbours when few', () => {
    const g = graphData(catalog(), href, 'source/s1');
    expect(g.focus).toBe('source/s1');
    expect(g.nodes.map((n) => n.id).sort()).toEqual(
      ['answer/a', 'concept/c', 'source/s1', 'source/s2', 'source/s3', 'source/s4', 'source/s5'].sort(),
    );
    expect(g.total).toBe(g.nodes.length);
  });

  it('stops at the limit and says how many the wiki holds', () => {
    const g = graphData(catalog(), href, undefined, 3);
    expect(g.nodes).toHaveLength(3);
    expect(g.total).toBe(8);
  });

  it('draws, of more links than the budget, each entry’s links to its best-connected neighbours', () => {
    // A hub (0) linked to 1…6, and a chain 1-2-3-4-5-6.
    const edges: [number, number][] = [
      ...[1, 2, 3, 4, 5, 6].map((i) => [0, i] as [number, number]),
      [1, 2],
      [2, 3],
      [3, 4],
      [4, 5],
      [5, 6],
    ];
    const degree = [6, 2, 3, 3, 3, 3, 2];
    expect(drawnEdges(edges, degree, 20)).toBe(edges);
    const drawn = drawnEdges(edges, degree, 7);
    expect(drawn.length).toBeLessThanOrEqual(7);
    // Every node keeps its link to the hub.
    for (const i of [1, 2, 3, 4, 5, 6]) expect(drawn).toContainEqual([0, i]);
  });
});
