import { readFileSync } from 'node:fs';
import type { KbContext } from '../kb/context.js';
import { KbError } from '../diagnostics/errors.js';
import { catalogCache } from './catalog.js';
import { createApi } from './api.js';
import { assetPaths } from './assets.js';
import { attachments, entryView, pageRenderer } from './entry-view.js';
import { entryPage } from './entry-page.js';
import { hrefs, type Site } from './html.js';
import { mimeOf, wikiFile } from './files.js';
import { askPage, graphPage, indexPage, missingPage, pageContext, searchPage } from './pages.js';
import { graphCache, graphData } from './graph.js';

export interface Reply {
  status: number;
  type: string;
  body: string | Buffer;
}

const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const json = (v: unknown, status = 200): Reply => ({ status, type: JSON_TYPE, body: JSON.stringify(v) });
const SITE: Site = { static: false, base: '/' };

/**
 * Every page and call of `kb serve`, as a function of method, URL and body. The catalog is read
 * again when the store changed and every entry file on each request, so edits show at once.
 */
export function createRoutes(ctx: KbContext, opts: { offline: boolean }) {
  const catalog = catalogCache(ctx);
  const h = hrefs(SITE);
  const api = createApi(ctx, { offline: opts.offline, catalog, h });
  const wholeGraph = graphCache(h.entry);
  const assets = assetPaths();
  const rendered = renderCache();

  function page(path: string, q: URLSearchParams): Reply | undefined {
    const cat = catalog();
    const pc = pageContext(SITE, cat);
    const html = (body: string, status = 200): Reply => ({ status, type: HTML, body });
    if (path === '/') return html(indexPage(pc, cat));
    if (path === '/search') return html(searchPage(pc, q.get('q') ?? ''));
    if (path === '/ask') return html(askPage(pc));
    if (path === '/graph') {
      const id = q.get('id');
      const focus = id ? cat.byId.get(id) : undefined;
      return id && !focus ? html(missingPage(pc), 404) : html(graphPage(pc, focus));
    }
    if (path.startsWith('/entry/')) {
      const row = cat.byPage.get(safeDecode(path.slice('/entry/'.length)) ?? '');
      const view =
        row &&
        entryView(
          ctx.paths.wiki,
          cat,
          row,
          rendered(cat, () => pageRenderer(cat, h, attachments(ctx.paths.wiki))),
        );
      return view ? html(entryPage(pc, view)) : html(missingPage(pc), 404);
    }
    return undefined;
  }

  async function call(
    method: string,
    path: string,
    q: URLSearchParams,
    body: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<Reply | undefined> {
    if (method === 'GET' && path === '/api/search') return json(await api.search(q.get('q'), signal));
    if (method === 'GET' && path === '/api/lint') return json(await api.lint(q.get('id')));
    if (method === 'GET' && path === '/api/graph') {
      const cat = catalog();
      const id = q.get('id');
      if (id && !cat.byId.has(id)) return json({ error: 'No such entry.' }, 404);
      return json(id ? graphData(cat, h.entry, id) : wholeGraph(cat));
    }
    if (method === 'POST' && path === '/api/ask') return json(await api.ask(body['question'], signal));
    if (method === 'POST' && path === '/api/save') return json(await api.save(body['id'], signal));
    return undefined;
  }

  function file(path: string): Reply | undefined {
    if (path === '/favicon.ico') return { status: 204, type: 'image/x-icon', body: '' };
    if (path.startsWith('/assets/')) {
      const abs = assets[path.slice('/assets/'.length)];
      return abs ? { status: 200, type: mimeOf(abs), body: readFileSync(abs) } : undefined;
    }
    if (path.startsWith('/wiki/')) {
      const abs = wikiFile(ctx.paths.wiki, path.slice('/wiki/'.length));
      return abs ? { status: 200, type: mimeOf(abs), body: readFileSync(abs) } : undefined;
    }
    return undefined;
  }

  return async (method: string, url: URL, body: Record<string, unknown>, signal: AbortSignal): Promise<Reply> => {
    // The raw path, not url.pathname's: `%2f` must stay a part of one name, never become a separator.
    const path = url.pathname;
    try {
      const r =
        (method === 'GET' ? (page(path, url.searchParams) ?? file(path)) : undefined) ??
        (await call(method, path, url.searchParams, body, signal));
      return r ?? { status: 404, type: 'text/plain; charset=utf-8', body: 'Not found' };
    } catch (err) {
      if (err instanceof KbError) return json({ error: err.message }, 400);
      throw err;
    }
  };
}

/** Bodies rendered lately (parsing Markdown is most of an entry page's time), kept while the catalog their links resolve against stays. */
const RENDERED = 200;

function renderCache() {
  let version = '';
  const html = new Map<string, string>();
  return (cat: { version: string }, make: () => (md: string) => string) => {
    if (cat.version !== version) {
      html.clear();
      version = cat.version;
    }
    let render: ((md: string) => string) | undefined;
    return (md: string) => {
      const hit = html.get(md);
      if (hit !== undefined) return hit;
      render ??= make();
      const out = render(md);
      if (html.size >= RENDERED) html.delete(html.keys().next().value!);
      html.set(md, out);
      return out;
    };
  };
}

function safeDecode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}
