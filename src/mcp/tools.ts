import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writableStore, type KbContext } from '../kb/context.js';
import type { EntryRow } from '../store/store.js';
import { fileBaseName, linkKey } from '../entry/names.js';
import { retrieve } from '../ask/retrieve.js';
import { packContext } from '../ask/pack.js';
import { ask } from '../ask/ask.js';
import { saveAnswer } from '../ask/save.js';
import type { Citation } from '../ask/answer.js';
import { createModelClient, type ModelClient } from '../model/client.js';
import { computeStatus, type KbStatus } from '../status/status.js';
import { KbError } from '../diagnostics/errors.js';

/**
 * What the MCP tools do, as plain functions of the knowledge base (the server in server.ts only
 * declares them and turns results and errors into MCP replies), so they can be tested directly.
 */

/** An entry named by id, title, file name, alias or wiki path — as a person or an agent would name it. */
export function findEntry(ctx: KbContext, name: string): EntryRow | undefined {
  const { store } = ctx;
  const byId = store.getEntry(name.trim());
  if (byId) return byId;
  const key = linkKey(
    name
      .replace(/^\[\[|\]\]$/g, '')
      .replace(/^wiki\//, '')
      .replace(/\.md$/i, ''),
  );
  const all = store.allEntries();
  return (
    all.find((e) => linkKey(e.path.replace(/\.md$/i, '')) === key) ??
    all.find((e) => linkKey(e.title) === key) ??
    all.find((e) => linkKey(fileBaseName(e.path)) === key) ??
    all.find((e) => e.aliases.some((a) => linkKey(a) === key))
  );
}

export interface SearchOutput {
  query: string;
  entries: { id: string; kind: string; title: string; path: string; summary: string; score: number; via: string[] }[];
  passages: {
    entryId: string;
    title: string;
    source: string | null;
    heading: string;
    line: number;
    text: string;
    score: number;
  }[];
}

export async function searchTool(
  ctx: KbContext,
  args: { query: string; limit?: number | undefined; kind?: string | undefined },
  signal?: AbortSignal,
): Promise<SearchOutput> {
  const limit = args.limit ?? 10;
  const r = await retrieve(ctx, args.query, { limit: args.kind ? limit * 3 : limit, passageLimit: limit, signal });
  const entries = r.entries.filter((e) => !args.kind || e.kind === args.kind).slice(0, limit);
  const keep = new Set(entries.map((e) => e.id));
  return {
    query: args.query,
    entries: entries.map((e) => ({
      id: e.id,
      kind: e.kind,
      title: e.title,
      path: `wiki/${e.path}`,
      summary: e.summary,
      score: round(e.score),
      via: e.via,
    })),
    passages: r.passages
      .filter((p) => !args.kind || keep.has(p.entryId))
      .slice(0, limit)
      .map((p) => ({
        entryId: p.entryId,
        title: p.title,
        source: p.rawPath ? `raw/${p.rawPath}` : null,
        heading: p.heading,
        line: p.line,
        text: p.text,
        score: round(p.score),
      })),
  };
}

/** The model client for `ask`, made once per server (it holds the response cache open); undefined offline or without a key. */
export function modelFor(ctx: KbContext, offline: boolean): () => ModelClient | undefined {
  let made = false;
  let client: ModelClient | undefined;
  return () => {
    if (!made) {
      client = offline ? undefined : createModelClient(ctx);
      made = true;
    }
    return client;
  };
}

export async function askTool(
  ctx: KbContext,
  args: { question: string; budget?: number | undefined },
  model: ModelClient | undefined,
  signal?: AbortSignal,
) {
  const r = await ask(ctx, args.question, { budget: args.budget ?? ctx.config.ask.budget, model, signal });
  return {
    question: r.question,
    answer: r.answer,
    citations: r.citations,
    mode: r.mode,
    ...(r.model ? { model: r.model } : {}),
    cached: r.cached,
    context: r.context,
  };
}

export function readTool(
  ctx: KbContext,
  args: { entry: string },
): { id: string; kind: string; title: string; path: string; text: string } {
  const row = findEntry(ctx, args.entry);
  if (!row)
    throw new KbError(
      `No entry named "${args.entry}" (looked at ids, titles, file names and aliases). Use the search tool to find the right name.`,
    );
  let text: string;
  try {
    text = readFileSync(join(ctx.paths.wiki, row.path), 'utf8');
  } catch {
    throw new KbError(
      `Entry ${row.id} is indexed but its file wiki/${row.path} is missing; run \`kb compile\` to restore it.`,
    );
  }
  return { id: row.id, kind: row.kind, title: row.title, path: `wiki/${row.path}`, text };
}

export async function contextTool(
  ctx: KbContext,
  args: { topic: string; budget?: number | undefined },
  signal?: AbortSignal,
) {
  const budget = args.budget ?? ctx.config.ask.budget;
  const r = await retrieve(ctx, args.topic, { signal });
  const packed = packContext(ctx.store, r, { budget });
  return {
    topic: args.topic,
    tokens: packed.tokens,
    budget,
    entries: packed.entries.map((e) => e.id),
    xml: packed.xml,
  };
}

export async function saveTool(
  ctx: KbContext,
  args: { title: string; content: string; cites?: string[] | undefined },
  signal?: AbortSignal,
) {
  const citations: Citation[] = [];
  const unknown: string[] = [];
  for (const name of args.cites ?? []) {
    const row = findEntry(ctx, name);
    if (row) citations.push({ id: row.id, title: row.title, file: fileBaseName(row.path) });
    else unknown.push(name);
  }
  if (unknown.length)
    throw new KbError(
      `Cannot cite ${unknown.map((u) => `"${u}"`).join(', ')}: no such entry. Cite entries by id or title (the search tool lists them), or leave them out.`,
    );
  writableStore(ctx);
  const r = await saveAnswer(
    ctx,
    { question: args.title, answer: args.content, citations, by: 'mcp' },
    { ...(signal ? { signal } : {}), lockWaitMs: 30_000 },
  );
  return { ...r, path: `wiki/${r.path}` };
}

export function statusTool(ctx: KbContext): KbStatus {
  return computeStatus(ctx);
}

function round(n: number): number {
  return Math.round(n * 10000) / 10000;
}
