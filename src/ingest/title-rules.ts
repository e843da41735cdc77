/**
 * The rules that give a source its title, as a table: each names the kind of file it is for, where it
 * is implemented, and carries files where it must give the title and files alike where it must not.
 * title-rules.test.ts reads every example through ingestFile, the way the concept rules' examples
 * run through extraction (compile/offline/rules.ts): a rule whose examples stop holding fails the suite.
 *
 * `match` holds files whose title the rule gives; `notMatch` files alike whose title it must not
 * give (the title is another line's, or the file's name).
 */
export interface TitleExample {
  /** The file's path under raw/: its extension picks the reader, its name is the last resort. */
  path: string;
  text: string;
  title: string;
}

export interface TitleRule {
  id: string;
  docs: string;
  /** The function that implements it. */
  where: string;
  match: TitleExample[];
  notMatch: TitleExample[];
}

export const TITLE_RULES: readonly TitleRule[] = [
  {
    id: 'frontmatter-title',
    docs: "A note's own frontmatter `title` names it, before any heading.",
    where: 'ingest/markdown.ts metaTitle',
    match: [
      {
        path: 'notes/a.md',
        text: '---\ntitle: Tide tables\n---\n\n# Reading the charts\n\nText.\n',
        title: 'Tide tables',
      },
    ],
    notMatch: [{ path: 'notes/a.md', text: '---\ntags: [sea]\n---\n\n# Reading the charts\n\nText.\n', title: 'a' }],
  },
  {
    id: 'metadata-header',
    docs: 'A MultiMarkdown or Pelican header (`Title:` with another known key, from the first line to a blank line) names the text.',
    where: 'ingest/markdown.ts metaHeader',
    match: [
      {
        path: 'blog/post.md',
        text: 'Title: Baking sourdough at altitude\nDate: 2024-05-01\n\nThe dough rises faster up here.\n',
        title: 'Baking sourdough at altitude',
      },
    ],
    notMatch: [
      // One `Key: value` line is prose that opens with a label, not a header.
      {
        path: 'blog/post.md',
        text: 'Title: check the oven first\n\nThe dough rises faster.\n',
        title: 'check the oven first',
      },
    ],
  },
  {
    id: 'level-one-heading',
    docs: 'The first level-one heading (ATX `# x` or setext `x` over `===`) outside code fences names the text, wherever it stands.',
    where: 'ingest/markdown.ts firstHeading',
    match: [
      { path: 'docs/x.md', text: '## Contents\n\n- one\n\n# Tide tables\n\nText.\n', title: 'Tide tables' },
      { path: 'docs/x.md', text: 'Tide tables\n===========\n\nText.\n', title: 'Tide tables' },
    ],
    notMatch: [
      { path: 'docs/x.md', text: 'Text first.\n\n```sh\n# install the tools\n```\n', title: 'install the tools' },
    ],
  },
  {
    id: 'opening-heading',
    docs: 'A text with no level-one heading that opens with a heading of another level is named by it, never by its file name.',
    where: 'ingest/markdown.ts firstHeading',
    match: [
      { path: 'book/ch02.md', text: '## Recording changes\n\nEach change is a commit.\n', title: 'Recording changes' },
      // A language switch or a row of badges above the heading is navigation, not text.
      { path: 'tool/README.md', text: '[English Version](README_en.md)\n\n## cmatrix\n\nA toy.\n', title: 'cmatrix' },
      {
        path: 'tool/README.md',
        text: '[![build](https://ci.example/b.svg)](https://ci.example) | [中文版](README.md)\n\n## cmatrix\n\nA toy.\n',
        title: 'cmatrix',
      },
    ],
    notMatch: [
      // A heading after the text has begun names a section, not the text.
      {
        path: 'book/ch02.md',
        text: 'Each change is a commit.\n\n## Recording changes\n\nMore.\n',
        title: 'Recording changes',
      },
      {
        path: 'book/ch02.md',
        text: 'Read [the first chapter](ch01.md) before this one.\n\n## Recording changes\n\nMore.\n',
        title: 'Recording changes',
      },
    ],
  },
  {
    id: 'heading-attributes',
    docs: "A heading's attribute block (`{#anchor}`, `{.class}`) and closing hashes are markup, not title; a `#` that ends a name stays.",
    where: 'ingest/markdown.ts firstHeading (text/layout.ts withoutAttributes, withoutClosingHashes)',
    match: [
      { path: 'docs/x.md', text: '# Installing the tools {#install}\n\nText.\n', title: 'Installing the tools' },
      { path: 'docs/x.md', text: '# Tide tables ##\n\nText.\n', title: 'Tide tables' },
      { path: 'docs/x.md', text: '# Learning C#\n\nText.\n', title: 'Learning C#' },
    ],
    notMatch: [
      {
        path: 'docs/x.md',
        text: '# Installing the tools {#install}\n\nText.\n',
        title: 'Installing the tools {#install}',
      },
    ],
  },
  {
    id: 'heading-inline-markup',
    docs: "A heading's links, emphasis and code marks are dropped; the code itself is kept as written (`Rc<T>`, `<script setup>`).",
    where: 'ingest/markdown.ts plainInline',
    match: [
      { path: 'book/rc.md', text: '# The [`Rc<T>`](rc.md) type\n\nText.\n', title: 'The Rc<T> type' },
      {
        path: 'guide/sfc.md',
        text: '# Using `<script setup>` in **components**\n\nText.\n',
        title: 'Using <script setup> in components',
      },
      {
        path: 'notes/main.md',
        text: "# 什麼是 `if __name__ == '__main__'`\n\nText.\n",
        title: "什麼是 if __name__ == '__main__'",
      },
    ],
    notMatch: [
      { path: 'book/rc.md', text: '# The [`Rc<T>`](rc.md) type\n\nText.\n', title: 'The Rc type' },
      {
        path: 'notes/main.md',
        text: "# 什麼是 `if __name__ == '__main__'`\n\nText.\n",
        title: "什麼是 if name == 'main'",
      },
    ],
  },
  {
    id: 'text-first-line',
    docs: "A plain text's short first line names it, unless it ends like a sentence or only gives a date or a header label.",
    where: 'ingest/text.ts textTitle',
    match: [
      { path: 'notes/t.txt', text: '潮汐表的读法\n\n先看基准面，再看时间。\n', title: '潮汐表的读法' },
      {
        path: 'notes/t.txt',
        text: 'Published: 2026-03-24\nReading tide tables\n\nStart with the datum.\n',
        title: 'Reading tide tables',
      },
    ],
    notMatch: [
      {
        path: 'notes/t.txt',
        text: 'Start with the datum, then the times.\n\nMore.\n',
        title: 'Start with the datum, then the times.',
      },
      { path: 'notes/t.txt', text: '发布日期：2026年3月24日\n\n先看基准面。\n', title: '发布日期：2026年3月24日' },
    ],
  },
  {
    id: 'text-named-title',
    docs: 'A plain text whose header lines name its title (`标题：…`, a source link followed by the title in parentheses) is named by it.',
    where: 'ingest/text.ts NAMED_TITLE, NAMED_IN_LINK',
    match: [
      {
        path: 'clips/c.txt',
        text: '原文信息\n原文：https://example.com/tides（潮汐表的读法）\n\n先看基准面。\n',
        title: '潮汐表的读法',
      },
    ],
    notMatch: [
      {
        path: 'clips/c.txt',
        text: '原文信息\n原文：https://example.com/tides\n\n先看基准面。\n',
        title: 'https://example.com/tides',
      },
    ],
  },
  {
    id: 'html-head-title',
    docs: "An HTML page is named by its og:title, else its <title>; when the <title> is the <h1> plus a site's name after a separator, by the <h1>.",
    where: 'ingest/html-convert.ts readHead, preferH1',
    match: [
      {
        path: 'clips/p.html',
        text: '<html><head><title>Reading tide tables | Sea Notes</title></head><body><h1>Reading tide tables</h1><p>Start with the datum, then the times of high water.</p></body></html>',
        title: 'Reading tide tables',
      },
      {
        path: 'clips/p.html',
        text: '<html><head><meta property="og:title" content="Tide tables"><title>Sea Notes</title></head><body><p>Start with the datum, then the times of high water.</p></body></html>',
        title: 'Tide tables',
      },
    ],
    notMatch: [
      {
        path: 'clips/p.html',
        text: '<html><head><title>Reading tide tables | Sea Notes</title></head><body><h1>Reading tide tables</h1><p>Start with the datum, then the times of high water.</p></body></html>',
        title: 'Reading tide tables | Sea Notes',
      },
    ],
  },
  {
    id: 'feed-title',
    docs: "A feed is named by its channel's title; each item's title heads its section (and names its entry when the feed is split into posts).",
    where: 'ingest/feed.ts convertFeed',
    match: [
      {
        path: 'feeds/sea.xml',
        text: '<?xml version="1.0"?><rss version="2.0"><channel><title>Sea Notes</title><item><title>Reading tide tables</title><description>Start with the datum.</description></item></channel></rss>',
        title: 'Sea Notes',
      },
    ],
    notMatch: [
      {
        path: 'feeds/sea.xml',
        text: '<?xml version="1.0"?><rss version="2.0"><channel><title>Sea Notes</title><item><title>Reading tide tables</title><description>Start with the datum.</description></item></channel></rss>',
        title: 'sea',
      },
    ],
  },
  {
    id: 'mail-subject',
    docs: 'A message is named by its subject; one without a subject by its file name.',
    where: 'ingest/mail.ts convertMail',
    match: [
      {
        path: 'mail/m.eml',
        text: 'From: Ana <ana@example.com>\nTo: Bo <bo@example.com>\nSubject: Tide tables for May\nDate: Fri, 01 May 2026 10:00:00 +0000\n\nThe tables are attached.\n',
        title: 'Tide tables for May',
      },
    ],
    notMatch: [
      {
        path: 'mail/m.eml',
        text: 'From: Ana <ana@example.com>\nTo: Bo <bo@example.com>\nDate: Fri, 01 May 2026 10:00:00 +0000\n\nThe tables are attached.\n',
        title: '(no subject)',
      },
    ],
  },
  {
    id: 'numbered-level-one-sections',
    docs: 'A text whose level-one headings number its sections (# 一、基础, # 二、创建表; # 1. Basics, # 2. Tables) names itself with none of them: its file name names it.',
    where: 'ingest/markdown.ts firstHeading (SECTION_NUMBER)',
    match: [
      {
        path: 'notes/SQL.md',
        text: '# 一、基础\n\n模式定义了数据如何存储。\n\n# 二、创建表\n\n建表语句。\n',
        title: 'SQL',
      },
      { path: 'notes/SQL.md', text: '# 1. Basics\n\nA schema.\n\n# 2. Tables\n\nCreate one.\n', title: 'SQL' },
    ],
    notMatch: [
      {
        path: 'notes/SQL.md',
        // One numbered heading at level one, its sections below it: it names the text.
        text: '# 1. Getting started with SQL\n\nA schema.\n\n## 1.1 Tables\n\nCreate one.\n',
        title: 'SQL',
      },
    ],
  },
  {
    id: 'file-name-last',
    docs: 'A text that names itself nowhere is named by its file name, without the extension.',
    where: 'ingest/index.ts documentOf',
    match: [
      {
        path: 'notes/tide-tables.md',
        text: 'Start with the datum, then the times of high water.\n',
        title: 'tide-tables',
      },
    ],
    notMatch: [
      { path: 'notes/tide-tables.md', text: '# Reading tide tables\n\nStart with the datum.\n', title: 'tide-tables' },
    ],
  },
  {
    id: 'bounded-clean-title',
    docs: 'A title is at most 200 characters, cut at a space with `…`, and holds no invisible or direction-changing character.',
    where: 'ingest/index.ts boundedTitle, model/xml.ts cleanTitle',
    match: [
      { path: 'notes/x.md', text: '# Tide\u202e tables\n\nText.\n', title: 'Tide tables' },
      {
        path: 'notes/x.md',
        text: `# ${'tide table '.repeat(30)}\n\nText.\n`,
        title: `${'tide table '.repeat(18).trim()}…`,
      },
    ],
    notMatch: [
      { path: 'notes/x.md', text: `# ${'tide table '.repeat(30)}\n\nText.\n`, title: 'tide table '.repeat(30).trim() },
    ],
  },
];
