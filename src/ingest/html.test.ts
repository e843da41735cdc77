import { describe, expect, it } from 'vitest';
import type { RawPath } from '../types.js';
import { sha256 } from '../util/hash.js';
import { convertHtml } from './html-convert.js';
import { ingestFile } from './index.js';

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Chunking for RAG | Example Blog</title>
  <link rel="canonical" href="https://blog.example.org/posts/chunking">
  <meta name="description" content="How to split notes.">
  <meta name="author" content="Priya">
  <meta property="article:published_time" content="2025-12-05">
  <style>body { color: red }</style>
  <script>window.tracking = 1</script>
</head>
<body>
  <header class="site"><a href="/">Example Blog</a> — the site header</header>
  <nav><a href="/">Home</a> | <a href="/tags/">Tags</a></nav>
  <main>
    <article>
      <header><h1>Chunking for RAG</h1><p>By Priya</p></header>
      <p>Every RAG system cuts documents into <em>chunks</em>. See <a href="/posts/bm25">BM25</a>.</p>
      <h2>Comparison</h2>
      <table>
        <thead><tr><th>Strategy</th><th>Cost</th></tr></thead>
        <tbody><tr><td>Fixed-size</td><td>Low</td></tr><tr><td>Semantic</td><td>High</td></tr></tbody>
      </table>
      <pre><code class="language-python">def chunk(text):
    return text.split("\\n\\n")
</code></pre>
      <img src="data:image/png;base64,AAAA" alt="inline">
      <form><input name="email"><button>Subscribe</button></form>
      <footer>Tags: rag</footer>
    </article>
    <aside>Related posts: nothing to see</aside>
  </main>
  <footer>© 2025 Example Blog</footer>
  <noscript>Enable JavaScript</noscript>
  <iframe src="https://ads.example.com"></iframe>
</body>
</html>`;

describe('convertHtml', () => {
  const c = convertHtml(PAGE, 'fallback');

  it('keeps the article: heading, text, table, code', () => {
    expect(c.markdown.startsWith('# Chunking for RAG\n')).toBe(true);
    expect(c.markdown).toContain('Every RAG system cuts documents into _chunks_.');
    expect(c.markdown).toMatch(/\| Strategy +\| Cost +\|/);
    expect(c.markdown).toMatch(/\| Semantic +\| High +\|/);
    expect(c.markdown).toContain('```python\ndef chunk(text):\n    return text.split("\\n\\n")\n```');
  });

  it.each([
    'window.tracking',
    'color: red',
    'site header',
    'Home',
    'Related posts',
    '© 2025',
    'Enable JavaScript',
    'Subscribe',
    'Tags: rag',
    'ads.example.com',
    'data:image',
  ])('drops boilerplate: %s', (text) => {
    expect(c.markdown).not.toContain(text);
  });

  it('reads title, canonical URL and metadata; makes links absolute', () => {
    // <title> is the <h1> plus the site's name: the <h1> is the title.
    expect(c.title).toBe('Chunking for RAG');
    expect(c.url).toBe('https://blog.example.org/posts/chunking');
    expect(c.meta).toEqual({ description: 'How to split notes.', author: 'Priya', published: '2025-12-05' });
    expect(c.markdown).toContain('[BM25](https://blog.example.org/posts/bm25)');
  });

  const titleCases: { name: string; html: string; title: string; url?: string }[] = [
    {
      name: 'og:title wins over <title>',
      html: '<head><title>T | Site</title><meta property="og:title" content="T"><meta property="og:url" content="https://x.example/t"></head><p>x</p>',
      title: 'T',
      url: 'https://x.example/t',
    },
    {
      name: 'first h1 without <title>',
      html: '<body><h1>From <code>H1</code></h1><p>text</p></body>',
      title: 'From H1',
    },
    { name: 'file name as last resort', html: '<p>only text</p>', title: 'fallback' },
    {
      name: 'Chinese title',
      html: '<html><head><title>向量数据库笔记</title></head><body><p>向量数据库存储嵌入。</p></body></html>',
      title: '向量数据库笔记',
    },
  ];
  it.each(titleCases)('title: $name', ({ html, title, url }) => {
    const r = convertHtml(html, 'fallback');
    expect(r.title).toBe(title);
    if (url) expect(r.url).toBe(url);
    else expect(r).not.toHaveProperty('url');
  });

  it('without <article>, converts <main>; without either, the body', () => {
    expect(convertHtml('<body><nav>N</nav><main><p>Main text</p></main><p>Outside</p></body>', 'f').markdown).toBe(
      'Main text\n',
    );
    expect(convertHtml('<body><nav>N</nav><p>Body text</p></body>', 'f').markdown).toBe('Body text\n');
  });

  it('drops javascript: links but keeps their text', () => {
    const r = convertHtml('<p><a href="javascript:alert(1)">click</a></p>', 'f');
    expect(r.markdown).not.toContain('javascript');
    expect(r.markdown).toContain('click');
  });
});

describe('ingestFile: HTML', () => {
  const file = (path: string, size: number) => ({ path: path as RawPath, absPath: `/r/${path}`, size, mtimeMs: 0 });

  it('produces an html document with lang, url and title', async () => {
    const bytes = Buffer.from(PAGE);
    const { doc, messages } = await ingestFile(file('clips/page.html', bytes.length), bytes, sha256(bytes), {
      maxFileBytes: 1e6,
    });
    expect(messages).toEqual([]);
    expect(doc).toMatchObject({
      type: 'html',
      title: 'Chunking for RAG',
      url: 'https://blog.example.org/posts/chunking',
      lang: 'en',
    });
  });

  it('decodes a page in its declared charset (GBK)', async () => {
    const html = '<html><head><meta charset="gbk"><title>x</title></head><body><p>中文</p></body></html>';
    const bytes = Buffer.from(html.replace('中文', '\xd6\xd0\xce\xc4'), 'latin1');
    const { doc } = await ingestFile(file('gbk.htm', bytes.length), bytes, sha256(bytes), { maxFileBytes: 1e6 });
    expect(doc?.markdown).toBe('中文\n');
  });

  it('a page that says UTF-8 but is not gets ingest-encoding', async () => {
    const bytes = Buffer.from('<html><head><meta charset="utf-8"></head><body><p>caf\xe9</p></body></html>', 'latin1');
    const { doc, messages } = await ingestFile(file('bad.html', bytes.length), bytes, sha256(bytes), {
      maxFileBytes: 1e6,
    });
    expect(doc).toBeUndefined();
    expect(messages.map((m) => m.ruleId)).toEqual(['ingest-encoding']);
  });
});

describe('the HTML converter, loaded when first needed', () => {
  it('converts through html.ts as html-convert.ts does once loaded, and a page loads it by itself', async () => {
    const lazy = await import('./html.js');
    const direct = await (await import('./html-convert.js')).convertWebPage(PAGE, 'fallback');
    expect(await lazy.convertWebPage(PAGE, 'fallback')).toEqual(direct);
    await lazy.loadHtml();
    expect(lazy.convertHtml(PAGE, 'fallback')).toEqual(convertHtml(PAGE, 'fallback'));
    expect(lazy.declaredCharset(Buffer.from('<meta charset="gbk"><p>x</p>'))).toBe('gbk');
  });
});
