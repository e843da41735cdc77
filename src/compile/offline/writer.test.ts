import { describe, expect, it } from 'vitest';
import { offlineConcept, offlineSource } from './writer.js';
import { extractEntities } from './entities.js';
import type { EntryId } from '../../types.js';
import { HEADING_SNIPPET } from '../types.js';
import type { ContentHash, RawDocument, RawPath } from '../../types.js';

const image = (text: string): RawDocument => ({
  path: 'images/rag-pipeline.png' as RawPath,
  absPath: '/x/raw/images/rag-pipeline.png',
  type: 'attachment',
  hash: 'h' as ContentHash,
  size: 1900,
  title: 'rag-pipeline.png',
  markdown: `Image rag-pipeline.png\n\n## Text in the image\n\n${text}\n`,
  meta: { ocr: { engine: 'test' } },
  mime: 'image/png',
  lang: 'en',
});

describe('offlineSource: an image with text', () => {
  it('says what a diagram of labels shows instead of running the labels together', () => {
    const { summary } = offlineSource(image('RAG PIPELINE\n\nDOCS CHUNK EMBED INDEX\n\nQUERY FUSE LLM ANSWER'));
    expect(summary).toBe(
      'Image `rag-pipeline.png` whose text reads “RAG PIPELINE · DOCS CHUNK EMBED INDEX · QUERY FUSE LLM ANSWER”.',
    );
  });

  it('summarises an image that holds sentences from its sentences', () => {
    const { summary } = offlineSource(
      image('Questions are answered from the compiled wiki. Each answer cites the source entries it used.'),
    );
    expect(summary).toMatch(/^Questions are answered from the compiled wiki\./);
  });
});

describe('offlineConcept: the summary is a sentence', () => {
  const group = (title: string, snippets: string[][]) => ({
    key: title,
    title,
    aliases: [],
    mentions: snippets.map((s, i) => ({
      sourceId: `source/s${i}` as EntryId,
      sourceTitle: `Source ${i}`,
      rawPath: `raw/s${i}.txt`,
      count: 3 - i,
      snippets: s,
    })),
  });

  it('never takes a heading, a table row or a list lead-in for the summary', () => {
    const { summary } = offlineConcept(
      group('编译管线', [
        ['编译管线：从 raw/ 到 wiki/ 的数据流', '编译管线 ; 输入 ; 输出', '编译管线分三步：'],
        ['每次运行的时候，编译管线把 raw/ 中的资料编译成 wiki/ 中的条目，每篇来源写一页摘要。'],
      ]),
    );
    expect(summary).toBe('每次运行的时候，编译管线把 raw/ 中的资料编译成 wiki/ 中的条目，每篇来源写一页摘要。');
  });

  it('takes no dated log line and no formula for the summary', () => {
    const book = offlineConcept(
      group('卡片笔记写作法', [
        [
          '2017 年 Sönke Ahrens 出版《How to Take Smart Notes》（中文版译名《卡片笔记写作法》）之后，这种方法流行开来。',
        ],
        ['2025-12-03 《卡片笔记写作法》（Sönke Ahrens 著，原书 How to Take Smart Notes，2017）'],
      ]),
    );
    expect(book.summary).toMatch(/^2017 年/);
    const idf = offlineConcept(
      group('IDF', [
        [
          'IDF(q) f(q, D) (k1 + 1) / (f(q, D) + k1 (1 - b + b |D| / avgdl))',
          'The "+ 1" keeps IDF positive even for terms in more than half of the documents.',
        ],
      ]),
    );
    expect(idf.summary).toMatch(/^The "\+ 1"/);
    const md = offlineConcept(
      group('Markdown', [
        ['description: Generates structured technical reports in Markdown.', 'Notes are kept as Markdown files.'],
      ]),
    );
    expect(md.summary).toBe('Notes are kept as Markdown files.');
    const clip = offlineConcept(
      group('ClipGenius', [
        ['于是，ClipGenius就这样诞生了。', 'ClipGenius无需登录即可使用，所有功能在本地都能正常工作。'],
      ]),
    );
    expect(clip.summary).toBe('ClipGenius无需登录即可使用，所有功能在本地都能正常工作。');
  });

  // [must or must not, title, the sentences one source keeps, how the summary opens]
  const kinds: [string, string, string[], string][] = [
    // "X is a …" and 是一种… over a sentence that only opens with the name.
    [
      'must',
      'Generics',
      [
        "Generics are the biggest change we've made to Go since the first open source release.",
        'Generics are a way of writing code that is independent of the specific types being used.',
      ],
      'Generics are a way',
    ],
    [
      'must',
      '向量数据库',
      ['向量数据库存储了很多向量，查询很快。', '向量数据库是一种按向量相似度检索数据的数据库。'],
      '向量数据库是一种',
    ],
    // 由于/because/if open a clause the name stands in: what it says is when or why.
    [
      'must not',
      '评估器',
      [
        '由于评估器是主动浏览页面，而不是对静态截图进行评分，每个周期都需要实际的挂钟时间。',
        '最终结果是一个三智能体架构——规划器、生成器和评估器——在多小时的自主编码会话中产出了丰富的全栈应用程序。',
      ],
      '最终结果',
    ],
    [
      'must not',
      'Topic branch',
      [
        'If a topic branch is merged too early, its history is harder to read later on.',
        'A topic branch is a short-lived branch that you create and use for a single particular feature.',
      ],
      'A topic branch is a short-lived',
    ],
    // A name after the clause (past its comma) is the sentence's own.
    [
      'must',
      'Digital Audio Workstation',
      [
        '为了测试框架，我生成了一个数字音频工作站（Digital Audio Workstation），这是一个用于作曲和混音的音乐制作程序。',
        'Build a fully featured DAW in the browser.',
      ],
      '为了测试框架',
    ],
  ];
  it.each(kinds)(
    '%s: a sentence that says what kind of thing %s is, not one that names it in a clause of reason or condition',
    (_, title, sentences, opens) => {
      expect(offlineConcept(group(title, [sentences])).summary.startsWith(opens)).toBe(true);
    },
  );

  it('says where a concept is discussed when no source has a sentence on it, under which heading if one names it', () => {
    const pipeline = offlineConcept(group('编译管线', [[`${HEADING_SNIPPET}数据流架构：从 raw/ 到 wiki/ 的编译管线`]]));
    expect(pipeline.summary).toBe('编译管线：见于《Source 0》一节「数据流架构：从 raw/ 到 wiki/ 的编译管线」。');
    expect(pipeline.body).toContain('- [[Source 0]] has a section “数据流架构：从 raw/ 到 wiki/ 的编译管线”.');
    expect(offlineConcept(group('Vector search', [[`${HEADING_SNIPPET}Choosing a vector search index`]])).summary).toBe(
      'Vector search is discussed in “Source 0”, under “Choosing a vector search index”.',
    );
    // A line that is no sentence but no heading either (a note's "see …" line), or a heading that is the
    // source's own title, says no more than where it is discussed.
    expect(offlineConcept(group('编译管线', [['数据流架构：从 raw/ 到 wiki/ 的编译管线']])).summary).toBe(
      '编译管线：见于《Source 0》。',
    );
    expect(offlineConcept(group('Source', [[`${HEADING_SNIPPET}Source 0`]])).summary).toBe(
      'Source is discussed in “Source 0”.',
    );
  });

  it('reads the line that leads into an account of it as what it is', () => {
    const { summary } = offlineConcept(
      group('WikiEntry', [
        ['编译条目的标准 Schema 定义（TypeScript 视角）：', '可追溯性：通过 source_ref 回到原始资料'],
      ]),
    );
    expect(summary).toBe('WikiEntry：编译条目的标准 Schema 定义（TypeScript 视角）。');
  });
});

describe('extractEntities: a plain-text heading is quoted nowhere', () => {
  it('quotes no heading line of a plain text (a short line alone between blank lines) nor a line of a drawing', () => {
    const text = [
      '数据流架构：从 raw/ 到 wiki/ 的编译管线',
      '',
      '用工程化的视角来描述整个数据流转。编译管线读取 raw/ 中的每篇资料，写出摘要和概念条目，再建立反向链接。'.repeat(
        8,
      ),
      '',
      '编译管线每次只处理改动过的文件。',
      '',
      '┌──────────────────┐',
      '│ 编译管线 - 语义分块、实体抽取、建立反向链接 │',
      '└──────────────────┘',
    ].join('\n');
    const e = extractEntities(text, 'x').find((f) => f.surface === '编译管线');
    expect(e).toBeDefined();
    expect(e!.snippets.length).toBeGreaterThan(0);
    expect(e!.snippets).not.toContain('数据流架构：从 raw/ 到 wiki/ 的编译管线');
    expect(e!.snippets.filter((s) => s.includes('│'))).toEqual([]);
  });

  it('quotes no labelled list of links ("Related: …") as what a source says of a name', () => {
    const text = [
      'Zettelkasten is a method of linked notes. Each Zettelkasten card holds one idea written in your own words.',
      '',
      'Related: [[Zettelkasten]], [[Obsidian, Wikilinks and Backlinks]], [[Linked notes]].',
    ].join('\n');
    const e = extractEntities(text, 'x').find((f) => f.surface === 'Zettelkasten');
    expect(e).toBeDefined();
    expect(e!.snippets.filter((s) => /^Related/.test(s))).toEqual([]);
  });
});
