import { describe, expect, it } from 'vitest';
import type { ContentHash, RawDocument, RawPath } from '../types.js';
import { convertFeed } from './feed.js';
import { convertMail } from './mail.js';
import { anchorsFor, splitPosts } from './posts.js';
import { textTitle } from './text.js';

function doc(
  type: RawDocument['type'],
  markdown: string,
  meta: Record<string, unknown> = {},
  title = 'file',
): RawDocument {
  return {
    path: 'feeds/f.txt' as RawPath,
    absPath: '/x',
    type,
    hash: 'h' as ContentHash,
    size: 1,
    title,
    markdown,
    meta,
    lang: 'zh',
  };
}

const TEXT_FEED = `技术 on Wodaixin

找不到好用的Linux剪贴板

Thu, 09 Apr 2026 00:00:00 +0000

项目地址：github.com/x/ClipGenius

我做了一个带 AI 的剪贴板。

Harness Design for Long-Running Apps

Tue, 24 Mar 2026 00:00:00 +0000

Harness design is key to agentic coding.

卡帕西知识库方法

2026-03-20

知识库由 AI 维护。
`;

describe('splitPosts', () => {
  it('splits a blog feed exported as text into one document per post, without the feed name', () => {
    const posts = splitPosts(doc('text', TEXT_FEED, {}, '技术 on Wodaixin'));
    expect(posts.map((p) => p.title)).toEqual([
      '找不到好用的Linux剪贴板',
      'Harness Design for Long-Running Apps',
      '卡帕西知识库方法',
    ]);
    expect(posts.map((p) => p.meta['published'])).toEqual(['2026-04-09', '2026-03-24', '2026-03-20']);
    expect(posts[0]!.path).toBe('feeds/f.txt#找不到好用的linux剪贴板');
    expect(posts[0]!.post).toEqual({
      file: 'feeds/f.txt',
      anchor: '找不到好用的linux剪贴板',
      index: 1,
      of: 3,
      line: 5,
    });
    // Its text starts right below its date line: lines of the post are lines of the file.
    const lines = TEXT_FEED.split('\n');
    expect(lines[posts[1]!.post!.line + posts[1]!.markdown.split('\n').findIndex((l) => l.trim())]).toBe(
      'Harness design is key to agentic coding.',
    );
    expect(posts[1]!.markdown.trim()).toBe('Harness design is key to agentic coding.');
    expect(posts[1]!.lang).toBe('en');
    for (const p of posts) expect(p.markdown).not.toContain('技术 on Wodaixin');
  });

  it('keeps a post’s anchor when posts are added, removed or reordered around it', () => {
    const before = splitPosts(doc('text', TEXT_FEED)).map((p) => [p.title, p.path]);
    const edited = `Feed\n\nA new post\n\nFri, 10 Apr 2026 00:00:00 +0000\n\nNew text.\n\n${TEXT_FEED.split('\n').slice(2).join('\n').replace('我做了一个', '我改写了一个')}`;
    const after = new Map(splitPosts(doc('text', edited)).map((p) => [p.title, p.path]));
    expect(after.size).toBe(4);
    for (const [title, path] of before) expect(after.get(title!)).toBe(path);
  });

  it('tells posts of the same title apart by date, then by order', () => {
    expect(
      anchorsFor([{ title: 'Notes', date: '2026-01-01' }, { title: 'Notes', date: '2026-02-01' }, { title: 'Other' }]),
    ).toEqual(['notes-2026-01-01', 'notes-2026-02-01', 'other']);
  });

  it('splits an RSS feed into one document per item, with its link and date', async () => {
    const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>My Blog</title><link>https://b.example</link>
      <item><title>First post</title><link>https://b.example/1</link><guid>g1</guid><pubDate>Mon, 06 Apr 2026 00:00:00 +0000</pubDate><description>&lt;p&gt;Alpha text here.&lt;/p&gt;&lt;h2&gt;Inner&lt;/h2&gt;&lt;p&gt;More.&lt;/p&gt;</description></item>
      <item><title>第二篇</title><link>https://b.example/2</link><pubDate>Tue, 07 Apr 2026 00:00:00 +0000</pubDate><description>中文正文。</description></item>
    </channel></rss>`;
    const c = (await convertFeed(rss, 'f')).converted!;
    const posts = splitPosts(doc('feed', c.markdown, c.meta, c.title));
    expect(posts.map((p) => p.title)).toEqual(['First post', '第二篇']);
    expect(posts[0]!.url).toBe('https://b.example/1');
    expect(posts[0]!.meta['guid']).toBe('g1');
    expect(posts[0]!.meta['published']).toBe('2026-04-06');
    expect(posts[0]!.markdown).toContain('### Inner');
    expect(posts[1]!.markdown).toContain('中文正文。');
    expect(posts[1]!.markdown).not.toContain('Alpha');
  });

  it('splits an Atom feed', async () => {
    const atom = `<feed xmlns="http://www.w3.org/2005/Atom"><title>A</title>
      <entry><title>One</title><id>urn:1</id><link href="https://a.example/1"/><updated>2026-01-02T00:00:00Z</updated><content type="html">&lt;p&gt;One body.&lt;/p&gt;</content></entry>
      <entry><title>Two</title><id>urn:2</id><link href="https://a.example/2"/><updated>2026-01-03T00:00:00Z</updated><content type="html">&lt;p&gt;Two body.&lt;/p&gt;</content></entry></feed>`;
    const c = (await convertFeed(atom, 'f')).converted!;
    const posts = splitPosts(doc('feed', c.markdown, c.meta, c.title));
    expect(posts.map((p) => [p.title, p.meta['guid'], p.url])).toEqual([
      ['One', 'urn:1', 'https://a.example/1'],
      ['Two', 'urn:2', 'https://a.example/2'],
    ]);
  });

  it('splits an mbox into one document per message', async () => {
    const mbox = [
      'From a@example.com Mon Jan  1 00:00:00 2024',
      'From: Ann <a@example.com>',
      'Subject: Plans for Q1',
      'Date: Mon, 01 Jan 2024 10:00:00 +0000',
      'Message-ID: <m1@example.com>',
      '',
      'We ship the index in March.',
      '',
      'From b@example.com Tue Jan  2 00:00:00 2024',
      'From: Bo <b@example.com>',
      'Subject: 回复：计划',
      'Date: Tue, 02 Jan 2024 10:00:00 +0000',
      '',
      '好的，三月发布。',
      '',
    ].join('\n');
    const c = (await convertMail(Buffer.from(mbox), '.mbox', 'inbox')).converted!;
    const posts = splitPosts(doc('mail', c.markdown, c.meta, c.title));
    expect(posts.map((p) => p.title)).toEqual(['Plans for Q1', '回复：计划']);
    expect(posts[0]!.markdown).toContain('We ship the index in March.');
    expect(posts[0]!.markdown).not.toContain('三月');
    expect(posts[0]!.meta['author']).toContain('Ann');
  });

  it('splits Markdown of several dated `# ` documents', () => {
    const md = `# Week 1 notes\n\nDate: 2026-01-05\n\nWe chose SQLite.\n\n## Why\n\nIt is one file.\n\n# Week 2 notes\n\n*2026-01-12*\n\nWe added vectors.\n`;
    const posts = splitPosts(doc('markdown', md));
    expect(posts.map((p) => [p.title, p.meta['published']])).toEqual([
      ['Week 1 notes', '2026-01-05'],
      ['Week 2 notes', '2026-01-12'],
    ]);
    expect(posts[0]!.markdown).toContain('## Why');
    expect(posts[0]!.markdown.split('\n')[0]).toBe('');
    expect(md.split('\n')[posts[1]!.post!.line + 1]).toBe('*2026-01-12*');
  });

  it('does not split an article with several `# ` headings, nor a single post', () => {
    const article = `# Introduction\n\nRAG retrieves passages. It was described in 2020.\n\n# Method\n\nWe embed chunks.\n\n# Results\n\nPublished: 2026-01-01 is when we ran it.\n`;
    expect(splitPosts(doc('markdown', article))).toHaveLength(1);
    const undated = `# Part one\n\n2026-01-01\n\nText.\n\n# Part two\n\nNo date here.\n`;
    expect(splitPosts(doc('markdown', undated))).toHaveLength(1);
    const one = `Feed name\n\nOnly post\n\nThu, 09 Apr 2026 00:00:00 +0000\n\nBody.\n`;
    expect(splitPosts(doc('text', one))).toHaveLength(1);
    const prose = `A diary\n\nI went out.\n2026-01-01\nIt rained.\n`;
    expect(splitPosts(doc('text', prose))).toHaveLength(1);
  });
});

describe('textTitle', () => {
  it('takes a title named in a header line over a date line', () => {
    const text = `官方文章 · 发布日期：2026年3月24日\nsrc: https://www.anthropic.com/engineering/harness(Harness design for long-running application development)\n作者： P\n正文。\n`;
    expect(textTitle(text)).toBe('Harness design for long-running application development');
  });

  it('takes `标题：` from a header and skips `原文信息`', () => {
    expect(textTitle('原文信息\n标题：Harness design\n作者：P\n')).toBe('Harness design');
  });

  it('keeps a short first line as the title', () => {
    expect(textTitle('[译] 长时间运行的应用开发中的 Harness 设计\n\n原文信息\n标题：Harness design\n')).toBe(
      '[译] 长时间运行的应用开发中的 Harness 设计',
    );
  });
});
