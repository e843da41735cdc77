/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { request } from 'node:http';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, read, REPO, runKb } from './helpers.js';
import { launchBrowser, startKbServe } from './browser.js';
import { closeKb, openKb } from '../src/kb/context.js';
import { startServer, type RunningServer } from '../src/serve/server.js';

/** Part of the repository's own sample raw/ (English and Chinese, whose shared names become linked concept entries, and an image), and two hostile documents. */
const SAMPLE = [
  'articles/bm25-and-full-text-search.md',
  'articles/embeddings-and-vector-databases.md',
  'articles/retrieval-augmented-generation-primer.md',
  'articles/hallucination-and-citations.md',
  'clips/Hybrid Search with Reciprocal Rank Fusion.md',
  'notes/rag-pipeline-sketch.md',
  'images/rag-pipeline.png',
  'zh/中文分词与全文检索.md',
  'zh/向量数据库笔记.md',
  'zh/检索增强生成入门.md',
  'zh/混合检索与倒数排名融合.md',
];

const SERVE_DOCS: Record<string, string | Buffer> = {
  ...Object.fromEntries(SAMPLE.map((p) => [`raw/${p}`, readFileSync(join(REPO, 'raw', p))])),
  'raw/hostile.md': [
    '---',
    'title: "Hostile <img src=x onerror=window.__pwned=\'title\'> Note"',
    '---',
    '',
    'A note about the vector database with hostile markup. <script>window.__pwned = "md-script"</script>',
    '',
    '<img src="x" onerror="window.__pwned = \'md-onerror\'">',
    '',
    "[click me](javascript:window.__pwned='md-href')",
    '',
    '<iframe src="javascript:window.__pwned=\'md-iframe\'"></iframe><svg onload="window.__pwned=\'md-svg\'"></svg>',
    '',
  ].join('\n'),
  'raw/hostile.html':
    '<html><head><title>Hostile Page</title><script>window.__pwned="html-head"</script></head><body><article><h1>Hostile Page</h1>' +
    '<p>Vector databases keep embeddings for HNSW search. <img src="x" onerror="window.__pwned=\'html-onerror\'"></p>' +
    '<p>More about the vector database: <a href="javascript:window.__pwned=\'html-href\'">a link</a>.</p>' +
    '<script>window.__pwned="html-body"; alert(1)</script><svg onload="window.__pwned=\'html-svg\'"></svg></article></body></html>',
};

let root: string;
let browser: Browser;
let serve: Awaited<ReturnType<typeof startKbServe>>;
const dialogs: string[] = [];

async function newPage(): Promise<Page> {
  const page = await browser.newPage();
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return page;
}

/** A request sent as written (fetch and the browser would tidy `..` away before the server sees it). */
function rawGet(
  url: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method: 'GET', headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  root = fixture(SERVE_DOCS);
  const [compiled, b] = await Promise.all([runKb(['compile'], { cwd: root }), launchBrowser()]);
  browser = b;
  expect(compiled.code, compiled.stderr).toBe(0);
  serve = await startKbServe(root);
}, 120_000);

afterAll(async () => {
  await serve?.stop();
  await browser?.close();
});

describe('kb serve in a browser', () => {
  it('prints a loopback URL on a free port', () => {
    expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it('opens the index (grouped, with counts) and follows a wikilink from entry to entry', async () => {
    const page = await newPage();
    await page.goto(serve.url);
    await expect(page.locator('main h1').textContent()).resolves.toBe('Index');
    expect(await page.locator('main p.count').first().textContent()).toMatch(/^\d+ entries$/);
    await expect(page.locator('main h2', { hasText: /^Concepts \(\d+\)$/ }).count()).resolves.toBe(1);
    await expect(page.locator('main h2', { hasText: /^Sources \(\d+\)$/ }).count()).resolves.toBe(1);
    expect(await page.locator('main h3').count()).toBeGreaterThan(0);
    await page
      .locator('main a', { hasText: /^BM25 and Full-Text Search/ })
      .first()
      .click();
    await page.waitForURL(/\/entry\/source\//);
    await expect(page.locator('article.entry h1').textContent()).resolves.toMatch(/^BM25 and Full-Text Search/);
    await expect(page.locator('dl.facts').textContent()).resolves.toMatch(/Kind.*source/);
    const link = page.locator('article.entry a.wikilink', { hasText: /^FTS5$/ }).first();
    await link.click();
    await page.waitForURL(/\/entry\/concept\/fts5$/);
    await expect(page.locator('article.entry h1').textContent()).resolves.toBe('FTS5');
    expect(await page.locator('aside h2', { hasText: /^Backlinks \(\d+\)$/ }).textContent()).not.toBe('Backlinks (0)');
    await page.locator('#lint ul, #lint p.none:not(:has-text("Loading"))').first().waitFor();
    await page.close();
  });

  it('shows a concept’s sources in each language, and an embedded image', async () => {
    const page = await newPage();
    await page.goto(`${serve.url}entry/concept/bm25`);
    const heads = await page.locator('aside h3').allTextContents();
    expect(heads.some((h) => /^English \(\d+\)$/.test(h))).toBe(true);
    expect(heads.some((h) => /^Chinese \(\d+\)$/.test(h))).toBe(true);
    await page.goto(`${serve.url}entry/source/rag-pipeline-png`);
    const img = page.locator('article.entry img.embed');
    await expect(img.getAttribute('src')).resolves.toBe('wiki/attachments/rag-pipeline.png');
    await page.waitForFunction(
      () => (document.querySelector('article.entry img.embed') as HTMLImageElement)?.naturalWidth > 0,
    );
    await page.close();
  });

  it('searches as you type, in English and in Chinese, with passages', async () => {
    const page = await newPage();
    await page.goto(`${serve.url}search`);
    await page.locator('#q').pressSequentially('reciprocal rank fusion', { delay: 10 });
    await page.waitForFunction(() =>
      [...document.querySelectorAll('ol.results > li > a')].some((a) => a.textContent === 'Reciprocal Rank Fusion'),
    );
    await expect(page.locator('ol.passages li').count()).resolves.toBeGreaterThan(0);
    await page.locator('#q').fill('中文分词');
    await page.waitForFunction(() => document.querySelector('ol.results > li > a')?.textContent?.includes('中文分词'));
    expect(page.url()).toContain(`q=${encodeURIComponent('中文分词')}`);
    await page.close();
  });

  it('asks a question, saves the answer, and the index shows it without a restart', async () => {
    const page = await newPage();
    await page.goto(`${serve.url}ask`);
    await page.locator('#question').fill('What does reciprocal rank fusion do?');
    await page.locator('#ask-form button').click();
    await page.locator('#answer:not([hidden])').waitFor();
    await expect(page.locator('#answer ul.citations a').count()).resolves.toBeGreaterThan(0);
    await page.locator('#save').click();
    await page.locator('#save-result a').waitFor();
    const path = await page.locator('#save-result a').textContent();
    expect(path).toMatch(/^wiki\/answers\/.+\.md$/);
    expect(existsSync(join(root, path!))).toBe(true);
    expect(read(root, 'wiki/log.md')).toMatch(/ask --save \| filed/);
    await page.locator('#save-result a').click();
    await page.waitForURL(/\/entry\/answer\//);
    await page.goto(serve.url);
    await expect(page.locator('main h2', { hasText: /^Answers \(1\)$/ }).count()).resolves.toBe(1);
    await page.close();
  });

  it('shows an edit of an entry file at the next request', async () => {
    const name = readdirSync(join(root, 'wiki', 'sources')).find((f) => f.startsWith('BM25 and'))!;
    appendFileSync(join(root, 'wiki', 'sources', name), '\nAn edit made while the server runs.\n');
    const page = await newPage();
    await page.goto(serve.url);
    await page
      .locator('main a', { hasText: /^BM25 and Full-Text Search/ })
      .first()
      .click();
    await expect(page.locator('article.entry').textContent()).resolves.toContain('An edit made while the server runs.');
    await page.close();
  });

  it('loads the whole graph and an entry’s neighbourhood, coloured by kind', async () => {
    type G = { order: number; size: number; nodes(): string[]; getNodeAttribute(n: string, a: string): string };
    const graphOf = (page: Page) =>
      page.evaluate(() => {
        const g = (window as unknown as { kbGraph: { graph: G } }).kbGraph.graph;
        return {
          order: g.order,
          size: g.size,
          colours: [...new Set(g.nodes().map((n) => g.getNodeAttribute(n, 'color')))],
        };
      });
    const page = await newPage();
    await page.goto(`${serve.url}graph`);
    await page.waitForFunction(() => (window as unknown as { kbGraph?: unknown }).kbGraph);
    const whole = await graphOf(page);
    const files = ['sources', 'concepts', 'answers'].flatMap((d) =>
      existsSync(join(root, 'wiki', d)) ? readdirSync(join(root, 'wiki', d)) : [],
    );
    expect(whole.order).toBe(files.length);
    expect(whole.size).toBeGreaterThan(whole.order);
    expect(whole.colours.length).toBe(3);
    await expect(page.locator('#graph canvas').count()).resolves.toBeGreaterThan(0);
    await expect(page.locator('#graph-count').textContent()).resolves.toMatch(/^\d+ entries · \d+ links$/);
    await page.goto(`${serve.url}graph?id=${encodeURIComponent('concept/fts5')}`);
    await page.waitForFunction(() => (window as unknown as { kbGraph?: unknown }).kbGraph);
    const near = await graphOf(page);
    expect(near.order).toBeGreaterThan(1);
    expect(near.order).toBeLessThan(whole.order);
    await page.close();
  });

  it('runs no script from a hostile raw document (.md and .html), on any page', async () => {
    const page = await newPage();
    const inert = () =>
      page.evaluate(() => ({
        pwned: (window as unknown as { __pwned?: unknown }).__pwned,
        handlers: [...document.querySelectorAll('*')].flatMap((el) =>
          [...el.attributes]
            .filter((a) => /^on/i.test(a.name) || /^\s*javascript:/i.test(a.value))
            .map((a) => `${el.tagName} ${a.name}`),
        ),
        scripts: [...document.querySelectorAll('script')].filter((s) => s.type !== 'application/json' && !s.src).length,
        frames: document.querySelectorAll('iframe, object, embed').length,
      }));
    const clean = { pwned: undefined, handlers: [], scripts: 0, frames: 0 };
    // Compile keeps the text of a hostile document, not its markup; a person's edit in wiki/ can hold any HTML.
    const edited = readdirSync(join(root, 'wiki', 'sources')).find((f) => f.startsWith('Hostile Page'))!;
    appendFileSync(
      join(root, 'wiki', 'sources', edited),
      '\nEdited by hand. <img src="x" onerror="window.__pwned=\'edit\'"><script>window.__pwned="edit-script"</script>\n\n' +
        '<div onmouseover="window.__pwned=1">hover</div><a href="javascript:window.__pwned=2">link</a><iframe srcdoc="<script>parent.__pwned=3</script>"></iframe>\n',
    );
    await page.goto(serve.url);
    expect(await inert()).toEqual(clean);
    const hostile = page.locator('main a', { hasText: /^Hostile/ });
    expect(await hostile.count()).toBeGreaterThanOrEqual(2);
    const hrefs = await hostile.evaluateAll((as) => [...new Set(as.map((a) => (a as HTMLAnchorElement).href))]);
    for (const href of hrefs) {
      await page.goto(href);
      await page.locator('#lint ul, #lint p.none:not(:has-text("Loading"))').first().waitFor();
      expect(await page.locator('article.entry').textContent()).toMatch(/vector database/i);
      expect(await inert()).toEqual(clean);
      // Every link that would run something rather than open a page (javascript:, data:) is clicked; a
      // page link is not, or its navigation would race the next goto.
      await page.locator('article.entry a').evaluateAll((as) => {
        for (const a of as) if (!/^https?:$/.test((a as HTMLAnchorElement).protocol)) (a as HTMLAnchorElement).click();
      });
    }
    await page.goto(`${serve.url}search?q=hostile`);
    await page.locator('ol.results li').first().waitFor();
    expect(await inert()).toEqual(clean);
    await page.goto(`${serve.url}graph`);
    await page.waitForFunction(() => (window as unknown as { kbGraph?: unknown }).kbGraph);
    expect(await inert()).toEqual(clean);
    expect(dialogs).toEqual([]);
    expect(hrefs.length).toBe(2);
    await page.goto(hrefs.find((h) => h.includes('hostile-page'))!);
    await expect(page.locator('article.entry').textContent()).resolves.toContain('Edited by hand.');
    await page.close();
  });

  it('speaks Chinese when the wiki is set to Chinese', async () => {
    const base = openKb(root, { readOnly: true });
    const ctx = openKb(root, {
      readOnly: true,
      config: { ...base.config, wiki: { ...base.config.wiki, language: 'zh' } },
    });
    closeKb(base);
    const running = await startServer(ctx, { host: '127.0.0.1', port: 0, offline: true });
    try {
      const page = await newPage();
      await page.goto(running.url);
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe('zh-CN');
      await expect(page.locator('main h1').textContent()).resolves.toBe('索引');
      await expect(page.locator('header nav').textContent()).resolves.toBe('索引搜索提问图谱');
      await page.close();
    } finally {
      await running.close();
      closeKb(ctx);
    }
  });
});

describe('kb serve refuses', () => {
  it('paths outside wiki/: .., encoded .., symlinks out, the store', async () => {
    mkdirSync(join(root, 'wiki', 'attachments'), { recursive: true });
    symlinkSync(join(root, 'kb.config.json'), join(root, 'wiki', 'attachments', 'leak.png'));
    symlinkSync('/etc', join(root, 'wiki', 'attachments', 'etc'));
    const paths = [
      '/wiki/../kb.config.json',
      '/wiki/..%2fkb.config.json',
      '/wiki/%2e%2e/kb.config.json',
      '/wiki/%2e%2e%2fkb.config.json',
      '/wiki/sources/..%2f..%2fkb.config.json',
      '/wiki/sources/%2e%2e%5c%2e%2e%5ckb.config.json',
      '/wiki/attachments/leak.png',
      '/wiki/attachments/etc/passwd',
      '/wiki/%2fetc%2fpasswd',
      '/wiki/embeddings.db',
      '/assets/..%2f..%2fpackage.json',
      '/entry/..%2f..%2fkb.config.json',
      '/kb.config.json',
      '/raw/rag.md',
    ];
    for (const p of paths) {
      const r = await rawGet(serve.url, p);
      expect([p, r.status]).toEqual([p, 404]);
      expect(r.body).not.toMatch(/"embedding"|root:x:0|SQLite format|vector database stores/);
    }
    const ok = await rawGet(serve.url, '/wiki/index.md');
    expect(ok.status).toBe(200);
  });

  it('a request to another Host, and a POST that is not JSON from its own page', async () => {
    const port = new URL(serve.url).port;
    expect((await rawGet(serve.url, '/', { host: `evil.example:${port}` })).status).toBe(403);
    const post = (headers: Record<string, string>) =>
      fetch(`${serve.url}api/ask`, { method: 'POST', headers, body: JSON.stringify({ question: 'what?' }) });
    expect((await post({ 'content-type': 'text/plain' })).status).toBe(403);
    expect((await post({ 'content-type': 'application/json', origin: 'http://evil.example' })).status).toBe(403);
    const save = await fetch(`${serve.url}api/save`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'made-up' }),
    });
    expect(save.status).toBe(400);
    expect(((await save.json()) as { error: string }).error).toMatch(/ask again/);
  });

  it('a host other than loopback without a token', async () => {
    const r = await runKb(['serve', '--host', '0.0.0.0'], { cwd: root, timeoutMs: 30_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--token/);
  });

  it('a request without the token, when there is one', async () => {
    const ctx = openKb(root, { readOnly: true });
    let running: RunningServer | undefined;
    try {
      running = await startServer(ctx, { host: '127.0.0.1', port: 0, token: 's3cret', offline: true });
      const base = running.url.replace(/\?.*$/, '');
      expect(running.url).toMatch(/\?token=s3cret$/);
      expect((await fetch(base)).status).toBe(401);
      expect((await fetch(`${base}?token=wrong`)).status).toBe(401);
      const entry = await fetch(running.url, { redirect: 'manual' });
      expect(entry.status).toBe(303);
      const cookie = entry.headers.get('set-cookie')!;
      expect(cookie).toMatch(/^kb_token=s3cret; HttpOnly; SameSite=Strict/);
      expect((await fetch(base, { headers: { cookie: cookie.split(';')[0]! } })).status).toBe(200);
      expect((await fetch(`${base}api/search?q=hnsw`, { headers: { authorization: 'Bearer s3cret' } })).status).toBe(
        200,
      );
    } finally {
      await running?.close();
      closeKb(ctx);
    }
  });
});

describe('kb export --html', () => {
  let out: string;
  beforeAll(async () => {
    out = join(root, '..', `${root.split('/').pop()}-site`);
    const r = await runKb(['export', '--html', out], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Wrote \d+ pages/);
  }, 120_000);

  it('writes every entry’s page and Markdown, the index, search, graph, assets, attachments and llms.txt', () => {
    for (const f of [
      'index.html',
      'search.html',
      'graph.html',
      'llms.txt',
      'assets/app.js',
      'assets/sigma.min.js',
      'wiki/attachments/rag-pipeline.png',
    ])
      expect([f, existsSync(join(out, f))]).toEqual([f, true]);
    const llms = readFileSync(join(out, 'llms.txt'), 'utf8');
    expect(llms).toMatch(/^# Knowledge base\n\n> /);
    const links = [...llms.matchAll(/\]\((entry\/[^)]+\.md)\)/g)].map((m) => decodeURIComponent(m[1]!));
    expect(links.length).toBeGreaterThan(10);
    for (const l of links) expect([l, existsSync(join(out, l))]).toEqual([l, true]);
    expect(existsSync(join(out, 'wiki', 'embeddings.db'))).toBe(false);
  });

  it('browses, searches and draws the graph with no server', async () => {
    const page = await newPage();
    await page.goto(`file://${out}/index.html`);
    await expect(page.locator('header nav a').allTextContents()).resolves.toEqual(['Index', 'Search', 'Graph']);
    await page
      .locator('main a', { hasText: /^BM25 and Full-Text Search/ })
      .first()
      .click();
    await page
      .locator('article.entry a.wikilink', { hasText: /^FTS5$/ })
      .first()
      .click();
    await expect(page.locator('article.entry h1').textContent()).resolves.toBe('FTS5');
    await page.locator('#lint ul, #lint p.none').first().waitFor();
    await page.goto(`file://${out}/search.html?q=${encodeURIComponent('reciprocal rank fusion')}`);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('ol.results > li > a')].some((a) => a.textContent === 'Reciprocal Rank Fusion'),
    );
    await page.locator('#q').fill('中文分词');
    await page.waitForFunction(() => document.querySelector('ol.results > li > a')?.textContent?.includes('中文分词'));
    await page.goto(`file://${out}/graph.html`);
    await page.waitForFunction(() => (window as unknown as { kbGraph?: unknown }).kbGraph);
    expect(
      await page.evaluate(() => (window as unknown as { kbGraph: { graph: { order: number } } }).kbGraph.graph.order),
    ).toBeGreaterThan(10);
    await page.goto(`file://${out}/graph.html?id=concept%2Ffts5`);
    await page.waitForFunction(() => (window as unknown as { kbGraph?: unknown }).kbGraph);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    await page.close();
  });

  it('refuses a folder inside the knowledge base, or one holding other files', async () => {
    const inside = await runKb(['export', '--html', 'wiki/site'], { cwd: root });
    expect(inside.code).toBe(2);
    expect(inside.stderr).toMatch(/inside wiki\//);
    const other = join(root, '..', `${root.split('/').pop()}-other`);
    mkdirSync(other);
    writeFileSync(join(other, 'notes.txt'), 'mine');
    const foreign = await runKb(['export', '--html', other], { cwd: root });
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toMatch(/holds files kb did not write/);
    expect(readdirSync(other)).toEqual(['notes.txt']);
    const again = await runKb(['export', '--html', out], { cwd: root });
    expect(again.code).toBe(0);
  });
});
