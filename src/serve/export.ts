import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { KbContext } from '../kb/context.js';
import { lintKb } from '../lint/run.js';
import type { Finding } from '../lint/types.js';
import { UsageError } from '../diagnostics/errors.js';
import { buildCatalog, storeStamp, type Catalog } from './catalog.js';
import { assetPaths } from './assets.js';
import { attachments, entryView, pageRenderer } from './entry-view.js';
import { wikiFile } from './files.js';
import { entryPage } from './entry-page.js';
import { hrefs, pageName, type Site } from './html.js';
import { graphData } from './graph.js';
import { graphPage, indexPage, pageContext, searchPage } from './pages.js';
import { llmsText, searchIndex } from './export-index.js';

export interface ExportResult {
  dir: string;
  pages: number;
  attachments: number;
  ms: number;
}

/** Marks a folder as kb's export, so a second export may replace what the first wrote. */
const MARK = '.kb-export';

/** The folder to write into: new, empty, or an earlier export (whose pages are removed first); never inside the knowledge base's own folders. */
function prepareDir(ctx: KbContext, dirArg: string): string {
  const dir = resolve(dirArg);
  for (const own of [ctx.paths.wiki, ctx.paths.raw, ctx.paths.state])
    if (dir === own || dir.startsWith(own + sep))
      throw new UsageError(
        `Unexpected --html ${dirArg} inside ${relative(ctx.paths.root, own) || own}/, expected a folder of its own`,
      );
  if (existsSync(dir) && readdirSync(dir).length && !existsSync(join(dir, MARK)))
    throw new UsageError(
      `Unexpected --html ${dirArg}: the folder holds files kb did not write, expected a new or empty folder (or an earlier export)`,
    );
  for (const sub of ['entry', 'assets', 'wiki']) rmSync(join(dir, sub), { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, MARK), "Written by `kb export --html`; the next export replaces this folder's pages.\n");
  return dir;
}

function write(dir: string, rel: string, text: string): void {
  const abs = join(dir, ...rel.split('/'));
  mkdirSync(join(abs, '..'), { recursive: true });
  writeFileSync(abs, text);
}

/** Every entry's page (with its lint findings) and its Markdown beside it, for llms.txt. */
function writeEntries(ctx: KbContext, dir: string, cat: Catalog, findings: Finding[], signal?: AbortSignal): number {
  const site: Site = { static: true, base: '../../' };
  const pc = pageContext(site, cat);
  const render = pageRenderer(cat, pc.h, attachments(ctx.paths.wiki));
  const byFile = new Map<string, Finding[]>();
  for (const f of findings) {
    const file = f.data?.path ?? f.file;
    (byFile.get(file) ?? byFile.set(file, []).get(file)!).push(f);
  }
  let n = 0;
  for (const row of cat.entries) {
    signal?.throwIfAborted();
    const view = entryView(ctx.paths.wiki, cat, row, render);
    if (!view) continue;
    const name = pageName(row.id);
    write(dir, `entry/${name}.html`, entryPage(pc, view, byFile.get(`wiki/${row.path}`) ?? []));
    write(dir, `entry/${name}.md`, readFileSync(join(ctx.paths.wiki, row.path), 'utf8'));
    n++;
  }
  return n;
}

/** `kb export --html DIR`: the same pages as `kb serve`, search from an index built into search.html, and llms.txt. */
export async function exportSite(
  ctx: KbContext,
  dirArg: string,
  opts: { signal?: AbortSignal } = {},
): Promise<ExportResult> {
  const t0 = performance.now();
  const dir = prepareDir(ctx, dirArg);
  const cat = buildCatalog(ctx, storeStamp(ctx));
  const findings = cat.entries.length
    ? (await lintKb(ctx.paths.root, { offline: true, signal: opts.signal })).findings
    : [];
  const root: Site = { static: true, base: './' };
  const pc = pageContext(root, cat);
  write(dir, 'index.html', indexPage(pc, cat));
  write(dir, 'search.html', searchPage(pc, '', searchIndex(ctx, cat, pc.h)));
  write(dir, 'graph.html', graphPage(pc, undefined, graphData(cat, pc.h.entry)));
  write(dir, 'llms.txt', llmsText(cat, hrefs(root)));
  const pages = writeEntries(ctx, dir, cat, findings, opts.signal);
  mkdirSync(join(dir, 'assets'), { recursive: true });
  for (const [name, abs] of Object.entries(assetPaths())) copyFileSync(abs, join(dir, 'assets', name));
  // Only files whose real path is inside wiki/: a symlink out of it is not followed into the site.
  const files = [...attachments(ctx.paths.wiki).values()].filter((f) => wikiFile(ctx.paths.wiki, f));
  if (files.length) mkdirSync(join(dir, 'wiki', 'attachments'), { recursive: true });
  for (const f of files) copyFileSync(wikiFile(ctx.paths.wiki, f)!, join(dir, 'wiki', f));
  return { dir, pages, attachments: files.length, ms: Math.round(performance.now() - t0) };
}
