import { describe, expect, it } from 'vitest';
import { latinTerms, offlineAnswer, statements, statesWhatItIs } from './answer.js';
import { joinWrapped } from '../chunk/reading.js';
import { queryTerms } from './retrieve.js';
import type { PackedContext, PackedEntry } from './pack.js';
import type { PassageHit } from './retrieve.js';

function entry(id: string, title: string, texts: string[], kind = 'source', summary = ''): PackedEntry {
  const passages: PassageHit[] = texts.map((text, i) => ({
    chunkId: i,
    entryId: id,
    title,
    rawPath: null,
    heading: '',
    text,
    tokens: 0,
    line: 1,
    score: 1,
    via: ['bm25'],
  }));
  return { id, title, file: title, kind, summary, backlinks: [], lastUpdated: '', passages };
}

const packed = (...entries: PackedEntry[]): PackedContext => ({ xml: '', tokens: 0, budget: 4000, entries });

describe('statements', () => {
  it('leaves out headings, code, tables, link lists and Sources/Backlinks lines', () => {
    const text = [
      '# Tides',
      'Tides are caused by the Moon.',
      '```js',
      'const tides = moon.pull(sea);',
      '```',
      '| Tide | Height |',
      '| --- | --- |',
      '- [[Moon]]',
      '## Sources',
      'Sources',
      '- The Sun also pulls on the sea.',
      '<!-- kb:backlinks -->',
    ].join('\n');
    expect(statements(text)).toEqual(['Tides are caused by the Moon.', 'The Sun also pulls on the sea.']);
  });

  it('reads a bold label that opens a line with what it names, and a bold lead-in alone as no statement', () => {
    const text = [
      '1. **Fixed-size windows.** Cut every N tokens. Overlap helps.',
      '**最重要的一条规则：** 查询和文档必须用同一个嵌入模型。',
      '**建索引（离线）：**',
      '- **Fleeting notes** — quick jottings.',
      '**RRF** merges two lists.',
    ].join('\n');
    expect(statements(text)).toEqual([
      'Fixed-size windows: Cut every N tokens.',
      'Overlap helps.',
      '最重要的一条规则：查询和文档必须用同一个嵌入模型。',
      'Fleeting notes — quick jottings.',
      'RRF merges two lists.',
    ]);
  });

  it('keeps a tag the sentence talks about, and code, as code; drops markup', () => {
    const text = [
      '把检索到的段落放进 <context> 标签，模型只读取标签里的内容。',
      'A component opens with `<script setup>` and a <span class="x">styled</span> word.',
    ].join('\n\n');
    expect(statements(text)).toEqual([
      '把检索到的段落放进 `<context>` 标签，模型只读取标签里的内容。',
      'A component opens with `<script setup>` and a styled word.',
    ]);
  });

  it('reads an embed (an icon, an image shown in place) as no words of the statement', () => {
    expect(statements('In the ribbon, select Publish changes ![[lucide-send.svg#icon]] to open the dialog.')).toEqual([
      'In the ribbon, select Publish changes to open the dialog.',
    ]);
  });

  it('leaves out a labelled list of links ("Related: [[A]], [[B]].", "另见：[[甲]]、[[乙]]")', () => {
    const text = [
      'Related: [[Zettelkasten]], [[Obsidian, Wikilinks and Backlinks]], [[SQLite]].',
      '另见：[[卡片盒笔记法]]、[[知识图谱]]。',
      'See [[Obsidian]] for how a vault is laid out.',
    ].join('\n');
    expect(statements(text)).toEqual(['See Obsidian for how a vault is laid out.']);
  });

  it('reads a concept page’s quotes without their attribution, and leaves out its list of sources', () => {
    const text = [
      '- Obsidian is a note-taking application built on a folder of Markdown files. — [[Obsidian, Wikilinks and Backlinks]]',
      '- 卢曼在卡片上写下相关卡片的编号。 — [[卡片盒笔记法]]',
      '- [[Vault Notes]] mentions Obsidian.',
      '- …and 3 more sources below.',
      '## Sources',
      '- [[Obsidian, Wikilinks and Backlinks]] (4 mentions)',
      '- [[卡片盒笔记法]] (1 mention)',
    ].join('\n');
    expect(statements(text)).toEqual([
      'Obsidian is a note-taking application built on a folder of Markdown files.',
      '卢曼在卡片上写下相关卡片的编号。',
    ]);
  });
});

describe('statements without emphasis marks', () => {
  it('reads bold and italic text as plain words, so no sentence starts or ends with a stray mark', () => {
    const zh = statements('**一、基于词典和统计的分词。** 最常用的开源工具是结巴分词（jieba）。');
    expect(zh).toEqual(['一、基于词典和统计的分词。', '最常用的开源工具是结巴分词（jieba）。']);
    const en = statements('1. **Rare terms matter more.** IDF rewards *rare* terms, as __Robertson__ showed.');
    expect(en).toEqual(['Rare terms matter more.', 'IDF rewards rare terms, as Robertson showed.']);
    // A multiplication or a glob is not emphasis.
    expect(statements('Take 2 * 3 * 4 files matching *.md today.')).toEqual([
      'Take 2 * 3 * 4 files matching *.md today.',
    ]);
  });
});

describe('statements and a document’s layout', () => {
  it('leaves out header lines, plain-text headings and the bullets typed before a line', () => {
    const text = [
      '原文链接：极客公园 - 文科生72小时杀入GitHub',
      '作者：张三',
      'Source: https://example.com/post',
      '',
      '四、工程核心：Lint + Heal 自动化闭环',
      '',
      '定期启动 Agent 遍历整个 Markdown 库，识别条目间的不一致性。',
      '• 设计质量：设计是否感觉像一个连贯的整体？',
      '',
      'A short closing line',
    ].join('\n');
    expect(statements(text)).toEqual([
      '定期启动 Agent 遍历整个 Markdown 库，识别条目间的不一致性。',
      '设计质量：设计是否感觉像一个连贯的整体？',
    ]);
  });
});

describe('offlineAnswer and a table of commands', () => {
  it('quotes a row that names a command in backticks: a table row is no code', () => {
    const text = ['| Command | Does |', '| --- | --- |', '| `:w` | Save (write) |', '| `:q` | Quit (close) |'].join(
      '\n',
    );
    const a = offlineAnswer('How do I save in the editor?', packed(entry('source/ed', 'Editor commands', [text])), 1);
    expect(a.text).toContain('`:w`');
  });
});

describe('statements in tables', () => {
  it('reads a data row as its cells, and leaves out header rows and rules', () => {
    const md = ['| Stage | What it does |', '| --- | --- |', '| Lint | Scans the wiki for contradictions. |'].join(
      '\n',
    );
    expect(statements(md)).toEqual(['Lint — What it does: Scans the wiki for contradictions.']);
    const tabs = ['模块\t功能\t效果', '调度器（定时任务）\t定期检查所有任务\t自动重试失败的任务'].join('\n');
    expect(statements(tabs)).toEqual(['调度器（定时任务）——功能：定期检查所有任务；效果：自动重试失败的任务']);
  });

  it('reads a short figure with its column’s header', () => {
    const tabs = ['Plan\tDuration\tCost', 'Solo\t20 min\t$9', 'Full team\t6 hr\t$200'].join('\n');
    expect(statements(tabs)).toEqual(['Solo — Duration: 20 min; Cost: $9', 'Full team — Duration: 6 hr; Cost: $200']);
    const md = ['| 模型 | 维度 |', '|---|---|', '| all-MiniLM-L6-v2 | 384 维 |'].join('\n');
    expect(statements(md)).toEqual(['all-MiniLM-L6-v2——维度：384 维']);
  });
});

describe('statements and quotations', () => {
  it('a question quoted inside a sentence does not end it', () => {
    expect(
      statements('要造出 evaluator，首先得建立标准，把“这个设计好不好看？”变成可以打分的问题。然后再迭代。'),
    ).toEqual(['要造出 evaluator，首先得建立标准，把“这个设计好不好看？”变成可以打分的问题。', '然后再迭代。']);
  });
});

describe('offlineAnswer', () => {
  it('quotes the sentence that holds the answer, not a saved answer’s title or the question', () => {
    const saved = entry(
      'answer/what-causes-tides',
      'What causes tides?',
      [
        '# What causes tides?\n\nWhat causes tides?\n\n## Answer\n\nTides follow the pull of the Moon. [[Tides]]\n\n## Sources\n\n- [[Tides]]',
      ],
      'answer',
    );
    const src = entry('source/tides', 'Tides', [
      '# Tides\n\nTides are the rise and fall of sea levels caused by the gravity of the Moon and the Sun.',
    ]);
    const a = offlineAnswer('What causes tides?', packed(saved, src));
    const lines = a.text.split('\n\n');
    expect(lines.some((l) => /^What causes tides\?/.test(l))).toBe(false);
    expect(a.text).not.toMatch(/^#|Sources/m);
    expect(a.text).toContain('caused by the gravity of the Moon');
    expect(a.text).toContain('[[Tides]]');
  });

  it('quotes a lead-in with the list items or the sentence it leads into', () => {
    const e = entry('source/xml', 'XML 标签隔离法', [
      '采用 XML 标签隔离法可以显著提升 Agent 的定位精度：\n- 标签之间的内容互不干扰\n- 模型只读取被标注的部分\n\n通过 XML 标签隔离，可以强制模型只关注 summary 标签内容。',
    ]);
    const a = offlineAnswer('XML 标签隔离法有什么用？', packed(e), 2);
    expect(a.text).toContain(
      'XML 标签隔离法可以显著提升 Agent 的定位精度：标签之间的内容互不干扰；模型只读取被标注的部分。',
    );
    expect(a.text).not.toMatch(/：\s*\[\[|：通过/);
    const prose = entry('source/clip', 'ClipGenius', [
      '从切换 Ubuntu 到开发 ClipGenius，这个过程让我深刻体会到：\n\n有时候，限制反而是创造的起点。\n\n后来我又做了很多别的事情。',
    ]);
    const b = offlineAnswer('开发 ClipGenius 的过程让你体会到什么？', packed(prose), 1);
    expect(b.text).toContain('这个过程让我深刻体会到：有时候，限制反而是创造的起点。');
    expect(b.text).not.toContain('后来');
    // A code listing's line numbers after a lead-in are no list.
    const listing = entry('source/xml2', 'XML', [
      '采用 XML 标签隔离法可以显著提升 Agent 的定位精度：\n1\n2\n3\n\n通过 XML 标签隔离，可以强制模型只关注 summary 标签内容。',
    ]);
    const c = offlineAnswer('XML 标签隔离法有什么用？', packed(listing), 1).text;
    expect(c).toContain('显著提升 Agent 的定位精度。');
    expect(c).not.toMatch(/1；2/);
  });

  it('quotes a sentence once when two translations of one article say it in other words', () => {
    const a = entry('source/a', '长期应用开发的Harness设计', [
      '一些模型还表现出"上下文焦虑”，即当它们接近自己认为的上下文限制时，会过早地开始收尾工作。',
    ]);
    const b = entry('source/b', '面向长时间运行应用程序开发的harness设计', [
      '某些模型还会表现出"上下文焦虑"，即当接近其自认为的上下文容量极限时，会过早地开始收尾工作。上下文焦虑可以用上下文重置来缓解。',
    ]);
    const text = offlineAnswer('什么是上下文焦虑？', packed(a, b), 3).text;
    expect(text.match(/过早地开始收尾工作/g)).toHaveLength(1);
    expect(text).toContain('上下文重置来缓解');
  });

  it('weighs no character pair that straddles two words of the question (工作|的)', () => {
    const e = entry('source/heal', '知识库', [
      '团队工作的节奏很快，大家分工明确。Heal 是在发现冲突时自动补齐数据的流程。',
    ]);
    // Weights as retrieval gives them: 作的 is rare in the wiki, so it weighs as much as the name.
    const weights = { heal: 3.4, 是: 0.6, 工: 0.9, 作: 0.9, 的: 0.3, 工作: 1.3, 作的: 3.2 };
    expect(offlineAnswer('Heal 是怎么工作的？', { ...packed(e), weights }, 1).text).toContain('自动补齐数据');
  });

  it('quotes no line of code or shell command', () => {
    const e = entry('source/git', 'Heal', [
      'git commit -m "[Heal] 统一 RAG 定义"\n\nHeal 会在单独的分支上修改文件并提交。',
    ]);
    const text = offlineAnswer('Heal 怎么提交修改？', packed(e), 2).text;
    expect(text).not.toContain('git commit');
    expect(text).toContain('单独的分支');
  });

  it('quotes one of a sentence and its translation, the one in the question’s language', () => {
    const zh = entry('source/zh', '长期应用开发的Harness设计', [
      '受生成对抗网络（GAN）的启发，我设计了一个包含 generator 与 evaluator 的多 agent 结构。',
    ]);
    const en = entry('source/en', 'Harness Design', [
      'Taking inspiration from GANs, I designed a multi-agent structure with a generator and evaluator agent. The evaluator grades each sprint.',
    ]);
    const english = offlineAnswer('What does the evaluator agent do?', packed(zh, en), 3).text;
    expect(english).not.toContain('受生成对抗网络');
    expect(english).toContain('Taking inspiration from GANs');
    const chinese = offlineAnswer('evaluator agent 结构是怎么设计的？', packed(en, zh), 3).text;
    expect(chinese).toContain('受生成对抗网络');
    expect(chinese).not.toContain('Taking inspiration');
  });

  it('ends a line of plain text with no end mark before the next statement', () => {
    const e = entry('source/tools', 'Tools', [
      '剪贴板工具 ClipGenius 支持云端同步\nClipGenius 的剪贴板历史保存在 IndexedDB 里。',
    ]);
    const a = offlineAnswer('ClipGenius 剪贴板同步保存在哪里？', packed(e), 2);
    expect(a.text).toContain('支持云端同步。ClipGenius 的剪贴板历史');
  });

  it('answers 什么是 X / What is X with the sentence that says what X is', () => {
    const zh = entry('source/index', '检索', [
      '搜索引擎离不开倒排索引，倒排索引让检索变快。倒排索引是一种记录每个词出现在哪些文档里的数据结构。',
    ]);
    expect(offlineAnswer('什么是倒排索引？', packed(zh), 1).text).toContain('倒排索引是一种记录');
    const en = entry('source/rrf', 'Fusion', [
      'Many systems merge lists with reciprocal rank fusion today. Reciprocal rank fusion is a way to merge ranked lists by rank alone.',
    ]);
    expect(offlineAnswer('What is reciprocal rank fusion?', packed(en), 1).text).toContain('is a way to merge');
  });

  it('weighs no dictionary word for the parts of a term the question glosses in English (缓存（cache）: 缓: slow)', () => {
    const e = entry('source/cache', 'Cache', [
      'A slow disk can be hidden behind a fast layer in many slow systems.',
      'Slow reads hurt too.',
      'A cache is a small fast store that keeps recent reads close.',
    ]);
    const weights: Record<string, number> = { 缓: 3, 存: 3, 缓存: 4, cache: 1, slow: 8 };
    const a = offlineAnswer('缓存（cache）是什么？', { ...packed(e), weights }, 1).text;
    expect(a).toContain('A cache is a small fast store');
  });

  it.each([
    ['a combinator is a closed lambda term', true],
    ['组合子是一个封闭的 lambda 项', true],
    ['the S and K combinators compose into combinators that are equal to any lambda term', false],
  ])('reads "%s" as saying what a combinator is: %s', (text, says) =>
    expect(statesWhatItIs('组合子（combinator）是什么？', text)).toBe(says),
  );

  it('picks the Chinese sentence with the number a 多少 question asks for', () => {
    const e = entry('source/panthers', '黑豹队', [
      '黑豹队是一支职业橄榄球队。黑豹队的防守只丢了 308分，在联赛中排名第六。球队的主场在夏洛特。',
    ]);
    const a = offlineAnswer('黑豹队的防守丢了多少分？', packed(e), 1);
    expect(a.text).toContain('308分');
    expect(a.citations.map((c) => c.title)).toEqual(['黑豹队']);
  });

  it('gives the chosen sentences in reading order, each run with its citation', () => {
    const e1 = entry('source/a', 'Alpha', [
      'Pandas eat bamboo in the mountains. Giant pandas live in Sichuan mountains and eat bamboo. Pandas sleep a lot.',
    ]);
    const a = offlineAnswer('Where do giant pandas live and what do pandas eat?', packed(e1), 2);
    expect(a.text).toBe(
      'Pandas eat bamboo in the mountains. Giant pandas live in Sichuan mountains and eat bamboo. [[Alpha]]',
    );
  });
});

describe('offlineAnswer picks the sentence that answers', () => {
  const withWeights = (e: PackedEntry, weights: Record<string, number>): PackedContext => ({
    ...packed(e),
    weights,
  });

  it('does not let the name every sentence repeats outweigh the words that tell them apart', () => {
    const name = '波斯黇鹿';
    const said = [
      `${name}较黇鹿大，鹿角也较大，但较少呈掌状。`,
      `${name}于1951年被认为已经灭绝。`,
      `后来在胡齐斯坦省再次发现少量${name}。`,
      `${name}的毛色在夏季较浅。`,
      '现存的种群可能面对近亲繁殖及缺乏遗传多样性。',
      `${name}以小群生活在河边的林地里。`,
      `${name}的繁殖季节在秋天。`,
      `以色列曾经引入${name}。`,
      `${name}的鹿角每年脱落。`,
    ];
    const e = entry('source/deer', name, [said.join('')]);
    // The name is rare in the wiki (high idf); what the question asks about is common.
    const weights: Record<string, number> = {};
    for (const t of ['波', '斯', '黇', '鹿', '波斯', '斯黇', '黇鹿']) weights[t] = 3;
    for (const t of ['可', '能', '可能', '面', '对', '面对', '问', '题', '问题']) weights[t] = 1.5;
    const a = offlineAnswer(`现存的${name}可能面对什么问题？`, withWeights(e, weights), 1);
    expect(a.text).toContain('近亲繁殖');
  });

  it('counts the neighbour of the sentence that matches the question', () => {
    const e = entry('source/bowl', 'Super Bowl 50', [
      'Peyton Manning led the Broncos in his last season. ' +
        'At 39 Manning became the oldest quarterback ever to play in a Super Bowl. ' +
        'The past record was held by John Elway, who won Super Bowl XXXIII at 38. ' +
        'The game was played in Santa Clara. ' +
        'The oldest stadium in the Super Bowl rotation sold out in minutes.',
    ]);
    const a = offlineAnswer('Before Manning, who was the oldest quarterback to play in a Super Bowl?', packed(e), 2);
    expect(a.text).toContain('John Elway');
  });

  it('passes over a sentence that asks the question itself for the one after it', () => {
    const e = entry('source/faq', 'Caching FAQ', [
      'Why does the cache miss after every deploy of the service? ' +
        'Each deploy writes a new build id into the key, so old entries no longer match. ' +
        'Deploys happen twice a week.',
    ]);
    const a = offlineAnswer('Why does the cache miss after a deploy?', packed(e), 1);
    expect(a.text).toContain('new build id');
  });

  it('takes the short reply after a question the text asks itself, when it asks what the asker asks', () => {
    const e = entry('source/netstack', 'Network stack', [
      'The team ran the new stack on its own devices for a year. ' +
        'So, over that year, how many bugs did the team find in the field? ' +
        'Three. ' +
        'The stack is written in Rust.',
    ]);
    const a = offlineAnswer('How many bugs did the new stack have in its first year?', packed(e), 1);
    expect(a.text).toMatch(/^Three\./);
  });

  it('prefers the sentence that ranks one thing above the rest when the question asks which is best', () => {
    const e = entry('source/layers', 'Layer lines', [
      'Slower printing hides layer lines on small parts. Sanding and priming hide layer lines most evenly.',
    ]);
    expect(offlineAnswer('Which way hides layer lines best?', packed(e), 1).text).toContain('Sanding');
    expect(offlineAnswer('Which way hides layer lines?', packed(e), 1).text).toContain('Slower');
  });

  it('answers what an abbreviation stands for with the sentence that spells it out', () => {
    const e = entry('source/srs', 'SRS 的用法', [
      'SRS 是一种安排复习的方法，SRS 可以用在外语学习上。SRS（Spaced Repetition System）的常用中文翻译是「间隔重复系统」。一个 SRS 会安排复习时间。',
    ]);
    expect(offlineAnswer('SRS 是什么的缩写？', packed(e), 1).text).toContain('Spaced Repetition System');
    expect(offlineAnswer('SRS 可以用在外语学习上吗？', packed(e), 1).text).not.toContain('Spaced Repetition System');
  });

  it('says so in the asker’s language, with the likeliest passages, when no statement holds enough of the question', () => {
    const e = entry('source/garden', 'Garden', [
      'Tomatoes want six hours of sun. Basil grows well beside them. Water both in the morning.',
    ]);
    const en = offlineAnswer('Which fertiliser suits tomatoes in clay soil, and how often?', packed(e), 2);
    expect(en.text).toMatch(/^No sentence in the wiki answers this for certain/);
    expect(en.text).toContain('> Tomatoes want six hours of sun.');
    const garden = entry('source/garden-zh', '菜园', ['番茄需要六小时日照。罗勒适合种在番茄旁边。早上浇水。']);
    const zh = offlineAnswer('粘土里的番茄该用哪种肥料，多久施一次？', packed(garden), 2);
    expect(zh.text).toMatch(/^知识库里没有哪句话能确定地回答这个问题/);
  });

  it('quotes, when unsure, a passage that ends at a lead-in with what it leads into', () => {
    const text = [
      'Kilns differ in cost, fuel and firing temperature.',
      'Both need venting.',
      'Here is how two kinds compare:',
      '',
      '- Gas kilns heat fast',
      '- Wood kilns leave ash glaze',
    ].join('\n');
    const q = 'Which kiln suits a small pottery studio with poor airflow, and how do kilns differ in cost?';
    const a = offlineAnswer(q, packed(entry('source/k', 'Kilns', [text])), 1).text;
    expect(a).toMatch(/^No sentence in the wiki/);
    expect(a).toContain('Here is how two kinds compare: Gas kilns heat fast; Wood kilns leave ash glaze.');
  });

  it('reads an abbreviation a text writes for words of the question (DL for "dead lock") as those words', () => {
    const text = [
      'Such waits end in a DL when two workers each hold the lock the other needs.',
      'Workers restart nightly.',
      'Stale lock files stay on disk after a crash.',
    ].join(' ');
    const a = offlineAnswer(
      'Why could a stale lock become a dead lock?',
      packed(entry('source/l', 'Locks', [text])),
      1,
    ).text;
    expect(a).toContain('end in a DL');
  });

  it('quotes with a statement that announces a count the statements it counts', () => {
    const e = entry('source/gen', 'Generics', [
      'Instantiation happens in two steps.\nFirst, the compiler substitutes the type arguments.\nSecond, it verifies each constraint.\nThen the program runs.',
    ]);
    const a = offlineAnswer('What happens when a generic function is instantiated?', packed(e), 1).text;
    expect(a).toContain(
      'Instantiation happens in two steps. First, the compiler substitutes the type arguments. Second, it verifies each constraint.',
    );
    expect(a).not.toContain('Then the program runs');
  });

  it('prefers the higher-ranked entry when two sentences hold the question about as well', () => {
    const top = entry('source/a', 'Panthers', ['The Panthers defense gave up 308 points, sixth best.']);
    const mid = entry('source/b', 'Broncos', ['The Broncos ranked first in the league.']);
    const low = entry('source/c', 'Other', ['The Other defense gave up 296 points, sixth in the league overall.']);
    const a = offlineAnswer('How many points did the defense give up, sixth in the league?', packed(top, mid, low), 1);
    expect(a.text).toContain('308');
  });
});

describe('offlineAnswer and the Latin words of a Chinese question', () => {
  it('reads as terms of the trade the lowercase Latin words of a Chinese question, not its proper names', () => {
    expect(latinTerms('怎么在 widget 里注册一个 hook？')).toEqual(['widget', 'hook']);
    expect(latinTerms('Go 的 defer 什么时候执行？')).toEqual(['defer']);
    expect(latinTerms('NASA 的总部在哪里？')).toEqual([]);
    expect(latinTerms('How do I register a hook?')).toEqual([]);
  });

  it('passes over a Chinese sentence that shares the question’s Chinese words but none of its Latin terms', () => {
    const zh = entry('source/pots', '花盆', ['给花盆加上一个托盘，窗台就不会湿。']);
    const en = entry('source/hooks', 'Hooks', ['To add a hook to a widget, call registerHook inside the widget body.']);
    const weights: Record<string, number> = { 加: 2, 上: 2, 加上: 4, 一: 1, 个: 1, 一个: 1, hook: 3, widget: 2 };
    const a = offlineAnswer('怎么在 widget 里加上一个 hook？', { ...packed(zh, en), weights }, 1).text;
    expect(a).toContain('registerHook');
    expect(a.indexOf('托盘') < 0 || a.indexOf('托盘') > a.indexOf('registerHook')).toBe(true);
  });
});

describe('offlineAnswer for a question asking which text of a series says something', () => {
  it('names the text it quotes first: its title is the answer', () => {
    const e = entry('source/digest-42', 'Garden Digest 42', ['New this week: the seed library opens on Sunday.']);
    const a = offlineAnswer('In which issue of the digest did the seed library open?', packed(e), 1);
    expect(a.text).toMatch(/^(?:.*\n\n> )?Garden Digest 42: /s);
    const zh = offlineAnswer(
      '种子图书馆开放是在哪一期周刊里说的？',
      packed(entry('source/z', '园艺周刊 42', ['本周：种子图书馆周日开放。'])),
      1,
    );
    expect(zh.text).toContain('园艺周刊 42：');
  });
});

describe('queryTerms', () => {
  it('leaves out Chinese interrogatives, which the answer does not say, but not the words that hold their characters', () => {
    const terms = queryTerms(['文周王是百济第多少代国王？谁知道呢']);
    for (const t of ['多少', '多', '少', '第多', '少代', '谁', '呢']) expect(terms).not.toContain(t);
    expect(terms).toEqual(expect.arrayContaining(['百济', '国王', '代']));
    expect(queryTerms(['什么是几何？'])).toEqual(expect.arrayContaining(['几何']));
    expect(queryTerms(['任何人几乎都知道'])).toEqual(expect.arrayContaining(['任何', '几乎']));
  });

  it('lets the offline answer pass over a sentence that only shares the question word', () => {
    const e = entry('source/ban', '班杰', ['班杰常问：这是什么？班杰的职业是演员兼模特儿。']);
    const a = offlineAnswer('班杰是什么职业？', packed(e), 1);
    expect(a.text).toContain('演员兼模特儿');
  });
});

describe('offlineAnswer for a question asking for a list', () => {
  const clip = [
    '但随着开发的深入，我逐渐加入了：',
    'ClipGenius能做什么？',
    '1. 智能内容分类',
    'ClipGenius会自动识别你复制的内容类型，分为6种。',
    '2. AI自动分析',
    '登录后启用自动分析，AI会为每条内容生成智能文件名。',
    '3. 多模态AI聊天',
    '这是我最喜欢的功能之一。',
    '4. 特色功能：FB广告视频一键下载',
  ];
  const whole = (e: PackedEntry, text: string) => (id: string) => (id === e.id ? text : undefined);

  it('quotes the numbered lines that list it, with the line that leads into them, from the whole text', () => {
    // The packed passage holds one item; the entry's whole text holds them all.
    const e = entry('s1', 'ClipGenius', [clip.slice(0, 4).join('\n')]);
    const a = offlineAnswer('ClipGenius 有哪些功能？', packed(e), 3, whole(e, clip.join('\n')));
    expect(a.text.split('\n')[0]).toBe(
      'ClipGenius能做什么？1. 智能内容分类；2. AI自动分析；3. 多模态AI聊天；4. 特色功能：FB广告视频一键下载。 [[ClipGenius]]',
    );
    expect(offlineAnswer('ClipGenius 是什么？', packed(e), 3, whole(e, clip.join('\n'))).text).not.toContain(
      '2. AI自动分析',
    );
  });

  it('takes the run counted in what the question counts: steps for 哪几步, not the sections of the work', () => {
    const text = [
      '一、知识库方法的核心观点',
      '正文。',
      '二、知识库方法的架构',
      '三、知识库方法的实施',
      '第一步：导入数据',
      '把文章放进 raw/ 目录。',
      '第二步：前端查看数据',
      '第三步：使用与循环优化',
    ].join('\n');
    const e = entry('k', '知识库方法', [text]);
    expect(offlineAnswer('知识库方法有哪几步？', packed(e)).text.split('\n')[0]).toBe(
      '第一步：导入数据；第二步：前端查看数据；第三步：使用与循环优化。 [[知识库方法]]',
    );
  });

  it('weighs the question’s own words before its translations, and reads items without emphasis', () => {
    // The second list names 检索增强生成, whose five character pairs the translation weighs.
    const sketch = entry('s', 'The RAG pipeline', [
      '# The RAG pipeline\n\nIndexing:\n1. **DOCS** — notes\n2. **CHUNK** — by heading\n3. **EMBED** — locally',
    ]);
    const graph = entry('g', 'Knowledge graphs', [
      'A simple pipeline:\n1. Ask for entities\n2. Merge 检索增强生成 and RAG\n3. Keep the shared ones',
    ]);
    const weights = { rag: 2, pipeline: 2, steps: 1, 检索: 1, 索增: 1, 增强: 1, 强生: 1, 生成: 1 };
    const a = offlineAnswer('What are the steps of a RAG pipeline?', { ...packed(sketch, graph), weights }).text;
    expect(a.split('\n')[0]).toBe(
      'Indexing: 1. DOCS — notes; 2. CHUNK — by heading; 3. EMBED — locally. [[The RAG pipeline]]',
    );
  });

  it('matches English words in their singular, and a numbered list inside an item does not break the run', () => {
    const text = [
      'Pattern 1: The Tool Wrapper',
      'A Tool Wrapper gives your agent context for a library.',
      '1. Load the conventions reference',
      '2. Check the code against each convention',
      '3. Suggest the fix',
      'Pattern 2: The Generator',
      'Pattern 3: The Reviewer',
    ].join('\n');
    const e = entry('p', 'Skill patterns', [text]);
    expect(offlineAnswer('What are the skill design patterns?', packed(e)).text.split('\n')[0]).toBe(
      'Pattern 1: The Tool Wrapper; Pattern 2: The Generator; Pattern 3: The Reviewer. [[Skill patterns]]',
    );
  });
});

describe('offlineAnswer for the parts of one listed item', () => {
  const text = [
    'Pattern 1: The Tool Wrapper',
    'A Tool Wrapper gives your agent context for a library.',
    'Pattern 2: Inversion',
    'The agent interviews you before acting.',
    '## Phase 1 — Problem Discovery (one question at a time)',
    '- Q1: "What problem does this project solve?"',
    '## Phase 2 — Technical Constraints',
    '## Phase 3 — Synthesis',
    '1. Load the plan template',
    '2. Fill in every section:',
    '3. Present the plan',
    'Pattern 3: The Pipeline',
    'Step 1 — Parse the code',
    'Step 2 — Write the docstrings',
    'Step 3 — Assemble the docs',
  ].join('\n');
  const e = entry('p', 'Skill patterns', [text]);

  it('lists the run under the item the question names, not the list that names it', () => {
    expect(offlineAnswer('What are the steps of the Inversion pattern?', packed(e)).text.split('\n')[0]).toBe(
      'Phase 1 — Problem Discovery (one question at a time); Phase 2 — Technical Constraints; Phase 3 — Synthesis. [[Skill patterns]]',
    );
    expect(offlineAnswer('What are the steps of the Pipeline pattern?', packed(e)).text.split('\n')[0]).toBe(
      'Step 1 — Parse the code; Step 2 — Write the docstrings; Step 3 — Assemble the docs. [[Skill patterns]]',
    );
    expect(offlineAnswer('What are the skill patterns?', packed(e)).text.split('\n')[0]).toBe(
      'Pattern 1: The Tool Wrapper; Pattern 2: Inversion; Pattern 3: The Pipeline. [[Skill patterns]]',
    );
  });

  it('reads 第一阶段 — … as a numbered line, and a bare number before a dash as none', () => {
    const zh = ['模式四：Inversion（反转）', '## 第一阶段 — 问题发现', '## 第二阶段 — 技术约束', '## 第三阶段 — 综合'];
    const z = entry('z', '设计模式', [['模式三：Reviewer（审查器）', ...zh, '模式五：Pipeline（流水线）'].join('\n')]);
    expect(offlineAnswer('Inversion 模式有哪几个阶段？', packed(z)).text.split('\n')[0]).toBe(
      '第一阶段 — 问题发现；第二阶段 — 技术约束；第三阶段 — 综合。 [[设计模式]]',
    );
    const dashes = entry('d', 'Scores', ['Scores:\n1 - the first\n2 - the second\n3 - the third']);
    expect(offlineAnswer('What are the scores?', packed(dashes)).text).not.toContain('1 - the first;');
  });
});

describe('offlineAnswer for a list given as `Label: what it is` lines after a lead-in', () => {
  const text = [
    'Generation and grading are separate.',
    'With this in mind, I wrote four grading criteria that I gave to both agents in their prompts:',
    'Design quality: Does the design feel like a coherent whole rather than a collection of parts?',
    'Strong work here means the colors and layout combine into a distinct mood.',
    'Originality: Is there evidence of custom decisions?',
    'Craft: Technical execution: typography hierarchy, spacing consistency.',
    'Functionality: Usability independent of aesthetics.',
    'Step 2: Wire the evaluator.',
  ].join('\n\n');
  const e = entry('h', 'Harness design', [text]);
  const whole = (id: string) => (id === 'h' ? text : undefined);

  it('answers a list question with the labels, an item going on for a paragraph, up to a numbered section', () => {
    expect(offlineAnswer('What are the four grading criteria?', packed(e), 1, whole).text.split('\n')[0]).toBe(
      'With this in mind, I wrote four grading criteria that I gave to both agents in their prompts: Design quality; Originality; Craft; Functionality. [[Harness design]]',
    );
  });

  it('reads the labels in the whole text when the packed passage ends at the lead-in, and 支持哪些 asks for them', () => {
    const zh = [
      'AI分析支持两个提供商：',
      'Gemini：支持文本、图片、视频（推荐）',
      'Minimax：仅支持文本',
      '3. 多模态AI聊天',
    ].join('\n');
    const z = entry('c', 'ClipGenius', ['AI分析支持两个提供商：']);
    const a = offlineAnswer('ClipGenius 支持哪些 AI 提供商？', packed(z), 1, (id) => (id === 'c' ? zh : undefined));
    expect(a.text).toBe('AI分析支持两个提供商：Gemini；Minimax。 [[ClipGenius]]');
  });

  it('takes the list whose lead-in says the question back, and bold labels before a dash', () => {
    const z = entry('z', 'Zettelkasten', [
      [
        'Three features distinguished it from an ordinary card catalogue:',
        '- **Fixed addresses**: every card has a number.',
        '- **Links between cards**: a card names others.',
        '- **A keyword index**: a few entry points.',
        'Ahrens distinguishes three kinds of notes:',
        '- **Fleeting notes** — quick captures, to be processed within a day or two.',
        '- **Literature notes** — short notes on what a source says.',
        '- **Permanent notes** — one idea per note.',
      ].join('\n'),
    ]);
    expect(offlineAnswer('What are the three kinds of notes?', packed(z)).text.split('\n')[0]).toBe(
      'Ahrens distinguishes three kinds of notes: Fleeting notes; Literature notes; Permanent notes. [[Zettelkasten]]',
    );
  });

  it('lists a long numbered item by the name it opens with in bold', () => {
    const long =
      'optionally with an overlap of 10–20% so that a sentence split at a boundary appears whole in one chunk.';
    const c = entry('c', 'Chunking', [
      [
        '## Common strategies',
        `1. **Fixed-size windows.** Cut every N tokens (512 is a popular default), ${long}`,
        `2. **Recursive splitting.** Try to split on the largest separator first, then paragraphs, ${long}`,
        `3. **Semantic chunking.** Embed each sentence, and start a new chunk where similarity drops, ${long}`,
      ].join('\n'),
    ]);
    expect(offlineAnswer('What are the chunking strategies?', packed(c)).text.split('\n')[0]).toBe(
      '1. Fixed-size windows; 2. Recursive splitting; 3. Semantic chunking. [[Chunking]]',
    );
  });

  it('takes the run of as many items as asked whose lead-in holds the question’s word, even the entry’s topic', () => {
    const z = entry('z', '卡片盒笔记法', [
      [
        '卡片盒笔记法的核心是写笔记。笔记要用自己的话写。',
        '卢曼的卡片盒里大约有 90,000 张卡片，有三个关键设计：',
        '1. 固定编号。',
        '2. 卡片之间互相引用。',
        '3. 关键词索引。',
        '书中把笔记分成三类：',
        '- **闪念笔记**：随手记下，一两天内处理掉；',
        '- **文献笔记**：用自己的话概括一篇资料；',
        '- **永久笔记**：一条笔记只讲一个想法。',
      ].join('\n\n'),
    ]);
    expect(offlineAnswer('卡片盒笔记法有哪三类笔记？', packed(z)).text.split('\n')[0]).toBe(
      '书中把笔记分成三类：闪念笔记；文献笔记；永久笔记。 [[卡片盒笔记法]]',
    );
  });

  it('counts no character pair of a longer question word (数据 of 向量数据库), no settings block, no code comment', () => {
    const k = entry('k', '知识库方法', [
      [
        'git push origin main',
        '# 触发 CI 重新构建索引',
        '这样做的好处：',
        '操作可追溯：每次修改都有提交记录',
        '冲突可回滚：git revert 一键恢复',
        'metadata:',
        ' pattern: index',
        ' interaction: multi-turn',
        '第一步：导入数据',
        '第二步：前端查看数据',
        '第三步：使用与循环优化',
      ].join('\n'),
    ]);
    expect(offlineAnswer('向量数据库有哪些索引？', packed(k)).text).not.toMatch(
      /操作可追溯；|第一步：导入数据；|pattern; interaction/,
    );
  });

  it('keeps what each item says for a question that asks no list', () => {
    const a = offlineAnswer('Why were the grading criteria written?', packed(e), 2, whole).text;
    expect(a).not.toContain('Design quality; Originality');
  });
});

describe('offlineAnswer and a statement that points back', () => {
  it('quotes the sentence a short statement points back to ("flips this dynamic")', () => {
    const text =
      'Agents inherently want to guess and generate immediately. The Inversion pattern flips this dynamic. ' +
      'Tool wrappers load conventions on demand.';
    const a = offlineAnswer('What is the Inversion pattern?', packed(entry('p', 'Patterns', [text])), 1).text;
    expect(a).toBe(
      'Agents inherently want to guess and generate immediately. The Inversion pattern flips this dynamic. [[Patterns]]',
    );
  });
});

describe('offlineAnswer and a lead-in', () => {
  it('ends the list it leads into at the next lead-in', () => {
    const text = ['XML 标签法的工程优势：', '边界清晰', '字段可解析', '使用方式：', '<summary>…</summary>'].join('\n');
    const a = offlineAnswer('XML 标签法有什么优势？', packed(entry('x', 'XML', [text])), 1).text;
    expect(a).toBe('XML 标签法的工程优势：边界清晰；字段可解析。 [[XML]]');
  });

  it('answers a comparison with the lead-in that says it back and the table it leads into', () => {
    const text = [
      'A queue keeps jobs in order, like a log does.',
      'Unlike a log, a queue forgets a job once it is done.',
      'Here is how a queue and a log compare:',
      '',
      '| queue | log |',
      '| --- | --- |',
      '| Forgets a job once it is acked. | Keeps every record until retention ends. |',
      '| One reader takes each job. | Every reader sees every record. |',
      '| Reordered on retry. | Never reordered. |',
    ].join('\n');
    const a = offlineAnswer(
      'How is a queue different from a log?',
      packed(entry('source/q', 'Queues', [text])),
      1,
    ).text;
    expect(a).toContain(
      'Here is how a queue and a log compare: Forgets a job once it is acked. — log: Keeps every record',
    );
    expect(a).toContain('Never reordered');
  });

  it('reads what it leads into in the whole text when the packed passage ends at it', () => {
    const lead = 'The scheduler is tuned for latency, so it targets these two cases:';
    const whole = [lead, '', '1. **Short bursts of input**', '1. **Long idle stretches**', '', 'Other notes.'].join(
      '\n',
    );
    const e = entry('source/sched', 'Scheduler', [`Some context.\n\n${lead}`]);
    const textOf = (id: string) => (id === 'source/sched' ? `Some context.\n\n${whole}` : undefined);
    const a = offlineAnswer('Which two cases is the scheduler tuned for?', packed(e), 1, textOf).text;
    expect(a).toContain(`${lead} Short bursts of input; Long idle stretches.`);
  });

  it("lists a section's own sections when the question asks what it holds (## 持久化 with ### RDB and ### AOF)", () => {
    const whole = [
      '# Redis',
      '',
      '## 七、分片',
      '',
      '根据执行分片的位置，可以分为三种分片方式：客户端分片；代理分片；服务器分片。',
      '',
      '## 八、持久化',
      '',
      'Redis 是内存型数据库，为了保证数据在断电后不会丢失，需要将内存中的数据持久化到硬盘上。',
      '',
      '### RDB 持久化',
      '',
      '将某个时间点的所有数据都存放到硬盘上。',
      '',
      '### AOF 持久化',
      '',
      '将写命令添加到 AOF 文件的末尾。',
    ].join('\n');
    const e = entry('source/redis', 'Redis', [whole]);
    const a = offlineAnswer('Redis 的持久化方式有哪些？', packed(e), 1, () => whole).text;
    expect(a).toContain('RDB 持久化；AOF 持久化');
    // A concept page's sections are kb's own, and a title's sections the text's outline: no list.
    const c = entry('concept/redis', 'Redis', [whole], 'concept');
    expect(offlineAnswer('Redis 的持久化方式有哪些？', packed(c), 1, () => whole).text).not.toContain(
      'RDB 持久化；AOF 持久化',
    );
  });
});

describe('statements: links and images', () => {
  it('takes no line of a drawing (├── index.json # 检索索引)', () => {
    expect(statements('├── index.json # 检索索引\n└── embeddings.db # 向量存储\n索引放在 wiki 目录里。')).toEqual([
      '索引放在 wiki 目录里。',
    ]);
  });

  it('takes no line kb wrote for a file it cannot read (Attachment: path, type, size)', () => {
    expect(
      statements('Attachment: `raw/images/rag-pipeline.png` (image/png, 1.9 KB, 420×200).\n\nThe diagram shows BM25.'),
    ).toEqual(['The diagram shows BM25.']);
  });

  it('reads a Markdown link as its text and an image as nothing (its `!` ends no sentence)', () => {
    expect(
      statements('See [the primer](https://example.com/a_b) for more. An image: ![RAG diagram](x.png) here.'),
    ).toEqual(['See the primer for more.', 'An image: here.']);
    expect(
      statements('(Same image as a normal Markdown link: ![RAG pipeline diagram](../images/rag-pipeline.png))'),
    ).toEqual([]);
  });
});

describe('offlineAnswer for the steps of a process', () => {
  // The steps come as two lists under the heading of the process, each led in by its phase.
  const rag = entry('source/rag', '检索增强生成入门', [
    [
      '# 检索增强生成入门',
      '',
      '检索增强生成（RAG）是"用大模型问答自己的笔记"最常见的做法。',
      '',
      '## 基本流程',
      '',
      '**建索引（离线）：**',
      '',
      '1. 读取文档。',
      '2. 分块。',
      '3. 为每一块计算嵌入向量。',
      '',
      '**查询（在线）：**',
      '',
      '1. 把问题转成向量。',
      '2. 取出最近的若干块。',
      '3. 把它们放进提示词。',
    ].join('\n'),
  ]);
  // An English list that names the subject in passing, in Chinese.
  const graph = entry('source/graph', 'Your Notes Are a Knowledge Graph', [
    [
      'A simple pipeline:',
      '',
      '1. For each source, ask the model for its entities.',
      '2. Merge entities by alias — "Retrieval-Augmented Generation", "RAG" and "检索增强生成" are one node.',
      '3. Write one page per entity.',
    ].join('\n'),
  ]);
  const first = (q: string, ...es: PackedEntry[]) => offlineAnswer(q, packed(...es)).text.split('\n')[0];

  it('lists the numbered runs under the process’s heading, each phase after its lead-in', () => {
    const both =
      '建索引（离线）：1. 读取文档；2. 分块；3. 为每一块计算嵌入向量。 查询（在线）：1. 把问题转成向量；2. 取出最近的若干块；3. 把它们放进提示词。 [[检索增强生成入门]]';
    expect(first('检索增强生成有哪些步骤？', graph, rag)).toBe(both);
    expect(first('RAG 的基本流程是什么？', rag)).toBe(both);
  });

  it('takes the phase the question names by a word of its own (查询 of 查询步骤)', () => {
    expect(first('检索增强生成的查询步骤有哪些？', rag)).toMatch(/^查询（在线）：1\. 把问题转成向量；/);
  });

  it('gives no steps of something else (知识图谱的构建流程 is not the flow of RAG)', () => {
    expect(first('知识图谱的构建流程是什么？', rag)).not.toContain('1. 读取文档');
  });

  it('gives no steps for a question asking what there is (哪些索引 is not answered by 建索引)', () => {
    const vdb = entry('source/vdb', '向量数据库笔记', ['最常见的 ANN 索引是 HNSW：它构建一个分层的图，召回率很高。']);
    const a = offlineAnswer('向量数据库有哪些索引？', packed(rag, vdb)).text;
    expect(a).not.toContain('1. 读取文档');
    expect(a).toContain('HNSW');
  });
});

describe('offlineAnswer for a question that asks why', () => {
  it('gives the reason that follows what it explains, before a sentence holding a question word in another sense', () => {
    const e = entry('source/h', 'Harness design', [
      [
        'I started by removing the sprint construct entirely.',
        'The sprint structure had helped to decompose work into chunks.',
        'Given the improvements in the new model, there was good reason to believe it could handle the job without decomposition.',
        '',
        'With the sprint construct removed, the evaluator ran once at the end.',
        '',
        'I wanted an editor where I could construct a level and then play it.',
      ].join('\n'),
    ]);
    const a = offlineAnswer('Why did they remove the sprint construct?', packed(e)).text;
    expect(a).toContain('Given the improvements in the new model');
    expect(a).not.toContain('construct a level');
    // Asked what, not why, the same sentences answer without the reason.
    expect(offlineAnswer('What happened to the sprint construct?', packed(e)).text).not.toContain('Given the');
  });
});

describe('offlineAnswer over meeting notes', () => {
  const notes = entry('source/meeting', 'Meeting notes — search sync', [
    [
      'Meeting notes — search sync',
      'Date: 2026-03-10',
      '',
      '1. Retrieval quality',
      '   - Hybrid search is the default.',
      '',
      'Action items',
      '   - Tomás: write rrf.ts as a standalone helper with tests.',
      '   - Priya: compare jieba and trigram on the Chinese notes.',
      '',
      'Next meeting: 2026-03-17',
    ].join('\n'),
  ]);

  it('reads a line alone that gives a figure for a label as a statement, not as a heading', () => {
    expect(offlineAnswer('When is the next meeting?', packed(notes)).text).toMatch(/^Next meeting: 2026-03-17/);
  });

  it('lists the bullets under the title line the question names, and never quotes the title alone', () => {
    expect(offlineAnswer('What are the action items?', packed(notes)).text.split('\n')[0]).toBe(
      'Action items: Tomás: write rrf.ts as a standalone helper with tests; Priya: compare jieba and trigram on the Chinese notes. [[Meeting notes — search sync]]',
    );
    expect(statements(notes.passages[0]!.text)).not.toContain('Action items');
  });
});

describe('offlineAnswer over a list with items nested under its items', () => {
  it('lists the items at the top of the list under a title line, across blank lines, not what is nested under them', () => {
    const text = [
      'Open questions',
      '- Who owns the billing export?',
      '\t- Finance asked first.',
      '',
      '\t- Ops runs the job today.',
      '- Should retries back off?',
      '',
      '- When does the old API retire?',
      '',
      'Next sync is on Friday.',
    ].join('\n');
    const a = offlineAnswer('What are the open questions?', packed(entry('source/sync', 'Sync notes', [text])), 1).text;
    expect(a.split('\n')[0]).toBe(
      'Open questions: Who owns the billing export?; Should retries back off?; When does the old API retire?. [[Sync notes]]',
    );
  });
});

describe('offlineAnswer over the attendees of a meeting', () => {
  it('answers who attended from the Attendees line (attendees and attended share a stem)', () => {
    const n = entry('source/m2', 'Meeting notes — sync', [
      [
        'Meeting notes — sync',
        'Date: 2026-03-10',
        'Attendees: Mira Chen, Tomás Reyes, Priya Natarajan',
        '',
        'The team reviewed the retrieval figures.',
      ].join('\n'),
    ]);
    expect(offlineAnswer('Who attended the meeting?', packed(n)).text).toContain(
      'Attendees: Mira Chen, Tomás Reyes, Priya Natarajan',
    );
  });
});

describe('English word forms', () => {
  it('matches a statement by the stems of the words of the question (samples → sample)', () => {
    const p = packed(
      entry('source/lab', 'Lab notes', [
        'The stored results are copied to a server every night. Each sample is kept in a freezer at minus eighty degrees.',
      ]),
    );
    p.weights = { samples: 3, stored: 1 };
    const answer = offlineAnswer('How are the samples stored?', p, 1).text;
    expect(answer).toContain('Each sample is kept in a freezer');
  });
});

describe('offlineAnswer for "what is X?"', () => {
  const chunking = entry('source/chunking', 'Chunking', [
    'Each chunk carries its heading path, such as Zettelkasten > Folgezettel > Numbering. Headings split the text.',
  ]);
  const zettel = entry('source/zettel', 'Zettelkasten', [
    'Luhmann numbered his cards by branching. This scheme, later called Folgezettel, let any card sprout a new line of thought.',
  ]);
  const zh = entry('source/zh', '卡片盒笔记法', ['这种做法后来被称为 Folgezettel，任何一张卡片都可以长出新的思路。']);

  it('opens with what says what X is, before a passing mention in a higher-ranked entry', () => {
    expect(offlineAnswer('What is Folgezettel?', packed(chunking, zettel)).text).toMatch(
      /^This scheme, later called Folgezettel/,
    );
    expect(offlineAnswer('什么是 Folgezettel？', packed(chunking, zh)).text).toMatch(/^这种做法后来被称为 Folgezettel/);
  });

  it('does not read 指向 (points to) as 指 (means)', () => {
    const link = entry('source/link', '维基链接', ['写作倒数排名融合；哪些卡片指向这张卡片由软件算出。']);
    const rrf = entry('source/rrf', '混合检索', ['倒数排名融合的办法是干脆不看分数，只看名次。']);
    expect(offlineAnswer('什么是倒数排名融合？', packed(link, rrf)).text).toMatch(/^倒数排名融合的办法/);
  });
});

describe('offlineAnswer reading order', () => {
  it('quotes an entry in the order of the note, not the order its passages were ranked in', () => {
    const e = entry('source/seg', '中文分词与全文检索', [
      '代码目录里的 bm25.py 在没有分词器时会退回到二元切分，但不需要任何依赖。',
      '对搜索引擎来说，中文分词是建立倒排索引之前必须解决的问题。',
    ]);
    e.passages[0]!.line = 47;
    e.passages[1]!.line = 10;
    const a = offlineAnswer('为什么中文需要分词？', packed(e)).text;
    expect(a.indexOf('对搜索引擎来说')).toBeGreaterThanOrEqual(0);
    expect(a.indexOf('对搜索引擎来说')).toBeLessThan(a.indexOf('代码目录里'));
  });
});

describe('offlineAnswer for a list asked as "what …s does X have"', () => {
  const clip = entry('source/clip', '找不到好用的Linux剪贴板', [
    ['ClipGenius能做什么？', '', '1. 智能内容分类', '', '2. AI自动分析', '', '3. 多模态AI聊天'].join('\n'),
  ]);
  const report = entry('source/report', 'Agent Skill Design Patterns', [
    [
      'You are a technical report generator. Follow these steps exactly:',
      '',
      'Step 1: Load the style guide.',
      'Step 2: Load the report template.',
      'Step 3: Fill the template.',
    ].join('\n'),
  ]);
  const planner = entry('source/harness', 'Harness design', [
    'I created a planner agent that took a simple prompt and expanded it into a full product spec.',
  ]);

  it('lists the numbered items for "What features does ClipGenius have?" and ClipGenius 支持哪些功能？', () => {
    for (const q of ['What features does ClipGenius have?', 'ClipGenius 支持哪些功能？'])
      expect(offlineAnswer(q, packed(clip)).text).toMatch(
        /^ClipGenius能做什么？1\. 智能内容分类；2\. AI自动分析；3\. 多模态AI聊天。/,
      );
  });

  it('takes no counted steps from an entry that names nothing the question asks about', () => {
    for (const q of ['What are the steps the planner takes?', 'What steps does the planner take?'])
      expect(offlineAnswer(q, packed(report, planner)).text).not.toContain('Step 2');
    expect(offlineAnswer('What are the steps of the report generator?', packed(report, planner)).text).toContain(
      'Step 1: Load the style guide',
    );
  });
});

describe('unwrapped: prose hard-wrapped at a fixed width', () => {
  it('joins a wrapped paragraph so a sentence that runs over a line break is one statement', () => {
    const text =
      'A stack is a collection that keeps values in the order it gets them and removes the\nvalues in the opposite order, so here is a brief example of one in use.\n\nNext paragraph.';
    expect(statements(text)).toContain(
      'A stack is a collection that keeps values in the order it gets them and removes the values in the opposite order, so here is a brief example of one in use.',
    );
  });
  it.each([
    [
      'fields, one per line',
      'Date: 2026-03-10\nAttendees: Ana, Bo, Chen and Dmitri from the platform team\nNext meeting: 2026-03-17',
    ],
    ['a short line', 'Short line\ngoes on'],
    ['a list', 'The options we weighed for the storage layer are listed here\n- sqlite\n- postgres'],
    [
      'a sentence that ended',
      'This line is long enough to be a wrapped line of prose text.\nthen another sentence starts.',
    ],
  ])('leaves %s as they are', (_what, text) => {
    expect(joinWrapped(text.split('\n'))).toEqual(text.split('\n'));
  });
  it('joins wrapped Chinese lines without a space, and a line that goes on with code', () => {
    expect(
      joinWrapped(['这是一段很长很长的中文文字，作者在这里换行了但是我们不知道这是不是同一段的意思', '继续写']),
    ).toEqual(['这是一段很长很长的中文文字，作者在这里换行了但是我们不知道这是不是同一段的意思继续写']);
    expect(joinWrapped(['To build your code with the race detector enabled, just add the', '`-race` flag.'])).toEqual([
      'To build your code with the race detector enabled, just add the `-race` flag.',
    ]);
  });
});

describe('offlineAnswer: a Chinese question about English notes', () => {
  it('takes the statement that says what the subject is, called by its English name', () => {
    const notes = entry('source/scheduler', 'Job runner', [
      'Most jobs run at night. The queue holds jobs for the scheduler, and the scheduler reads the queue twice.',
      'The scheduler is a service that decides which job runs next.',
    ]);
    const ctx: PackedContext = {
      ...packed(notes),
      weights: { scheduler: 3, queue: 2, job: 1 },
      renderings: { 调度器: 'scheduler' },
    };
    expect(offlineAnswer('调度器是什么？', ctx, 1).text).toContain('decides which job runs next');
    // Without the rendering nothing tells a statement of what it is from one that names it.
    const bare: PackedContext = { ...packed(notes), weights: { scheduler: 3, queue: 2, job: 1 } };
    expect(offlineAnswer('调度器是什么？', bare, 1).text).not.toContain('decides which job runs next');
  });
});

describe('offlineAnswer: a statement that says what kind of thing the subject is', () => {
  // Must come first / must not: the subject, a copula and a kind ("is a collection of"), over a remark
  // that opens with the subject ("are the future of"); the kind alone names a subject qualified by a name.
  it.each([
    [
      'What is a Loom pipeline?',
      [
        'Loom pipelines are the future of batch jobs in Loom.',
        'With Loom pipelines, stages are referenced by name.',
        'A pipeline is a sequence of Loom stages that pass records from one to the next.',
      ],
      'A pipeline is a sequence of Loom stages',
    ],
    [
      '什么是向量数据库？',
      ['向量数据库越来越流行了。', '向量数据库是一种按向量相似度检索数据的数据库。', '很多团队都在用向量数据库。'],
      '向量数据库是一种按向量相似度检索数据的数据库',
    ],
  ])('answers %s with the statement of its kind', (q, texts, want) => {
    const e = entry('source/a', 'Notes', [texts.join('\n\n')]);
    expect(offlineAnswer(q, packed(e), 1).text).toContain(want);
  });
});

describe('offlineAnswer and a work in several languages', () => {
  // An English question finds the Chinese translation by its words' translations (合并, 指针) too.
  const weights: Record<string, number> = { fast: 2, forward: 2, merge: 1.5, 合并: 1.5, 指针: 2, 快进: 3 };
  const original = entry('source/branching', 'Git Branching', [
    'Git moves the pointer forward because there is no divergent work to merge together — this is called a fast-forward.',
  ]);
  const translation = (readAs?: string) => ({
    ...entry('source/分支', 'Git 分支', [
      '因为这种单线的历史分支不存在任何需要解决的分歧，Git 只会简单地把指针右移，所以这种合并过程可以称为快进（fast forward）。',
    ]),
    ...(readAs ? { readAs } : {}),
  });

  it('answers from the version the asker reads when the translation gave way to it', () => {
    const q = 'Why is a merge called a fast forward?';
    const a = offlineAnswer(q, { ...packed(translation(original.id), original), weights }, 1);
    expect(a.text).toContain('this is called a fast-forward');
    expect(a.citations.map((c) => c.id)).toEqual([original.id]);
  });

  it('still answers from the translation when it stands alone (a question finds notes in the other language)', () => {
    const q = 'Why is a merge called a fast forward?';
    const a = offlineAnswer(q, { ...packed(translation(original.id)), weights }, 1);
    expect(a.text).toContain('快进');
  });

  it('says a sentence once when two editions of a translation give it in both scripts', () => {
    const hans = entry('source/分支', 'Git 分支', [
      'Git 只会简单地把指针右移，所以这种合并过程可以称为快进（Fast forward）。',
    ]);
    const hant = entry('source/分支-2', 'Git 分支', [
      'Git 只會簡單地把指標右移，所以這種合併過程可以稱為快進（Fast forward）。',
    ]);
    const a = offlineAnswer('什么是快进合并？', { ...packed(hans, hant), weights: { 快进: 3, 合并: 2 } }, 3);
    expect(a.text.match(/快[进進]/g)).toHaveLength(1);
  });
});
