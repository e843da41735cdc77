import { describe, expect, it } from 'vitest';
import { extractEntities, orHeading, stripMarkdown } from './entities.js';
import { namesIn } from '../../text/outline.js';
import { HEADING_SNIPPET } from '../types.js';

/** The names a text gives (its everyday words, kept as weak names, are no names). */
const names = (md: string) =>
  extractEntities(md, 'Untitled')
    .filter((e) => !e.weak)
    .map((e) => e.surface);
const keys = (md: string) =>
  extractEntities(md, 'Untitled')
    .filter((e) => !e.weak)
    .map((e) => e.key);

describe('extractEntities: noise words', () => {
  it('takes no labels, log levels, literals, verbs or UI text for concepts', () => {
    const md = [
      'Chapter 3 explains the setup. Chapter 4 explains the rest. See Listing 2 and Listing 5.',
      'Click Create to start. Click Create again to add another vector database.',
      'The function returns None when nothing matches; None is also the default.',
      'Each finding has a level: error, info or warning. An error must be fixed, info can be ignored.',
      'The vector database provides fast search. The vector database provides filters too.',
    ].join('\n\n');
    const found = names(md).map((n) => n.toLowerCase());
    for (const noise of ['chapter', 'listing', 'click create', 'none', 'error', 'info', 'warning', 'provides', 'click'])
      expect(found).not.toContain(noise);
    expect(found).toContain('vector database');
  });

  it('keeps an abbreviation in capitals mentioned once, not a capitalised word or a two-letter one', () => {
    const md =
      'A vector database indexes embeddings with HNSW. RAG systems query the vector database first. An AI helps.';
    const found = names(md);
    expect(found).toContain('RAG');
    expect(found).toContain('HNSW');
    expect(found).not.toContain('AI');
    expect(found).not.toContain('An');
  });

  it('keeps Chinese nouns and runs of nouns, never a verb, a particle or a piece of a word', () => {
    const md = [
      '我们用工具生成文档字符串。生成文档字符串的代码很短，文档字符串中的代码示例也要检查。',
      '随着模型变强，这意味着向量数据库更重要。向量数据库中的代码索引意味着更快的检索。',
      '上下文焦虑会让模型提前收尾。上下文焦虑在长任务中很常见。',
    ].join('\n\n');
    const found = names(md);
    for (const noise of ['文档字符', '档字符串', '中的代码', '随着模型', '意味着', '会发生'])
      expect(found).not.toContain(noise);
    expect(found).toContain('文档字符串');
    expect(found).toContain('向量数据库');
    expect(found).toContain('上下文焦虑');
  });

  it.each([
    // Must match: a numeral alone before a noun opens the term…
    ['三斜线指令是早期的语法。三斜线指令用来声明依赖，三斜线指令很少用。', '三斜线指令', true],
    // …must not: a count, with its measure word.
    ['三个指令很多，三个指令很长。两种方法，两种方法都行。', '三个指令', false],
  ])('reads a numeral before a noun as part of a term, never a count: %s', (md, key, found) => {
    expect(names(md).includes(key)).toBe(found);
  });

  it('takes the term before a translation in parentheses, without the verb in front of it', () => {
    const md =
      '这篇论文受到生成对抗网络（GANs）的启发。生成对抗网络在图像领域很常见。\n\n问题分级：必须修复（error）和可以考虑（info）。';
    const found = extractEntities(md, 'x');
    const gan = found.find((e) => e.surface === '生成对抗网络');
    expect(gan?.aliases).toContain('GANs');
    expect(found.map((e) => e.surface)).not.toContain('受到生成对抗网络');
    expect(found.map((e) => e.surface)).not.toContain('必须修复');
  });

  it('finds English noun phrases and proper names with the tagger', () => {
    const md =
      'Context anxiety appears late in a session. Models show context anxiety near the limit. ClipGenius keeps a clipboard history, and ClipGenius syncs it.';
    const found = keys(md);
    expect(found).toContain('context anxiety');
    expect(names(md)).toContain('ClipGenius');
  });

  it('reads a plural the tagger took for a verb as a noun only where no verb can stand', () => {
    const md =
      'Context resets were a key unlock. We used context resets between sessions, and the harness drops context resets from the loop.';
    expect(keys(md)).toContain('context reset');
    // "the agent resets the state": a verb with its object, after a determiner.
    const verb = 'The agent resets the state. Then the agent resets the clock. The agent resets everything.';
    expect(keys(verb)).not.toContain('agent reset');
  });

  it('reads a plural-looking word with an object after it as the verb of its sentence, not a phrase’s end', () => {
    const md = 'Git stores its data as snapshots. Git stores the history too. Git stores every version of a file.';
    expect(keys(md)).not.toContain('git store');
    // A plural noun that ends its phrase stays one: "memory leaks were found".
    const noun = 'Memory leaks were found. We fixed memory leaks in the parser. Memory leaks are rare now.';
    expect(keys(noun)).toContain('memory leak');
  });

  it('takes no term of art from a word that only qualifies the noun after it, the word said alone still', () => {
    // Must not match: "const" opening every phrase it is in (const generics, const fn) is their attribute.
    const modifier =
      'We discussed const generics at length, and const generics ship first. The const parameter may be any ' +
      'const expression, and each const parameter is checked. A const expression is evaluated at compile time.';
    expect(keys(modifier)).not.toContain('const');
    expect(keys(modifier)).toContain('const parameter');
    // Must match: a term the text also says alone (a goroutine, goroutines leak).
    const alone =
      'A goroutine is a lightweight thread. Each goroutine has its own stack, and a goroutine leak happens ' +
      'when a goroutine blocks forever.';
    expect(keys(alone)).toContain('goroutine');
  });

  it('keeps a name only where a sentence says it as a whole word, its plural too', () => {
    // "const" inside "constant" and "constraints" is no mention of it outside code.
    expect(namesIn('a constant and its constraints', 'const')).toBe(false);
    expect(namesIn('rapid apis', 'api')).toBe(true);
    expect(namesIn('the axioms of regular expressions.', 'axiom')).toBe(true);
    expect(namesIn('the axioms of regular expressions.', 'regular expression')).toBe(true);
    expect(namesIn('capital letters', 'api')).toBe(false);
    expect(namesIn('上下文窗口很长', '窗口')).toBe(true);
  });

  it('counts a short name only as a whole word', () => {
    const md =
      'A critical review (CR) found two issues. The CR was short. It is critical that circles around a Round table stay round.';
    const cr = extractEntities(md, 'x').find((e) => e.key === 'critical review' || e.key === 'cr');
    expect(cr).toBeDefined();
    // "critical" does not count as a mention of CR, and a snippet about CR mentions CR.
    for (const s of cr!.snippets) expect(/\bCR\b|critical review/i.test(s)).toBe(true);
    expect(cr!.snippets.some((s) => s.startsWith('It is critical'))).toBe(false);
  });

  it('reads Traditional Chinese with the Simplified dictionary and keys both spellings alike', () => {
    const trad = extractEntities('所有權規則決定誰能修改。所有權規則寫在設定檔裡。', 'x');
    const simp = extractEntities('所有权规则决定谁能修改。所有权规则写在配置文件里。', 'x');
    const t = trad.find((e) => e.surface === '所有權規則');
    expect(t).toBeDefined();
    expect(simp.find((e) => e.surface === '所有权规则')?.key).toBe(t!.key);
  });
});

describe('extractEntities: words in capitals, misread word ends, examples in parentheses', () => {
  it('takes no everyday word in capitals in bold for a stressed name (a stage label)', () => {
    const md = [
      'The index keeps HNSW graphs.',
      '1. **CHUNK** — heading-aware chunking of every note.',
      '2. **FUSE** — both lists merged with a rank fusion; FUSE runs last, and FUSE is cheap.',
    ].join('\n\n');
    const found = extractEntities(md, 'Sketch');
    expect(found.map((e) => e.surface)).toContain('HNSW');
    expect(found.find((e) => e.key === 'chunk')?.salient ?? false).toBe(false);
    expect(found.find((e) => e.key === 'fuse')?.salient ?? false).toBe(false);
  });

  it('reads a tab-separated row that names a thing and says what it is as one sentence', () => {
    const md = [
      '能力\t说明\t价值',
      'Heal（自我修复）\t当检测到信息缺失或冲突时，自动补齐数据\t保持知识库的高保真度',
      '多个 Agent 可能同时执行 Heal 操作。Heal 的结果写回知识库。',
    ].join('\n');
    const heal = extractEntities(md, 'Sketch').find((e) => e.key === 'heal');
    expect(heal?.snippets).toContain(
      'Heal（自我修复）：当检测到信息缺失或冲突时，自动补齐数据；保持知识库的高保真度。',
    );
  });

  it('reads a bold label with a qualifier as the name before it, never half a parenthesis', () => {
    const md = [
      '**Indexing (offline):** documents are split and embedded.',
      '**Querying (online):** the question is embedded and searched.',
      '**Reciprocal Rank Fusion (RRF):** merges the lists.',
    ].join('\n\n');
    const surfaces = extractEntities(md, 'Sketch').map((e) => e.surface);
    expect(surfaces.filter((s) => /[(（]/.test(s) !== /[)）]/.test(s))).toEqual([]);
    expect(surfaces).toContain('Indexing');
    expect(surfaces).toContain('Reciprocal Rank Fusion');
  });

  it('keeps a run of a noun and a place word (上下文/窗口), its first word counted apart only outside other terms', () => {
    const md = [
      '首先，当上下文窗口填满时，模型往往会失去连贯性。',
      '上下文重置——完全清除上下文窗口并启动一个新的智能体。',
      '上下文焦虑让模型提前收尾。上下文焦虑很常见，上下文重置可以缓解上下文焦虑。上下文重置有成本。',
    ].join('\n\n');
    expect(keys(md)).toContain('上下文窗口');
  });

  it('drops a term where jieba took a suffix into the next word (智能/体会 for 智能体/会)', () => {
    const md = [
      '评估器智能体读取生成器的输出。每个智能体都有自己的上下文，智能体之间通过文件通信。',
      '通信通过文件处理：一个智能体会写一个文件，另一个智能体会读取它。',
      '我们使用初始化智能体将产品规格分解为任务列表，编码智能体逐个实现。',
    ].join('\n\n');
    const found = keys(md);
    expect(found).toContain('智能体');
    expect(found).not.toContain('智能体会');
    expect(found).not.toContain('初始化智能');
  });

  it('reads names listed in parentheses as examples, not as translations of the words before', () => {
    const md = [
      '支持多个提供商：AI提供商可插拔（Gemini、Minimax），配置写在 .env 里。',
      '提供商可插拔的设计让切换很简单。提供商可插拔也方便测试。',
      '倒数排名融合（Reciprocal Rank Fusion，RRF）把两个列表合并。',
    ].join('\n\n');
    const found = extractEntities(md, 'ClipGenius');
    for (const e of found) expect(e.aliases).not.toContain('Gemini');
    expect(found.find((e) => e.aliases.includes('RRF'))).toBeDefined();
  });

  it('finds a capitalised name in a heading only where the heading capitalises it as a word', () => {
    const md = [
      '# 数据流架构：从 raw/ 到 wiki/ 的编译管线',
      '每篇资料编译进 Wiki。Wiki 里的条目彼此链接，Wiki 有索引，Wiki 可以搜索。',
      '# 与 MemGPT 结合',
      'MemGPT 把上下文当作内存。MemGPT 分页调度，MemGPT 可以用知识库存储。',
    ].join('\n\n');
    const found = extractEntities(md, 'Untitled');
    expect(found.find((e) => e.key === 'wiki')?.salient ?? false).toBe(false);
    expect(found.find((e) => e.key === 'memgpt')?.salient).toBe(true);
  });
});

describe('extractEntities: everyday compounds and words that are no prose', () => {
  it('takes a compound of everyday words only where the text keeps its words together', () => {
    const md = [
      '我们的工作流程很简单。工作流程分三步：先工作，再检查工作，最后总结工作。',
      '每天的工作从读任务开始，工作结束时写日志。工作量不大，工作时间灵活。',
      '所有权规则决定谁能修改。所有权规则写在配置文件里。',
    ].join('\n\n');
    const found = keys(md);
    expect(found).not.toContain('工作流程');
    expect(found).toContain('所有权规则');
  });

  it('takes a compound ending in an everyday word only where the text keeps that word to it', () => {
    const md = [
      'ClipGenius是开源项目。开源项目的文档很重要，开源项目PasteEx也不错。',
      '这个项目用了三个项目模板，每个项目都有测试。项目很小，项目也很新。',
      '上下文焦虑让模型提前收尾。上下文焦虑在上下文变长时出现。上下文重置可以缓解上下文焦虑。',
      '上下文越长，上下文越难管理。',
    ].join('\n\n');
    const found = keys(md);
    expect(found).not.toContain('开源项目');
    expect(found).toContain('上下文焦虑');
  });

  it('reads a capitalised name in Chinese prose as a name when the word is lowercase only in a path or a key', () => {
    const md = [
      '多个 Agent 可能同时执行 Sentinel 操作。如果 Sentinel 引入错误，一键恢复。Sentinel 会递增版本号。',
      'git checkout -b sentinel/rag-definition-20260409',
      'last_sentinel_timestamp: number',
      'pattern: sentinel',
    ].join('\n\n');
    expect(names(md)).toContain('Sentinel');
  });
});

describe('extractEntities: what a section heading names', () => {
  const links = (url: (i: number) => string) =>
    Array.from({ length: 6 }, (_, i) => `* [Change number ${i} to the tool](${url(i)})`).join('\n');
  it('counts an address’s path as a mention of what it leads to, never its query', () => {
    const md = [
      '# Weekly',
      'Intro text about the week.',
      '## Final Comment Period',
      'No items entered final comment period this week.',
      links((i) => `https://github.com/org/rfcs/issues?q=label%3Afinal-comment-period+page${i}`),
      '## Linter',
      links((i) => `https://github.com/org/linter/pull/${100 + i}`),
    ].join('\n\n');
    const found = extractEntities(md, 'Weekly');
    expect(found.find((e) => e.key === 'comment period')?.count ?? 0).toBeLessThan(3);
    expect(found.map((e) => e.key)).toContain('linter');
  });
});

describe('extractEntities: a word marked inside a longer name', () => {
  it('takes no word marked inside a longer English name for a name, a word marked before a function word still', () => {
    const zh = '你的 React 應用程式從「root」component 開始。root component 通常只有一個，root 也可以改名。';
    expect(keys(zh)).not.toContain('root');
    const en = '3. **Committing** to the DOM comes last. Committing writes nodes. Committing is quick.';
    expect(keys(en)).toContain('committing');
  });
});

describe('extractEntities: a heading that labels a section', () => {
  it('takes no name ending in a word for a kind of text from a heading, a name of its own still', () => {
    const md = [
      '# Weekly',
      '## Release Updates',
      'Release Updates lists what shipped. Release Updates come first. Release Updates are short.',
      '## Build Cache',
      'The Build Cache keeps outputs. Build Cache is shared. We trust the Build Cache to save time.',
    ].join('\n\n');
    const found = extractEntities(md, 'Weekly');
    expect(found.find((e) => e.key === 'release update')?.salient ?? false).toBe(false);
    expect(found.find((e) => e.key === 'build cache')?.salient).toBe(true);
  });
});

describe('extractEntities: bold labels', () => {
  it('takes a bold label opening item after item for a field, a bold term opening its one definition for a name', () => {
    const items = ['打磨', '換噴嘴', '調溫度']
      .map((m, i) => `- ${m}\n    - **成功率：** ${60 + i}%（效果顯著）。\n    - **耗時：** ${i + 1} 小時。`)
      .join('\n');
    const labels = `${items}\n\n成功率只是估計。成功率會變。`;
    expect(names(labels)).not.toContain('成功率');
    const definition = '**消息队列：** 在服务之间传递消息的组件。\n\n消息队列很常见。消息队列需要监控。';
    expect(names(definition)).toContain('消息队列');
  });
});

describe('extractEntities: the labels of a layout', () => {
  // zh.GENERIC, en.GENERIC said in Chinese. Must not match: a label however often a heading gives it;
  // must match: a term beside it.
  it.each([
    [
      '## 示例项目\n\n下面的示例展示用法。\n\n**示例：**\n\n示例很短，每个示例都能运行。上下文焦虑会让模型提前收尾，上下文焦虑很常见。',
      '示例',
      '上下文焦虑',
    ],
    [
      '**摘要：**\n\n这篇摘要很短，摘要之后是正文，摘要也写结论。向量数据库存放向量，向量数据库很快。',
      '摘要',
      '向量数据库',
    ],
  ])('takes no label for a name (an everyday word, a mention at most): %s', (md, label, term) => {
    const found = extractEntities(md, 'Untitled');
    expect(found.filter((e) => !e.weak).map((e) => e.key)).not.toContain(label);
    expect(found.map((e) => e.key)).toContain(term);
  });
});

describe('extractEntities: a translation in parentheses', () => {
  it('pairs no piece of a Chinese name with a longer English one', () => {
    const md = [
      '长上下文存在一个问题：中间信息遗失（Lost in the Middle），模型忽略中间部分。',
      '上下文焦虑（context anxiety）让模型提前收尾。倒数排名融合（Reciprocal Rank Fusion，RRF）合并列表。',
    ].join('\n\n');
    const found = extractEntities(md, 'Untitled');
    expect(found.map((e) => e.key)).not.toContain('遗失');
    expect(found.find((e) => e.key === '上下文焦虑')?.aliases).toContain('context anxiety');
    expect(found.find((e) => e.key === '倒数排名融合')?.aliases).toContain('Reciprocal Rank Fusion');
  });

  // A word jieba's dictionary lacks is tagged like punctuation; right before a parenthesis it is the
  // new term the parenthesis glosses. Must match / must not match:
  const glossed: [string, string, string | undefined][] = [
    ['在 Git 里，这种操作叫做_变基（rebase）_。变基之后历史是一条直线。变基很常用。', '变基', 'rebase'],
    ['這種操作叫做衍合（rebase）。衍合之後歷史是一條直線。衍合很常用。', '衍合', 'rebase'],
    ['这里必须修复（error）。必须修复的问题很多，必须修复。', '必须修复', undefined],
    ['模式\t时长\n单次 (Solo)\t20 分钟\n批量 (Batch)\t6 小时\n这是单次运行。', '单次', undefined],
    // An abbreviation has a word a letter: the character in front is part of the name (单/文件/组件).
    ['Vite 支持 Vue 单文件组件（SFC）。单文件组件很常用，单文件组件有模板。', '单文件组件', 'SFC'],
    // …and an attribute it spells (大型/语言/模型, LLM), but no verb of the sentence (採用/版本/控制系統, VCS).
    ['你的本地大型語言模型（LLM）很慢。大型語言模型很大，大型語言模型很貴。', '大型语言模型', 'LLM'],
    ['採用版本控制系統 (VCS) 是明智的。版本控制系統很好，版本控制系統很多。', '版本控制系统', 'VCS'],
    ['採用版本控制系統 (VCS) 是明智的。版本控制系統很好，版本控制系統很多。', '采用版本控制系统', undefined],
    // A verb the text keeps using, glossed by one English word, names what it does…
    ['當 Git 歸併(merge)時，它會檢查需要歸併的內容。歸併的策略有很多。', '归并', 'merge'],
    // …not after an adverb, a conjunction or a verb (the sentence's verb), nor used once.
    ['这里必须修复（error）。必须修复的问题很多，必须修复。', '修复', undefined],
    ['改完以后需要推送（push），推送之前先拉取，推送很快。', '推送', undefined],
    ['當 Git 歸併(merge)時，它會檢查內容。', '归并', undefined],
  ];
  it('pairs nothing inside inline code or on it', () => {
    const md = [
      '當你執行 `git branch (分支名稱)` 這條命令時，Git 建立分支。分支名稱可以改，分支名稱要短。',
      '某些大專案還會有個 `proposed`（建議）分支。proposed 分支很少用。',
    ].join('\n\n');
    const found = extractEntities(md, 'Untitled');
    expect(found.flatMap((e) => [e.surface, ...e.aliases])).not.toContain('git branch');
    expect(found.find((e) => e.key === 'proposed')?.aliases ?? []).not.toContain('建議');
    // The same words as prose are a gloss.
    const prose = extractEntities(md.replaceAll('`', ''), 'Untitled');
    expect(prose.flatMap((e) => [e.surface, ...e.aliases])).toContain('git branch');
  });

  it('takes no code in parentheses for a translation of the words before it', () => {
    const md = '它在設定檔中增加了一節，指定了遠端的名稱 (`origin`)。遠端的名稱可以改，遠端的名稱也可以刪。';
    const found = extractEntities(md, 'Untitled');
    expect(found.flatMap((e) => e.aliases)).not.toContain('origin');
    const plain = extractEntities(md.replace('(`origin`)', '(origin)'), 'Untitled');
    expect(plain.flatMap((e) => e.aliases)).toContain('origin');
  });

  it.each([
    ['如果两个分支改了同一行，Git 就无法合并。这种问题叫做合并冲突。遇到冲突时 Git 会停下。', '合并冲突'],
    ['这个过程称为三方合并，它用到三个快照。', '三方合并'],
    ['Git 把這個區域稱為暫存區域。', '暂存区域'],
  ])('takes the term a Chinese text names after 叫做/称为: %s', (md, key) => {
    const found = extractEntities(md, 'Untitled').find((e) => e.key === key);
    expect(found).toBeDefined();
    expect(found!.weak).toBeFalsy();
  });

  it.each([
    ['这门语言被称为世界上最快的语言。', '世界上最快的语言'],
    ['修改过的文件稱為被修改。', '被修改'],
    ['他们称为了方便起见而保留，这个名字。', '了方便起见而保留'],
  ])('takes no clause after 叫做/称为 for a term: %s', (md, phrase) => {
    expect(extractEntities(md, 'Untitled').map((e) => e.surface)).not.toContain(phrase);
  });

  it('takes no host name in parentheses for a translation of the words before it', () => {
    const md = '可以连到中继服务器（irc.freenode.net）求助。中继服务器上总有人在，中继服务器也很稳。';
    expect(extractEntities(md, 'Untitled').flatMap((e) => e.aliases)).not.toContain('irc.freenode.net');
    const named = extractEntities(md.replace('irc.freenode.net', 'relay server'), 'Untitled');
    expect(named.flatMap((e) => e.aliases)).toContain('relay server');
  });

  it.each(glossed)('reads a word the dictionary lacks before a gloss as the glossed term: %s', (md, key, alias) => {
    const found = extractEntities(md, 'Untitled').find((e) => e.key === key);
    if (alias) expect(found?.aliases).toContain(alias);
    else expect(found?.aliases ?? []).toEqual([]);
  });
});

describe('extractEntities: what a page quotes', () => {
  it('quotes sentences about a name, never a line of code that contains it', () => {
    const md = [
      'git checkout -b sentinel/rag-definition-20260409',
      'version: number; // 条目版本号，每次 Sentinel 递增',
      '多个 Agent 可能同时执行 Sentinel 操作，冲突可以回滚。',
      '如果 Sentinel 引入错误，git revert 一键恢复。',
    ].join('\n\n');
    const sentinel = extractEntities(md, 'Untitled').find((e) => e.key === 'sentinel');
    expect(sentinel?.snippets.length).toBeGreaterThan(0);
    for (const s of sentinel?.snippets ?? []) expect(s).not.toMatch(/git checkout|\/\//);
  });
});

describe('extractEntities: names the layout stresses', () => {
  const filler = (n: number) =>
    Array.from(
      { length: n },
      (_, i) => `第${i + 1}段说明模型如何读取原始资料并写出条目，每一步都留下记录，方便以后回头检查。`,
    );

  it('takes the term a heading names after its topic when a section on it follows, not a bare heading', () => {
    const md = [
      '数据流架构：从 raw/ 到 wiki/ 的编译管线',
      '',
      ...filler(12),
      '',
      '迭代框架',
      '',
      ...filler(12),
      '',
      '第一步：导入数据',
      '',
      ...filler(12),
    ].join('\n');
    const found = extractEntities(md, 'Untitled');
    const pipeline = found.find((e) => e.surface === '编译管线');
    expect(pipeline?.salient).toBe(true);
    expect(pipeline?.count).toBeGreaterThanOrEqual(3);
    const all = found.map((e) => e.surface);
    for (const noise of ['迭代框架', '导入数据']) expect(all).not.toContain(noise);
  });

  it('takes a type defined in code whose fields the prose discusses, quoting the prose', () => {
    const code = [
      '编译条目的标准 Schema 定义：',
      '',
      'interface WikiEntry {',
      ' id: string;',
      ' source_ref: string[]; // 原始文件路径',
      ' last_heal_timestamp: number;',
      '}',
      '',
    ];
    const discussed = [
      ...code,
      '可追溯性：通过 source_ref 回到原始资料。',
      '可维护性：通过 last_heal_timestamp 追踪新鲜度。',
    ];
    const entry = extractEntities(discussed.join('\n'), 'Untitled').find((e) => e.surface === 'WikiEntry');
    expect(entry?.salient).toBe(true);
    expect(entry?.count).toBeGreaterThanOrEqual(3);
    expect(entry?.snippets.join('\n')).toContain('source_ref');
    // Defined but never discussed: a code sample, no concept.
    const names = extractEntities([...code, '这里只是一个例子。'].join('\n'), 'Untitled').map((e) => e.surface);
    expect(names).not.toContain('WikiEntry');
  });
});

describe('extractEntities: a translation of the work itself', () => {
  it('keeps the English name a text gives for its own title, and reads a stop-list noun inside a term', () => {
    const md = '卡片盒笔记法（Zettelkasten）来自德语。卢曼用卡片盒写了很多书，卡片盒笔记法也因此出名。';
    const found = extractEntities(md, '卡片盒笔记法');
    expect(found.find((e) => e.surface === 'Zettelkasten')?.salient).toBe(true);
    const other = extractEntities(md, 'Untitled').find((e) => e.surface === '卡片盒笔记法');
    expect(other?.aliases).toContain('Zettelkasten');
  });

  it('reads a place word into a Chinese name the English one shows is longer', () => {
    const md = '长上下文有一个问题：中间信息遗失（Lost in the Middle）。我们的前端设计（frontend design）很好。';
    const found = extractEntities(md, 'Untitled');
    expect(found.find((e) => e.surface === '中间信息遗失')?.aliases).toContain('Lost in the Middle');
    expect(found.find((e) => e.surface === '前端设计')?.aliases).toContain('frontend design');
  });
});

describe('extractEntities: tables', () => {
  it('takes no translation pair from a table header: column labels are no names', () => {
    const md = [
      '完整支架（Full harness）比单独运行贵得多。',
      '',
      '| 支架类型 (Harness) | 持续时间 (Duration) | 成本 (Cost) |',
      '|---|---|---|',
      '| 单独运行 (Solo) | 20分钟 | $9 |',
      '| 规划器 (Planner) | 6小时 | $200 |',
      '',
      'The harness runs for hours. A harness keeps the planner on track. Harness design matters.',
    ].join('\n');
    const found = extractEntities(md, 'x');
    const all = found.flatMap((e) => [e.surface, ...e.aliases]);
    expect(all).not.toContain('支架类型');
    expect(all).not.toContain('持续时间');
    // A row of the table body still pairs its names.
    expect(found.find((e) => e.surface === '规划器')?.aliases).toContain('Planner');
  });
});

describe('extractEntities: English words in Chinese prose', () => {
  it('reads an everyday English word capitalised in Chinese prose as a loanword, a versioned one as a name', () => {
    const md = [
      '可以在 Prompt 中明确指示模型。当你面对一个空白的 Prompt 输入框时，Prompt 工程就开始了。',
      '现在大部分 Token 都不是用来写代码。Token 的成本在下降，Token 越来越便宜。',
      'Opus 4.5 在很大程度上消除了这种行为。我们换成了 Opus 4.6，Opus 4.6 更稳。',
    ].join('\n\n');
    const found = names(md);
    expect(found).not.toContain('Prompt');
    expect(found).not.toContain('Token');
    expect(found).toContain('Opus');
  });

  // A term of art a translator kept in lowercase English between Chinese words. Must match / must not match:
  const kept: [string, string, boolean][] = [
    ['Git 把对象打包至一个叫 packfile 的二进制文件。每个 packfile 都有索引。', 'packfile', true],
    ['运行 reflog 命令查看历史。reflog 记录了引用的变化。', 'reflog', true],
    ['然后 commit 一下。再 commit 一次就好。', 'commit', false],
    ['打开 src/main.rs 文件。再看 src/main.rs 的内容。', 'src', false],
    ['输入 git status --short 查看。再输入 git status --short 一次。', 'short', false],
  ];
  it.each(kept)('reads a lowercase English term kept between Chinese words as a name: %s', (md, key, found) => {
    expect(keys(md).includes(key)).toBe(found);
  });

  // A lowercase English word a translator kept before a Chinese noun: one name in two scripts. Must match / must not match:
  const twoScripts: [string, string, boolean][] = [
    ['接下來看 tree 物件。每個 tree 物件指向檔案，tree 物件也指向子目錄。', 'tree 物件', true],
    ['提交时 Git 创建 commit 对象。commit 对象指向树。每个 commit 对象都有作者。', 'commit 对象', true],
    ['打开 src/main.rs 文件。再看 src/main.rs 文件。', 'rs 文件', false],
    ['The tree object 物件 here is English prose. The tree object 物件 again.', 'object 物件', false],
  ];
  it.each(twoScripts)('reads an English word and the Chinese noun after it as one name: %s', (md, key, found) => {
    expect(keys(md).includes(key)).toBe(found);
  });

  // Two words a text keeps together though jieba cuts them. Must match / must not match:
  const bound: [string, string, boolean][] = [
    ['状态变了，组件会重新渲染。每次重新渲染都调用函数。重新渲染很快。', '重新渲染', true],
    ['我们可以使用它。可以使用这个。可以看到结果，也可以使用那个。', '可以使用', false],
    ['先上传数据。上传数据要等。上传数据之后再看。', '上传数据', false],
    ['组件会重新渲染一次。然后重新开始。再重新计算。', '重新渲染', false],
  ];
  it.each(bound)('reads two words the text keeps together as one term: %s', (md, key, found) => {
    expect(keys(md).includes(key)).toBe(found);
  });

  // A capitalised name and a Chinese noun: that name's kind of thing, unless a section is titled by it. Must match / must not match:
  const titledByIt: [string, string, boolean][] = [
    ['## Cache 对象\n\n对象很多。每个 Cache 对象有键。Cache 对象会过期。对象要释放。', 'cache 对象', true],
    ['## 用法\n\n对象很多。每个 Cache 对象有键。Cache 对象会过期。对象要释放。', 'cache 对象', false],
    ['## 安装\n\n系统很多。在 Linux 系统上安装。Linux 系统也可以。系统要更新。', 'linux 系统', false],
  ];
  it.each(titledByIt)('reads a capitalised name and a noun as a name where a heading says so: %s', (md, key, found) => {
    expect(keys(md).includes(key)).toBe(found);
  });

  it('takes an English name opening a glossary line with its Chinese gloss, whatever the gloss is', () => {
    const md = [
      'Lint（扫描检测）\t定期启动 Agent 遍历整个 Markdown 库，识别条目间的不一致性。',
      'Heal（自我修复）\t当检测到信息缺失或冲突时，自动补齐数据并重写条目。',
      '',
      '多个 Agent 可能同时执行 Heal 操作。',
    ].join('\n');
    const found = extractEntities(md, 'x');
    expect(found.find((e) => e.surface === 'Heal')?.aliases).toContain('自我修复');
    expect(found.find((e) => e.surface === 'Lint')?.aliases).toContain('扫描检测');
  });
});

describe('extractEntities: everyday words and counts', () => {
  it('takes no everyday Chinese word (a metaphor in a heading) unless the text gives it a translation', () => {
    const md = [
      'AI新世界的入场券，不是代码能力，而是好奇心。',
      '',
      '新世界的入场券',
      '',
      '我们正快速进入一个新世界。那么，新世界的入场券到底是什么？新世界里，拼的是脑子里的想法。',
      '',
      '解决办法是冲刺（sprint）：生成器在冲刺中一次做一个功能。每个冲刺结束时评估器打分。',
    ].join('\n');
    const found = names(md);
    expect(found).not.toContain('新世界');
    expect(found).not.toContain('入场券');
    expect(found).toContain('冲刺');
  });

  it('counts a mention of an abbreviation once when it joins the name it was given for', () => {
    const md = '大模型 = 中央处理器（CPU）：按需读取，计算推理，写回结果。';
    const cpu = extractEntities(md, 'x').find((e) => e.surface === '中央处理器');
    expect(cpu?.count).toBe(2);
  });
});

describe('extractEntities: the name before a translation', () => {
  it('leaves the verb before a Chinese name out of it, and keeps the verbs of a name', () => {
    const md = [
      '向量检索和关键词检索结合起来，叫做混合检索（hybrid search）。',
      '把向量写入向量数据库（vector database），同时写入倒排索引。',
      '为每篇来源写一页，并用维基链接（wikilink）把它们连起来。',
      '这篇论文受到生成对抗网络（Generative Adversarial Networks）的启发。',
      '混合检索更稳。向量数据库很快。维基链接和反向链接（backlinks）是卢曼手写编号的数字版。每个链接都有方向。',
      '反向链接让链接变成网，链接越多越好。',
    ].join('\n\n');
    const found = extractEntities(md, 'x');
    const all = found.flatMap((e) => [e.surface, ...e.aliases]);
    for (const bad of ['叫做混合检索', '向量写入向量数据库', '并用维基链接', '对抗网络'])
      expect(all).not.toContain(bad);
    expect(found.find((e) => e.surface === '混合检索')?.aliases).toContain('hybrid search');
    expect(found.find((e) => e.surface === '向量数据库')?.aliases).toContain('vector database');
    expect(found.find((e) => e.surface === '维基链接')?.aliases).toContain('wikilink');
    expect(found.find((e) => e.surface === '生成对抗网络')?.aliases).toContain('Generative Adversarial Networks');
    expect(found.find((e) => e.surface === '反向链接')?.aliases).toContain('backlinks');
  });
});

describe('extractEntities: a section heading of everyday words', () => {
  it('is not a stressed name, where a heading naming a term is', () => {
    const md = [
      '架构设计',
      '',
      '这一节讲整体结构。AI不擅长架构设计和复杂逻辑，所以架构设计文档由人来写。',
      '',
      '关卡编辑器',
      '',
      '关卡编辑器用来摆放图块。关卡编辑器支持撤销。',
    ].join('\n');
    const found = extractEntities(md, 'x');
    expect(found.find((e) => e.surface === '架构设计')?.salient).toBe(false);
    expect(found.find((e) => e.surface === '关卡编辑器')?.salient).toBe(true);
  });
});

describe('extractEntities: an everyday word that heads several sections', () => {
  /** A section of `n` sentences, each naming one of `words` once, in turn. */
  const section = (heading: string, words: string, n: number) => {
    const w = words.split(' ');
    const said = Array.from({ length: n }, (_, i) => `Part ${i + 1} is about ${w[i % w.length]} and nothing else.`);
    return `## ${heading}\n\n${said.join(' ')}\n\n`;
  };
  const strong = (md: string) =>
    extractEntities(md, 'Untitled')
      .filter((e) => !e.weak)
      .map((e) => e.key);
  const rows: { why: string; md: string; must?: string; mustNot?: string }[] = [
    {
      why: 'two headings in two forms, sections that keep using it: a subject (merge of "Merging")',
      md: section('Basic Branching and Merging', 'merging merge', 9) + section('Basic Merging', 'merging merges', 8),
      must: 'merge',
    },
    {
      why: 'the form its sections write decides the base: staging is stage, not stag',
      md: section('Staging', 'staging stage', 8) + section('Staging Again', 'staging staged', 8),
      must: 'stage',
    },
    {
      why: 'a plural heading and a singular one count together',
      md: section('Tags', 'tags tag', 8) + section('Sharing a Tag', 'tag tags', 8),
      must: 'tag',
    },
    {
      why: 'one heading of an everyday word labels a step, however long its section',
      md: section('Merging', 'merging merge', 20),
      mustNot: 'merge',
    },
    {
      why: 'two headings whose sections seldom name it: a word of a repeated layout',
      md:
        section('Call for Participation; projects and speakers', 'projects', 4) +
        section('CFP - Projects', 'projects', 3),
      mustNot: 'project',
    },
    {
      why: 'a word for a part of a text heading two sections is a label',
      md: section('Examples of loops', 'examples', 9) + section('More examples', 'examples', 9),
      mustNot: 'example',
    },
  ];
  for (const r of rows)
    it(r.why, () => {
      if (r.must) expect(strong(r.md)).toContain(r.must);
      if (r.mustNot) expect(strong(r.md)).not.toContain(r.mustNot);
    });
});

describe('extractEntities: English names and their short forms', () => {
  it('keeps a capitalised stop-list word that opens a name inside a sentence', () => {
    const md =
      'He moved to New York in 1990 and stayed in New York. As a Time Lord, the Doctor can regenerate; another Time Lord is the Master.';
    const found = names(md);
    expect(found).toEqual(expect.arrayContaining(['New York', 'Time Lord']));
    expect(found).not.toContain('York');
    expect(found).not.toContain('Lord');
  });

  it('counts a common word written as a name for the one longer name ending in it, and drops it beside two', () => {
    const one = 'The European Parliament votes on laws. Parliament can amend a proposal, and Parliament can veto it.';
    expect(names(one)).toContain('European Parliament');
    expect(names(one)).not.toContain('Parliament');
    const two =
      'The European Parliament and the Scottish Parliament differ. Parliament sits in Edinburgh; Parliament also sits in Brussels.';
    expect(names(two)).not.toContain('Parliament');
    // A place is no short form of the places named after it.
    const place = 'Western Australia is large. Iron ore comes from Australia, and coal comes from Australia too.';
    expect(names(place)).toContain('Australia');
  });

  it("takes no second subject from the work's own title", () => {
    const of = (md: string, title: string) => extractEntities(md, title).map((e) => e.surface);
    expect(of('The Indian War ended in 1763. The Indian War changed the map.', 'French and Indian War')).not.toContain(
      'Indian War',
    );
    expect(
      of('Victoria is a state. Victoria has a coast. Victoria grows wheat.', 'Victoria (Australia)'),
    ).not.toContain('Victoria');
    expect(of('Fresno lies in a valley. Fresno grows. Fresno is hot.', 'Fresno, California')).not.toContain('Fresno');
    expect(of('Luther wrote theses. Luther was a monk.', 'Martin Luther')).not.toContain('Luther');
    // What the title qualifies is another thing.
    const eu = of('The European Union has courts. The European Union makes law.', 'European Union law');
    expect(eu).toContain('European Union');
  });

  it("takes the work's subject from its title, even where it ends the title, and a section's from its heading", () => {
    const found = extractEntities(
      'The race detector finds data races. Run the race detector in tests. The race detector slows a program.',
      'Introducing the Go Race Detector',
    );
    expect(found.find((e) => e.key === 'race detector')?.subject).toBe(true);
    const md = [
      '# Git Branching',
      '',
      '## Rebasing',
      '',
      'Rebasing replays commits on top of another branch. After rebasing, the history is a straight line. Rebasing rewrites the commits it moves.',
      '',
      '## Status',
      '',
      'The status shows what changed since the last commit. Check the status often. The status is short and easy to read.',
    ].join('\n');
    const names = extractEntities(md, 'Git Branching').map((e) => e.surface);
    expect(names).toContain('Rebasing');
    expect(names).not.toContain('Status');
  });
});

describe('extractEntities: Taiwan Chinese', () => {
  it('judges everyday words as Mainland Chinese writes them (程式碼 is 代码, 意味著 is 意味着)', () => {
    const md = [
      '程式碼審查之前，先讀程式碼。程式碼要有測試，程式碼也要有文件。',
      '這意味著每次改動都要跑測試，也意味著知識庫要重新編譯。',
      '知識庫是筆記的中心。知識庫由模型維護。',
    ].join('\n\n');
    const found = names(md);
    expect(found).not.toContain('程式碼');
    expect(found).not.toContain('意味著');
    expect(found).toContain('知識庫');
  });
});

describe('extractEntities: everyday words kept as weak names', () => {
  const weak = (md: string) =>
    extractEntities(md, 'Untitled')
      .filter((e) => e.weak)
      .map((e) => e.surface);

  it('keeps the everyday words a text keeps using, Chinese nouns and verbs and English ones, as weak names', () => {
    const zh = '每次提交都会生成一个快照。提交之前先暂存。提交以后，快照就保存了。再次提交时，快照会更新。';
    expect(weak(zh)).toEqual(expect.arrayContaining(['提交', '快照']));
    const en = 'Every commit records a snapshot. You commit often. A commit is cheap, and each commit has a parent.';
    expect(weak(en)).toContain('commit');
  });

  it('keeps at most twenty English everyday words, and more Chinese ones in a long Chinese text (协议, 冲突, 补丁 …)', () => {
    const en =
      'table chair window door house garden river mountain forest city street road train plane ship book paper pencil letter bottle glass plate spoon knife fork bread water apple horse cloud'.split(
        ' ',
      );
    expect(weak(en.map((w) => `The ${w} is here. I saw the ${w}. A ${w} again.`).join('\n\n'))).toHaveLength(20);
    const zh =
      '文件 命令 仓库 标签 分支 目录 选项 项目 版本 状态 协议 公钥 冲突 补丁 密码 用户 数据 网络 程序 代码 问题 方法 工具 环境 历史 图片 颜色 声音 城市 河流'.split(
        ' ',
      );
    const uses = zh.map((w) => `我们看${w}。这是${w}。还有${w}。`).join('\n\n');
    // A note keeps twenty; a chapter of ten thousand characters, one for each 250 up to forty.
    expect(weak(uses)).toHaveLength(20);
    const kept = weak(`${uses}\n\n${'的了'.repeat(5000)}`);
    expect(kept.length).toBeGreaterThan(20);
    expect(kept).toEqual(expect.arrayContaining(['协议', '冲突', '补丁']));
  });

  it('keeps no word used fewer than three times, no stop word and no name the text already has', () => {
    expect(weak('提交之前先暂存。提交以后就好了。')).toEqual([]);
    expect(weak('This is what it is. This is it. It is this.')).toEqual([]);
    const md =
      'The Vector Database stores vectors. A Vector Database indexes vectors. Query the Vector Database for vectors.';
    expect(weak(md)).not.toContain('Vector Database');
  });
});

describe('extractEntities: a phrase inside a longer one', () => {
  const names = (md: string) => extractEntities(md, 'Notes').map((e) => e.surface);

  it('keeps a phrase the text also uses on its own ("knowledge base" beside "personal knowledge base")', () => {
    const md = [
      'A personal knowledge base is small by web standards.',
      'Every personal knowledge base grows by notes.',
      'The model answers from the knowledge base alone.',
      'Retrieval finds the passages in the knowledge base quickly.',
    ].join('\n\n');
    expect(names(md)).toEqual(expect.arrayContaining(['personal knowledge base', 'knowledge base']));
  });

  it('drops one that only ever stands inside the longer one', () => {
    const md = [
      'A personal knowledge base is small by web standards.',
      'Every personal knowledge base grows by notes.',
    ].join('\n\n');
    expect(names(md)).toContain('personal knowledge base');
    expect(names(md)).not.toContain('knowledge base');
  });
});

describe('extractEntities: qualifiers and particles', () => {
  it('takes no participle that qualifies for part of a name, and no Chinese phrase joined by a particle', () => {
    const en = extractEntities(
      'Open an existing project. The existing project has files. Every existing project keeps history. Remove unused dependencies, unused dependencies cost time.',
      'x',
    ).map((e) => e.key);
    expect(en).not.toContain('existing project');
    expect(en).not.toContain('unused dependency');
    const zh = extractEntities('远端的名称很重要。远端的名称可以修改。端的名称。', 'x').map((e) => e.surface);
    expect(zh.filter((n) => n.includes('的'))).toEqual([]);
  });
});

describe('extractEntities: a term of art of one word', () => {
  it('takes a lowercase noun no general dictionary holds when the text repeats it, never an everyday one', () => {
    const found = extractEntities(
      'Each goroutine runs on its own stack. A goroutine is cheap. The browser opens a file. The browser shows the file.',
      'x',
    ).map((e) => e.key);
    expect(found).toContain('goroutine');
    expect(found).not.toContain('browser');
    expect(found).not.toContain('file');
  });
});

describe('extractEntities: mentions of people', () => {
  it('takes no account named with @ for a concept, even in bold', () => {
    const md =
      'Triage done by **@Vortigern** with help from **@quillmarsh**.\n\nThe **borrow checker** rejects it. The borrow checker is strict.\n';
    const found = names(md);
    expect(found).not.toContain('Vortigern');
    expect(found).not.toContain('quillmarsh');
    expect(found).toContain('borrow checker');
  });
});

describe('extractEntities: strings shown on screen', () => {
  it('takes no string a text says is shown or printed for a name, but keeps a term it marks', () => {
    const md =
      '当灯是绿色的并显示「Walk」时，点击按钮应显示「Stop」。程序会输出「Done」。\n\n我们把这种做法称为「上下文重置」。「上下文重置」让模型从干净的状态开始，上下文重置很常见。\n';
    const found = names(md);
    for (const ui of ['Walk', 'Stop', 'Done']) expect(found).not.toContain(ui);
    expect(found).toContain('上下文重置');
  });
});

describe('extractEntities: section headings', () => {
  it('takes no participle a heading ends with for what its section is about', () => {
    const para = (w: string) =>
      `The value is ${w} here. A ${w} value is kept. Values ${w} once stay ${w} until the inputs change, so ${w} results are reused.`;
    const md = `# Caching\n\nIntro.\n\n## Expensive calculations also get memoized\n\n${para('memoized')}\n\n## The seedbank\n\nThe seedbank keeps seeds. A seedbank is cold. Every seedbank has a catalogue, and the seedbank lends them.\n`;
    const found = names(md);
    expect(found).not.toContain('memoized');
    expect(found.map((n) => n.toLowerCase())).toContain('seedbank');
  });
});

describe('extractEntities: fields of a repeated layout', () => {
  it('does not stress a bold label that opens line after line with a value after it', () => {
    const md =
      '# Type\n\nA type is a set of values.\n\n**equiv** _[[set#empty set]]_\n\nThe empty type.\n\n**equiv** _[[set#singleton set]]_\n\nThe unit type.\n\n**equiv** _[[set#subset]]_\n\n**Sigma notation** writes a sum of many terms. Sigma notation is short.\n';
    const found = extractEntities(md, 'Type');
    expect(found.find((e) => e.key === 'equiv')?.salient ?? false).toBe(false);
    expect(found.find((e) => e.key === 'sigma notation')?.salient).toBe(true);
  });
});

describe('extractEntities: a term a sentence names in italics', () => {
  const text = [
    '### How pages leave memory',
    '',
    'This kind of eviction, which frees the pages the readers touched least recently',
    'while the disk is idle, is called _background page cache',
    'eviction_.',
    '',
    'Background page cache eviction only works for pages that no reader holds at the moment of',
    'the sweep. Background page cache eviction runs first. Background page cache eviction is cheap.',
    '',
    'The compiler is _really_ fast, and the result is _usually_ right.',
  ].join('\n');

  it('takes the italic term after "is called", wrapped over two lines, as one stressed name', () => {
    const found = extractEntities(text, 'A Storage Engine Tour');
    expect(found.find((e) => e.key === 'background page cache eviction')?.salient).toBe(true);
  });

  it('takes no word the text only stresses in italics', () => {
    const keys = extractEntities(text, 'A Storage Engine Tour').map((e) => e.key);
    expect(keys).not.toContain('really');
    expect(keys).not.toContain('usually');
  });
});

describe('extractEntities: a term a sentence says it names', () => {
  const stressed = (md: string, key: string) =>
    extractEntities(md, 'A Tour of the Tool').find((e) => e.key === key)?.salient ?? false;
  // Must match / must not match: the cue, then the term in italics or in lowercase quotes.
  const named: [string, string, boolean][] = [
    [
      'Giving the type to the function is called _binding_. The binding happens once. A binding fails.',
      'binding',
      true,
    ],
    [
      'These low-level verbs are referred to as "wiring" commands. The wiring commands are simple. Wiring is old.',
      'wiring',
      true,
    ],
    ['Press the button called "Save" to keep it. Save often. Save the file.', 'save', false],
    ['The compiler is _really_ fast. It is really fast. It is really small.', 'really', false],
  ];
  it.each(named)('stresses the named term of %j', (md, key, found) => {
    expect(stressed(md, key)).toBe(found);
  });
});

describe('extractEntities: a term linked to an encyclopedia article', () => {
  const stressed = (md: string, key: string) =>
    extractEntities(md, 'Introducing the tool').find((e) => e.key === key)?.salient ?? false;

  it.each([
    [
      '[Dead letter queues](https://en.wikipedia.org/wiki/Dead_letter_queue) keep failed messages. Dead letter queues fill up. A dead letter queue is read later.',
      'dead letter queue',
    ],
    ['[卡片盒笔记法](https://zh.wikipedia.org/wiki/卡片盒)是一种方法。卡片盒笔记法很简单。', '卡片盒笔记法'],
  ])('stresses the linked term of %j', (md, key) => {
    expect(stressed(md, key)).toBe(true);
  });

  it('does not stress a name linked to any other page', () => {
    const md =
      '[Lisp Harbour](https://www.meetup.com/lisp-harbour/) meets monthly. Lisp Harbour has talks. Lisp Harbour is fun.';
    expect(stressed(md, 'lisp harbour')).toBe(false);
  });
});

describe('orHeading: a heading for a name no sentence names', () => {
  const heads = [
    '卡帕西的知识库方法',
    '- 编译管线 一项',
    '数据流架构：从 raw/ 到 wiki/ 的编译管线',
    '编译管线的三个阶段',
  ];
  it('keeps the first heading that names it with words of its own, marked as a heading', () => {
    expect(orHeading([], heads, ['编译管线'])).toEqual([`${HEADING_SNIPPET}数据流架构：从 raw/ 到 wiki/ 的编译管线`]);
  });
  it('keeps the sentences when there are any, and nothing when no heading names it or names only it', () => {
    expect(orHeading(['编译管线把 raw/ 变成 wiki/。'], heads, ['编译管线'])).toEqual(['编译管线把 raw/ 变成 wiki/。']);
    expect(orHeading([], heads, ['向量检索'])).toEqual([]);
    expect(orHeading([], ['编译管线'], ['编译管线'])).toEqual([]);
    // A short list item between blank lines, or a line that ends a sentence, is no heading.
    expect(
      orHeading(
        [],
        ['- 编译管线 一项', 'The compile pipeline runs nightly. It resumes.'],
        ['编译管线', 'compile pipeline'],
      ),
    ).toEqual([]);
  });
});

describe('stripMarkdown: markup that is no text', () => {
  it('drops container fences and link reference definitions, keeps footnotes and reads reference links as their text', () => {
    const md = [
      ':::tip Note',
      'SSR runs the app on the server.',
      ':::',
      'Open a [`BrowserWindow`][browser-window] first.[^1]',
      '',
      '[browser-window]: ../api/browser-window.md',
      '[^1]: A footnote says something.',
    ].join('\n');
    const text = stripMarkdown(md);
    expect(text).not.toContain(':::');
    expect(text).not.toContain('../api/browser-window.md');
    expect(text).toContain('Open a BrowserWindow first.');
    expect(text).toContain('A footnote says something.');
    expect(text).toContain('SSR runs the app on the server.');
  });

  it.each([
    // Must match: a docs toolchain's directive on a line of its own.
    ['<<< ./deploy-github-pages.yaml#content [.github/workflows/deploy.yml]', ''],
    ['--8<-- "includes/abbreviations.md"', ''],
    ['.. literalinclude:: example.py', ''],
    ['{% include note.html content="x" %}', ''],
    ['{{< figure src="a.png" >}}', ''],
    // Must not match: text that holds the same marks.
    ['a <<< b shifts left', 'a <<< b shifts left'],
    ['.. and so on, the list went.', '.. and so on, the list went.'],
    ['Text {{< x >}} inline', 'Text {{< x >}} inline'],
  ])('drops a directive line of a docs toolchain, never text: %s', (line, text) => {
    expect(stripMarkdown(line)).toBe(text);
  });
});
