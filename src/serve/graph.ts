import { createRequire } from 'node:module';
import type { UndirectedGraph } from 'graphology';
import type { Catalog } from './catalog.js';

/** The graph as the browser draws it: nodes with a position, edges as pairs of node indexes. */
export interface GraphData {
  nodes: { id: string; label: string; kind: string; x: number; y: number; size: number; href: string }[];
  edges: [number, number][];
  /** Entries the wiki holds: more than the nodes when the whole graph is cut at its limit. */
  total: number;
  /** Links between the nodes: more than the edges when only the strongest are drawn. */
  totalEdges: number;
  /** The entry a neighbourhood is drawn around. */
  focus?: string;
}

/** Colours by kind, shared with the legend (app.css uses the same three). */
export const KIND_COLOURS: Record<string, string> = { source: '#4c78a8', concept: '#f58518', answer: '#54a24b' };

const require = createRequire(import.meta.url);

/** Layout rounds by size: enough to untangle a small graph; a few for 10,000 entries (Barnes–Hut). */
function rounds(order: number): number {
  return order <= 300 ? 300 : order <= 2000 ? 120 : order <= 5000 ? 50 : 30;
}

/**
 * Place the nodes with ForceAtlas2 (graphology-layout-forceatlas2), from a golden-angle spiral so
 * the same wiki is drawn the same way every time.
 */
function layout(ids: string[], edges: [number, number][]): { x: number; y: number }[] {
  const { UndirectedGraph: GraphCtor } = require('graphology') as { UndirectedGraph: typeof UndirectedGraph };
  const fa2 = require('graphology-layout-forceatlas2') as typeof import('graphology-layout-forceatlas2').default;
  const g = new GraphCtor();
  const golden = Math.PI * (3 - Math.sqrt(5));
  ids.forEach((id, i) => {
    const r = Math.sqrt(i + 1) * 10;
    g.addNode(id, { x: r * Math.cos(i * golden), y: r * Math.sin(i * golden) });
  });
  for (const [a, b] of edges) if (a !== b) g.mergeEdge(ids[a]!, ids[b]!);
  if (ids.length > 1)
    fa2.assign(g, {
      iterations: rounds(ids.length),
      // Strong gravity keeps an entry without links beside the others, not far off in a corner where
      // it would squeeze the rest of the drawing to one side.
      settings: {
        ...fa2.inferSettings(g),
        strongGravityMode: true,
        gravity: 0.05,
        barnesHutOptimize: ids.length > 1000,
      },
    });
  return ids.map((id) => g.getNodeAttributes(id) as { x: number; y: number });
}

/**
 * Links a browser draws at most: a wiki of 10,000 entries has some 200,000, which would hold a
 * page for seconds; the layout uses them all, the drawing the strongest of each entry.
 */
export const MAX_DRAWN_EDGES = 30_000;

/**
 * The edges drawn when there are more than `budget`: each node keeps its links to its
 * best-connected neighbours, as many as its share of the budget, so hubs and the way to them stay.
 */
export function drawnEdges(edges: [number, number][], degree: number[], budget: number): [number, number][] {
  if (edges.length <= budget) return edges;
  const per = Math.max(1, Math.floor(budget / degree.length));
  const byNode = new Map<number, number[]>();
  edges.forEach(([a, b], k) => {
    (byNode.get(a) ?? byNode.set(a, []).get(a)!).push(k);
    (byNode.get(b) ?? byNode.set(b, []).get(b)!).push(k);
  });
  const keep = new Set<number>();
  for (const [node, ks] of byNode) {
    const other = (k: number) => (edges[k]![0] === node ? edges[k]![1] : edges[k]![0]);
    ks.sort((x, y) => degree[other(y)]! - degree[other(x)]! || x - y);
    for (const k of ks.slice(0, per)) keep.add(k);
  }
  return [...keep]
    .sort((x, y) => x - y)
    .slice(0, budget)
    .map((k) => edges[k]!);
}

/** The ids a neighbourhood holds: the entry, what it links to and what links to it, and their neighbours when few. */
function neighbourhood(cat: Catalog, focus: string, limit: number): string[] {
  const near = (id: string) => [...(cat.links.get(id) ?? []), ...(cat.backlinks.get(id) ?? [])];
  const out = new Set([focus, ...near(focus)]);
  if (out.size < limit / 4) for (const id of [...out]) for (const n of near(id)) if (out.size < limit) out.add(n);
  return [...out].filter((id) => cat.byId.has(id)).slice(0, limit);
}

/** Nodes and edges of the whole wiki (its first `limit` entries by kind and title), or of one entry's neighbourhood, laid out. */
export function graphData(cat: Catalog, href: (id: string) => string, focus?: string, limit = 10_000): GraphData {
  const ids = focus ? neighbourhood(cat, focus, 300) : cat.entries.slice(0, limit).map((e) => e.id);
  const index = new Map(ids.map((id, i) => [id, i]));
  const degree = new Array<number>(ids.length).fill(0);
  const edges: [number, number][] = [];
  ids.forEach((id, i) => {
    for (const d of cat.links.get(id) ?? []) {
      const j = index.get(d);
      if (j === undefined || j === i) continue;
      edges.push([i, j]);
      degree[i]!++;
      degree[j]!++;
    }
  });
  const pos = layout(ids, edges);
  const nodes = ids.map((id, i) => {
    const e = cat.byId.get(id)!;
    return {
      id,
      label: e.title,
      kind: e.kind,
      x: Math.round(pos[i]!.x * 100) / 100,
      y: Math.round(pos[i]!.y * 100) / 100,
      size: Math.round((2 + Math.log2(1 + degree[i]!) * 1.2) * 10) / 10,
      href: href(id),
    };
  });
  return {
    nodes,
    edges: drawnEdges(edges, degree, MAX_DRAWN_EDGES),
    total: focus ? nodes.length : cat.entries.length,
    totalEdges: edges.length,
    ...(focus ? { focus } : {}),
  };
}

/** The whole graph, laid out once per version of the catalog (a layout of 10,000 entries takes a few seconds). */
export function graphCache(href: (id: string) => string): (cat: Catalog) => GraphData {
  let last: { version: string; data: GraphData } | undefined;
  return (cat) => {
    if (last?.version !== cat.version) last = { version: cat.version, data: graphData(cat, href) };
    return last.data;
  };
}
