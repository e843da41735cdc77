import { statSync } from 'node:fs';
import { storeOnDisk, type KbContext } from '../kb/context.js';
import type { EntryRow } from '../store/store.js';
import { fileBaseName, linkKey } from '../entry/names.js';
import { indexTopics, type Topic } from '../emit/topics.js';
import { uiLanguage, type UiLanguage } from './words.js';
import { pageName } from './html.js';

/**
 * What the pages know of the wiki: every entry row and link the store holds, the backlinks, the
 * index's topics and a name resolver. Read again whenever the store changed (its file or WAL), so a
 * `kb compile` or `kb watch` beside the server shows at the next request without a restart.
 */
export interface Catalog {
  entries: EntryRow[];
  byId: Map<string, EntryRow>;
  /** By page name (html.ts pageName): how a URL names an entry. */
  byPage: Map<string, EntryRow>;
  links: Map<string, string[]>;
  backlinks: Map<string, string[]>;
  topics: { topics: Topic[]; rest: string[] };
  /** The entry a `[[name]]` points to: file name, title, then alias (as Obsidian and kb resolve them). */
  resolve(name: string): EntryRow | undefined;
  language: UiLanguage;
  /** Changes whenever the store does. */
  version: string;
}

/** The store's file and WAL sizes and times: a commit changes them, a read does not. */
export function storeStamp(ctx: KbContext): string {
  const parts: string[] = [];
  for (const p of [ctx.paths.db, `${ctx.paths.db}-wal`]) {
    try {
      const st = statSync(p);
      parts.push(`${st.mtimeMs}:${st.size}`);
    } catch {
      parts.push('-');
    }
  }
  return parts.join('|');
}

export function buildCatalog(ctx: KbContext, version: string): Catalog {
  const store = storeOnDisk(ctx);
  const entries = store.allEntries();
  const byId = new Map(entries.map((e) => [e.id, e]));
  const links = store.allLinks();
  const backlinks = new Map<string, string[]>();
  for (const [src, dsts] of links)
    for (const d of dsts) if (byId.has(src)) (backlinks.get(d) ?? backlinks.set(d, []).get(d)!).push(src);
  const names = new Map<string, EntryRow>();
  // Later sets lose: a file name wins over a title, a title over an alias.
  const add = (name: string, e: EntryRow) => {
    const k = linkKey(name);
    if (k && !names.has(k)) names.set(k, e);
  };
  for (const e of entries) add(fileBaseName(e.path), e);
  for (const e of entries) add(e.title, e);
  for (const e of entries) for (const a of e.aliases) add(a, e);
  const topics = indexTopics(
    entries.map((e) => ({ id: e.id, kind: e.kind, title: e.title, links: links.get(e.id) ?? [] })),
  );
  const sample = entries.slice(0, 2000).map((e) => `${e.title} ${e.summary.slice(0, 200)}`);
  return {
    entries,
    byId,
    byPage: new Map(entries.map((e) => [pageName(e.id), e])),
    links,
    backlinks,
    topics,
    resolve: (name) => names.get(linkKey(name.replace(/#.*$/, '').replace(/\.md$/i, ''))),
    language: uiLanguage(ctx.config.wiki.language, sample),
    version,
  };
}

/** A catalog read once per change of the store. */
export function catalogCache(ctx: KbContext): () => Catalog {
  let last: Catalog | undefined;
  return () => {
    const stamp = storeStamp(ctx);
    if (!last || last.version !== stamp) last = buildCatalog(ctx, stamp);
    return last;
  };
}
