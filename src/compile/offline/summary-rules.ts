/**
 * The rules that decide what a source entry's summary says, as a table: each names the kind of text
 * it is for and where it is implemented (summary.ts), with examples where it applies (`match`) and
 * texts alike where it must not (`notMatch`). Every example says what its summary holds (`has`),
 * does not hold (`hasNot`) or opens with (`opens`); summary-rules.test.ts runs them through
 * extractSummary, the way lint's rule examples run through lint.
 */
export interface SummaryExample {
  text: string;
  title?: string;
  has?: string[];
  hasNot?: string[];
  opens?: string;
}

export interface SummaryRule {
  id: string;
  docs: string;
  where: string;
  match: SummaryExample[];
  notMatch: SummaryExample[];
}

export const SUMMARY_RULES: readonly SummaryRule[] = [
  {
    id: 'header-lines',
    docs: "A post's header lines (source, author, date, a section label) are no sentences of it, and never glued to the first one.",
    where: 'summary.ts extractSummary (HEADER_LABELS)',
    match: [
      {
        text: [
          '官方博客 · 发布日期：2025年5月12日',
          'src: https://example.com/blog/caching(Caching design)',
          '作者： 某某，平台团队成员',
          '导语',
          '缓存设计（Caching design）是提升服务响应速度的关键。',
          '在过去的几个月里，我们一直在解决两个相互关联的问题。',
        ].join('\n'),
        title: 'Caching design',
        opens: '缓存设计（Caching design）是提升服务响应速度的关键。',
        hasNot: ['发布日期', 'src:', '作者', '导语'],
      },
      {
        text: 'Source: Example Blog\n\nThis post explains how hybrid search fuses BM25 with vectors for better recall.\n',
        hasNot: ['Source:'],
      },
    ],
    notMatch: [
      {
        text: 'Source code is read line by line by the indexer. Every file it reads gets a hash, so an unchanged file is skipped.\n',
        opens: 'Source code is read line by line by the indexer.',
      },
    ],
  },
  {
    id: 'table-rows',
    docs: 'A row of a tab-separated table is no sentence of the summary; the prose around the table is.',
    where: 'summary.ts extractSummary',
    match: [
      {
        text: [
          '张三提出了一种基于规则的日志分析方法，日志能够按类汇总。',
          '能力\t说明\t价值',
          '自动归类\t按照来源和级别把日志分成不同类别，减少人工筛选的时间\t提升排查效率',
          '日志每次查询的结果都会被保存下来，形成经验积累的正向循环。',
        ].join('\n'),
        title: '日志分析方法',
        has: ['张三提出了'],
        hasNot: ['自动归类', '人工筛选'],
      },
    ],
    notMatch: [
      {
        text: '张三提出了一种基于规则的日志分析方法。自动归类按照来源和级别把日志分成不同类别。\n',
        title: '日志分析方法',
        has: ['张三提出了', '不同类别'],
      },
    ],
  },
  {
    id: 'story-scene',
    docs: 'A story opens with its scene (a day, a mishap); the summary opens with what the work is about. A dated sentence that is the point stays first.',
    where: 'summary.ts extractSummary (scene)',
    match: [
      {
        text: 'One day last spring, our build server ran out of disk.\nThis post explains how we built a cache cleaner for build machines with quotas and alerts.\n',
        opens: 'This post explains',
      },
    ],
    notMatch: [
      {
        text: 'In 2009, Cormack, Clarke and Büttcher introduced reciprocal rank fusion at SIGIR.\nIt merges ranked lists from several searches into one.\n',
        opens: 'In 2009, Cormack',
      },
    ],
  },
  {
    id: 'leaning-sentence',
    docs: 'A sentence that leans on the one before it (然后, "Then", a pointer back) does not open a summary.',
    where: 'summary.ts leans',
    match: [
      {
        text: '技术 on Example\n\n然后，我将这些技术应用于线上服务，并借鉴了早期的经验。\n\n缓存设计决定了服务能否在高峰时稳定运行并及时响应。\n',
        title: '技术 on Example',
        opens: '缓存设计决定了',
        hasNot: ['技术 on Example'],
      },
    ],
    notMatch: [
      {
        text: '技术 on Example\n\n我将这些技术应用于线上服务，并借鉴了早期的经验。\n\n缓存设计决定了服务能否在高峰时稳定运行并及时响应。\n',
        title: '技术 on Example',
        opens: '我将这些技术应用于线上服务',
      },
    ],
  },
  {
    id: 'points-ahead',
    docs: 'A clause that points to a list ("such as:", "其要点在于：", en/zh POINTS_AHEAD) ends where the list begins, never glued to a later sentence.',
    where: 'summary.ts closeColon',
    match: [
      {
        text: [
          'This guide aims to help you identify and fix common rendering issues, such as:',
          '',
          '- slow server starts',
          '- large pages',
        ].join('\n'),
        title: 'Server-Side Rendering',
        has: ['common rendering issues.'],
        hasNot: ['such as'],
      },
    ],
    notMatch: [
      {
        text: 'This guide aims to help you fix common rendering issues such as slow server starts and large pages.\n',
        title: 'Server-Side Rendering',
        has: ['such as slow server starts'],
      },
    ],
  },
  {
    id: 'container-fence',
    docs: "A docs toolchain's container fence (:::tip Note … :::) is no text of a summary; `:::` written as code is.",
    where: 'entities.ts stripMarkdown',
    match: [
      {
        text: [
          '# Server-Side Rendering',
          '',
          ':::tip Note',
          'SSR specifically refers to front-end frameworks that run the same application in Node.js and hydrate it on the client.',
          ':::',
          '',
          'This guide helps you fix common rendering issues.',
        ].join('\n'),
        title: 'Server-Side Rendering',
        has: ['common rendering issues'],
        hasNot: [':::', 'tip Note'],
      },
    ],
    notMatch: [
      {
        text: 'Write `:::tip` to open a note box in the docs; the box then holds what it says, and the docs render it.\n',
        title: 'Docs boxes',
        has: ['`:::tip`'],
      },
    ],
  },
  {
    id: 'inline-code',
    docs: 'Inline code stays as written (`Rc<T>`, `<script setup>`, `[[link]]` syntax); markup outside code goes.',
    where: 'code-spans.ts sealCode',
    match: [
      {
        text: 'The smart pointer `Rc<T>` counts the references to a value, and `<script setup>` declares a component. A <b>bold</b> tag is markup.\n',
        title: 'Smart pointers',
        has: ['`Rc<T>`', '`<script setup>`'],
      },
    ],
    notMatch: [
      {
        text: 'The smart pointer `Rc<T>` counts the references to a value, and `<script setup>` declares a component. A <b>bold</b> tag is markup.\n',
        title: 'Smart pointers',
        hasNot: ['<b>'],
      },
    ],
  },
  {
    id: 'navigation-line',
    docs: "A line of links alone (a language switch, a row of badges) is the page's navigation, no sentence of its summary; a sentence with a link in it is one.",
    where: 'summary.ts extractSummary (text/layout.ts isLinksLine)',
    match: [
      {
        text: '*[Čeština](README-cs.md) ∙ [Deutsch](README-de.md) ∙ [English](README.md) ∙ [简体中文](README-zh.md)*\n\nFluency on the command line is a skill often neglected, and it pays to learn a few of its tools well.\n',
        hasNot: ['Deutsch', 'Čeština'],
        opens: 'Fluency on the command line',
      },
    ],
    notMatch: [
      {
        text: 'Read [the manual](man.md) and [the FAQ](faq.md) before you ask, since most questions are answered there already.\n',
        has: ['the manual'],
      },
      {
        // A link alone on a line of a hard-wrapped paragraph is part of its sentence.
        text: 'At Google, we developed a package that passes deadlines across API boundaries.\nThe package is publicly available as\n[context](/pkg/context).\nThis article describes how to use the package.\n',
        has: ['publicly available as context.'],
      },
    ],
  },
  {
    id: 'named-tags',
    docs: 'A tag the prose talks about (a bare opening tag inside a line, not closed in it) is a name, kept as code; markup (closed, with attributes, void, opening a line) goes.',
    where: 'code-spans.ts sealNamedTags',
    match: [
      {
        text: '把检索到的段落放进 <context> 标签，模型就只读取标签里的内容，不会把段落当成问题。\n',
        has: ['放进 `<context>` 标签'],
      },
      {
        text: 'Wrap the retrieved documents in a <context> tag so the model can tell them from the question it answers.\n',
        has: ['a `<context>` tag'],
      },
    ],
    notMatch: [
      {
        text: 'Press <kbd>Ctrl</kbd> and the key to copy the selected text, then paste it where the cursor stands.\n',
        has: ['Ctrl'],
        hasNot: ['<kbd>'],
      },
      {
        text: 'The first line ends here<br>and the second line of the same paragraph goes on with more words.\n',
        hasNot: ['<br>'],
      },
      {
        text: 'A styled <span class="note">remark</span> reads as the words inside it, and the paragraph goes on.\n',
        has: ['remark'],
        hasNot: ['<span', '`'],
      },
    ],
  },
  {
    id: 'hard-wrap',
    docs: 'A sentence wrapped over lines is one sentence; a line that ends a sentence ends it.',
    where: 'summary.ts extractSummary (unwrapped paragraphs)',
    match: [
      {
        text: 'Merges several ranked result lists — typically one from BM25 keyword search\nand one from a vector database — into a single ranking. Introduced by\nCormack, Clarke and Büttcher at SIGIR 2009.\n',
        has: ['Introduced by Cormack, Clarke and Büttcher at SIGIR 2009.'],
      },
    ],
    notMatch: [
      {
        text: 'Five Agent Skill Design Patterns Every Developer Should Know\nWhen it comes to skills, the format matters least.\n',
        hasNot: ['Know When'],
      },
    ],
  },
];
