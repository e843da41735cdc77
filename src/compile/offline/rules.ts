/**
 * The rules that decide which names of a text are concept candidates, as a table: each names the
 * kind of text it is for, where it is implemented, and carries examples it must match and examples
 * alike that it must not. rules.test.ts runs every example through extractEntities, the way the lint
 * rules' examples run through lint: a rule whose examples stop holding fails the suite.
 *
 * A rule that takes decides that a name is found (or stressed); one that drops, that it is not.
 * `match` holds texts where the rule applies, `notMatch` texts alike where it must not, so that each
 * rule is bounded on both sides. The language data the rules read is in text/lang (en.ts, zh.ts).
 */
export interface RuleExample {
  text: string;
  /** The work's title (the title's own name is the source's, never a concept). */
  title?: string;
  /** The name, as a key (entityKey) or as written. */
  name: string;
}

export interface ConceptRule {
  id: string;
  does: 'take' | 'drop';
  /** What the rule decides about a name: that it is found at all, or that the text stresses it. */
  decides: 'found' | 'salient';
  docs: string;
  /** The function or word list that implements it. */
  where: string;
  match: RuleExample[];
  notMatch: RuleExample[];
}

/** A heading and twelve lines of a section that runs on about something (a Chinese text without headings marked). */
function headed(heading: string): string {
  const line = (i: number) => `第${i + 1}段说明模型如何读取原始资料并写出条目，每一步都留下记录，方便以后回头检查。`;
  return [heading, '', ...Array.from({ length: 12 }, (_, i) => line(i))].join('\n');
}

/** Sections of `n` sentences, each naming one of `words` once, in turn. */
function sections(...parts: [heading: string, words: string, n: number][]): string {
  return parts
    .map(([heading, words, n]) => {
      const w = words.split(' ');
      const said = Array.from({ length: n }, (_, i) => `Part ${i + 1} is about ${w[i % w.length]} and nothing else.`);
      return `## ${heading}\n\n${said.join(' ')}\n\n`;
    })
    .join('');
}

/** A short note that cites one work three times, between its own sentences. */
function cited(line: string): string {
  const said = [
    'I review my cards every morning.',
    'Cards I know come back less often.',
    'I write down what I forgot.',
  ];
  return `## Review\n\n${said.map((s) => `${s}\n\n${line}`).join('\n\n')}\n`;
}

export const CONCEPT_RULES: readonly ConceptRule[] = [
  {
    id: 'glossed-term',
    does: 'take',
    decides: 'found',
    docs: 'A Chinese term given with its English name or abbreviation in parentheses is a name, without the verb before it.',
    where: 'entities.ts pairedNames',
    match: [{ text: '这个系统借鉴了卷积神经网络（CNN）的结构。卷积神经网络在图像领域很常见。', name: '卷积神经网络' }],
    notMatch: [
      { text: '这个系统借鉴了卷积神经网络（CNN）的结构。卷积神经网络在图像领域很常见。', name: '借鉴了卷积神经网络' },
      { text: '这里需要确认（confirm）和可以跳过（skip）。需要确认的问题先做。', name: '需要确认' },
    ],
  },
  {
    id: 'numeral-opening',
    does: 'take',
    decides: 'found',
    docs: 'A numeral alone before a noun opens a term (三斜线指令); a count with its measure word does not.',
    where: 'zh-terms.ts numeralOpening',
    match: [{ text: '三斜线指令是早期的语法。三斜线指令用来声明依赖，三斜线指令很少用。', name: '三斜线指令' }],
    notMatch: [{ text: '三个指令很多，三个指令很长。两种方法，两种方法都行。', name: '三个指令' }],
  },
  {
    id: 'abbreviation-once',
    does: 'take',
    decides: 'found',
    docs: 'An abbreviation in capitals is a name even when written once; a two-letter one says too little alone.',
    where: 'entities.ts extractEntities (isAcronym)',
    match: [{ text: 'A vector database indexes embeddings with HNSW. The vector database is fast.', name: 'HNSW' }],
    notMatch: [{ text: 'A vector database indexes embeddings. An AI helps. The vector database is fast.', name: 'AI' }],
  },
  {
    id: 'noun-phrase',
    does: 'take',
    decides: 'found',
    docs: 'An English noun phrase the text repeats is a name; a verb after a noun ends the phrase.',
    where: 'en-terms.ts englishTerms',
    match: [
      {
        text: 'Memory leaks were a key problem. We found memory leaks between releases, and the profiler drops memory leaks from the report.',
        name: 'memory leak',
      },
    ],
    notMatch: [
      {
        text: 'Git stores its data as snapshots. Git stores the history too. Git stores every version of a file.',
        name: 'git store',
      },
    ],
  },
  {
    id: 'called-term',
    does: 'take',
    decides: 'found',
    docs: 'A term the text says it names ("is called _shadowing_") is one, however everyday its word.',
    where: 'entities.ts namedTerms',
    match: [
      {
        text: 'Declaring a new variable with the same name is called _shadowing_. The first variable is hidden.',
        name: 'shadowing',
      },
    ],
    notMatch: [
      {
        text: 'Declaring a new variable with the same name hides _shadowing_ effects. The first variable is hidden.',
        name: 'shadowing',
      },
    ],
  },
  {
    id: 'quoted-defined-term',
    does: 'take',
    decides: 'salient',
    docs: 'A term of two words or more set in quotes and defined by the clause right after it ("context rot," in which …) is one the text introduces; one word in quotes is an everyday word put to a use.',
    where: 'entities.ts namedTerms QUOTED_DEFINED (text/lang/en.ts QUOTE_DEFINING)',
    match: [
      {
        text: 'Long sessions go wrong in two ways. Some models show “context rot,” in which they forget early instructions as the window fills. We measured context rot in every long run, and context rot grew with the length of the task.',
        name: 'context rot',
      },
    ],
    notMatch: [
      {
        text: 'Long sessions go wrong in two ways. Some models show “context rot” in long runs. We measured context rot in every long run, and context rot grew with the length of the task.',
        name: 'context rot',
      },
      {
        text: 'The planner gets a “mode”, which means a set of rules it follows. Each mode names its tools, and the mode decides the order.',
        name: 'mode',
      },
    ],
  },
  {
    id: 'dash-defined-term',
    does: 'take',
    decides: 'salient',
    docs: "A term of two words or more that opens a sentence and is defined between dashes by a gerund's clause (Cold starts—loading the model first—…) is one the text introduces.",
    where: 'entities.ts namedTerms DASH_DEFINED',
    match: [
      {
        text: 'Agents lose the thread on long tasks. Context resets—clearing the window and starting a fresh agent—fix that. We used context resets in every run, and context resets kept the agent on task.',
        name: 'context resets',
      },
    ],
    notMatch: [
      {
        text: 'Agents lose the thread on long tasks. We added context resets—the fresh start helped. We used context resets in every run, and context resets kept the agent on task.',
        name: 'context resets',
      },
    ],
  },
  {
    id: 'heading-term',
    does: 'take',
    decides: 'found',
    docs: 'The term a Chinese heading ends in after its topic ("主题：术语") is named by the section that runs on about it; a bare heading is a step of the story.',
    where: 'stressed.ts headingTerms',
    match: [{ text: headed('部署架构：从提交到上线的发布管线'), name: '发布管线' }],
    notMatch: [{ text: headed('发布管线'), name: '发布管线' }],
  },
  {
    id: 'glossed-verb',
    does: 'take',
    decides: 'found',
    docs: 'A Chinese verb the text keeps using, glossed by one English word (歸併(merge)), names what it does; not after an adverb, a conjunction or a verb, nor used once.',
    where: 'entities.ts glossedVerb',
    match: [{ text: '當 Git 歸併(merge)時，它會檢查需要歸併的內容。歸併的策略有很多。', name: '归并' }],
    notMatch: [
      { text: '改完以后需要推送（push），推送之前先拉取，推送很快。', name: '推送' },
      { text: '當 Git 歸併(merge)時，它會檢查內容。', name: '归并' },
    ],
  },
  {
    id: 'abbreviation-letters',
    does: 'take',
    decides: 'found',
    docs: 'A Chinese name glossed by an abbreviation keeps a word for each letter (单文件组件 SFC, 大型語言模型 LLM), never the verb before it (採用 of 採用版本控制系統 VCS).',
    where: 'entities.ts abbreviationLetters',
    match: [
      { text: 'Vite 支持 Vue 单文件组件（SFC）。单文件组件很常用，单文件组件有模板。', name: '单文件组件' },
      { text: '你的本地大型語言模型（LLM）很慢。大型語言模型很大，大型語言模型很貴。', name: '大型语言模型' },
    ],
    notMatch: [
      { text: '採用版本控制系統 (VCS) 是明智的。版本控制系統很好，版本控制系統很多。', name: '采用版本控制系统' },
    ],
  },
  {
    id: 'called-zh',
    does: 'take',
    decides: 'found',
    docs: 'The term a Chinese text names after 叫做/称为 (ZH.CALLED) is one; a clause after it (被修改) is not.',
    where: 'entities.ts calledZh',
    match: [
      {
        text: '如果两个分支改了同一行，Git 就无法合并。这种问题叫做合并冲突。遇到冲突时 Git 会停下。',
        name: '合并冲突',
      },
      { text: '这个过程称为三方合并，它用到三个快照。', name: '三方合并' },
    ],
    notMatch: [{ text: '修改过的文件稱為被修改。', name: '被修改' }],
  },
  {
    id: 'everyday-chinese',
    does: 'drop',
    decides: 'found',
    docs: 'A word of everyday Chinese (通行证: a metaphor in a heading) is no concept unless the text gives it a translation (冲刺（sprint）).',
    where: 'entities.ts finish (isCommonZh, isEverydayWord)',
    match: [
      {
        text: '旧城改造的通行证，不是资金，而是耐心。\n\n旧城改造的通行证\n\n我们正进入一个旧城改造的时代。那么，旧城改造的通行证到底是什么？旧城里，拼的是耐心。',
        name: '通行证',
      },
    ],
    notMatch: [
      {
        text: '团队的办法是冲刺（sprint）：开发者在冲刺中一次做一个功能。每个冲刺结束时大家复盘。',
        name: '冲刺',
      },
    ],
  },
  {
    id: 'everyday-heading-zh',
    does: 'drop',
    decides: 'salient',
    docs: 'A Chinese heading of everyday words (系统设计) names a section, not a term the text stresses; a heading naming a term (任务调度器) does.',
    where: 'entities.ts finish (isCommonCompound, isSectionLabel)',
    match: [
      {
        text: '系统设计\n\n这一节讲整体结构。新人不擅长系统设计和复杂逻辑，所以系统设计文档由资深成员来写。\n\n任务调度器\n\n任务调度器用来安排作业。任务调度器支持重试。',
        name: '系统设计',
      },
    ],
    notMatch: [
      {
        text: '系统设计\n\n这一节讲整体结构。新人不擅长系统设计和复杂逻辑，所以系统设计文档由资深成员来写。\n\n任务调度器\n\n任务调度器用来安排作业。任务调度器支持重试。',
        name: '任务调度器',
      },
    ],
  },
  {
    id: 'recurring-heading-word',
    does: 'take',
    decides: 'found',
    docs: 'An everyday word that heads several sections, each of which keeps naming it, is what the work is about (merge of "Basic Branching and Merging", "Basic Merging"); one heading of it labels a step.',
    where: 'entities.ts sectionSubjects',
    match: [
      {
        text: sections(['Basic Branching and Merging', 'merging merge', 9], ['Basic Merging', 'merging merges', 8]),
        name: 'merge',
      },
      {
        // Named by its base form, which a dictionary holds: canvas, not canva.
        text: sections(['Create a canvas', 'canvas canvases', 9], ['Navigate the canvas', 'canvas', 8]),
        name: 'canvas',
      },
    ],
    notMatch: [{ text: sections(['Merging', 'merging merge', 20]), name: 'merge' }],
  },
  {
    id: 'code-in-parentheses',
    does: 'drop',
    decides: 'found',
    docs: 'Code in parentheses is a value the text gives (遠端的名稱 (`origin`)), not a translation of the words before it.',
    where: 'entities.ts CODE_IN_PARENS',
    match: [
      {
        text: '它在設定檔中增加了一節，指定了遠端的名稱 (`origin`)。遠端的名稱可以改，遠端的名稱也可以刪。',
        name: 'origin',
      },
    ],
    notMatch: [
      {
        text: '它在設定檔中增加了一節，指定了遠端的名稱 (origin)。遠端的名稱可以改，遠端的名稱也可以刪。',
        name: 'origin',
      },
    ],
  },
  {
    id: 'name-opener',
    does: 'take',
    decides: 'found',
    docs: 'A capitalised word inside a sentence that another capitalised word follows opens a name, even a word of the stop lists (New York, Time Lord); the last word alone is no name.',
    where: 'en-terms.ts opensName',
    match: [
      {
        text: 'He moved to New York in 1990 and stayed in New York. As a Time Lord, the Doctor can regenerate; another Time Lord is the Master.',
        name: 'New York',
      },
    ],
    notMatch: [
      {
        text: 'He moved to New York in 1990 and stayed in New York. As a Time Lord, the Doctor can regenerate; another Time Lord is the Master.',
        name: 'York',
      },
    ],
  },
  {
    id: 'section-label',
    does: 'drop',
    decides: 'salient',
    docs: 'A heading ending in a word for a kind of text (Release Updates, Meeting Notes: en.TITLE_GENRE) labels a section; a name of its own in a heading is stressed.',
    where: 'entities.ts isSectionLabel',
    match: [
      {
        text: '# Weekly\n\n## Release Updates\n\nRelease Updates lists what shipped. Release Updates come first. Release Updates are short.\n',
        title: 'Weekly',
        name: 'release update',
      },
    ],
    notMatch: [
      {
        text: '# Weekly\n\n## Build Cache\n\nThe Build Cache keeps outputs. Build Cache is shared. We trust the Build Cache to save time.\n',
        title: 'Weekly',
        name: 'build cache',
      },
    ],
  },
  {
    id: 'label-before-number',
    does: 'drop',
    decides: 'found',
    docs: 'A capitalised word before a number is a label (Chapter 3, Listing 2, Round 2), never a name.',
    where: 'en-terms.ts englishTerms (label)',
    match: [
      {
        text: 'Chapter 3 explains the setup. Chapter 4 explains the rest. See Listing 2 and Listing 5.',
        name: 'chapter',
      },
      {
        text: 'Chapter 3 explains the setup. Chapter 4 explains the rest. See Listing 2 and Listing 5.',
        name: 'listing',
      },
    ],
    notMatch: [
      {
        text: 'The Borrow Checker explains the setup. The Borrow Checker rejects the rest. The Borrow Checker is strict.',
        name: 'borrow checker',
      },
    ],
  },
  {
    id: 'generic-word',
    does: 'drop',
    decides: 'found',
    docs: 'Labels, log levels, literals and UI text (None, error, Click: en.GENERIC) are no names, capitalised or not.',
    where: 'text/lang/en.ts GENERIC',
    match: [
      { text: 'The function returns None when nothing matches; None is also the default. None again.', name: 'none' },
      { text: 'Click Create to start. Click Create again to add another database.', name: 'click create' },
    ],
    notMatch: [
      {
        text: 'The function returns Nonce when nothing matches; Nonce is also the default. Nonce again.',
        name: 'nonce',
      },
    ],
  },
  {
    id: 'code-identifier',
    does: 'drop',
    decides: 'found',
    docs: "An identifier the text's code declares or calls (`ProductRow`, `useState`) is code, not a concept.",
    where: 'entities.ts notAName (codeIdentifiers)',
    match: [
      {
        text: 'Build a ProductRow for each item. The ProductRow shows a name. Keep ProductRow small.\n\n```js\nfunction ProductRow({ product }) {\n  return <tr>{product.name}</tr>;\n}\n```\n',
        name: 'productrow',
      },
    ],
    notMatch: [
      {
        text: 'Build a ProductRow for each item. The ProductRow shows a name. Keep ProductRow small.\n',
        name: 'productrow',
      },
    ],
  },
  {
    id: 'placeholder',
    does: 'drop',
    decides: 'found',
    docs: 'The placeholder names of examples (Foo, Bar, hoge: en.PLACEHOLDERS) name nothing.',
    where: 'entities.ts notAName (EN.PLACEHOLDERS)',
    match: [{ text: 'Suppose Foo implements the trait. Then Foo can be boxed, and Foo is sized.', name: 'foo' }],
    notMatch: [
      { text: 'Suppose Tokio implements the trait. Then Tokio can be boxed, and Tokio is sized.', name: 'tokio' },
    ],
  },
  {
    id: 'piece-of-a-word',
    does: 'drop',
    decides: 'found',
    docs: 'A Chinese name is never a piece cut from a longer word (文档字符 of 文档字符串) nor a phrase joined by a verb.',
    where: 'zh-terms.ts chineseTerms',
    match: [
      {
        text: '我们用工具生成文档字符串。生成文档字符串的代码很短，文档字符串中的代码示例也要检查。',
        name: '文档字符',
      },
      {
        text: '随着数据变多，这意味着索引结构更重要。索引结构中的指针意味着更快的查询。',
        name: '意味着',
      },
    ],
    notMatch: [
      {
        text: '我们用工具生成文档字符串。生成文档字符串的代码很短，文档字符串中的代码示例也要检查。',
        name: '文档字符串',
      },
    ],
  },
  {
    id: 'qualifying-word',
    does: 'drop',
    decides: 'found',
    docs: 'A word that only qualifies the noun after it (const of const generics, const fn) is no term of its own there.',
    where: 'en-terms.ts chunk (terms)',
    match: [
      {
        text: 'We discussed const generics at length, and const generics ship first. The const parameter may be any const expression, and each const parameter is checked. A const expression is evaluated at compile time.',
        name: 'const',
      },
    ],
    notMatch: [
      {
        text: 'A goroutine is a lightweight thread. Each goroutine has its own stack, and a goroutine leak happens when a goroutine blocks forever.',
        name: 'goroutine',
      },
    ],
  },
  {
    id: 'cited-work',
    does: 'drop',
    decides: 'found',
    docs: "A reference line citing a work by author and year (Miller, Ann. (2019). Title …) gives that work's words, not this one's: from its first author to the line's end it is no text.",
    where: 'entities.ts withoutCitations',
    match: [
      {
        text: cited('- Miller, Ann. (2019). Gardens of Memory: Forgetting Curve, Spaced Practice, Active Recall.'),
        name: 'Spaced Practice',
      },
      {
        text: cited('- 参考：Miller, Ann. (2019). Gardens of Memory: Forgetting Curve, Spaced Practice.'),
        name: 'Miller',
      },
    ],
    notMatch: [
      {
        text: 'Spaced Practice spreads reviews over days. Miller tested Spaced Practice with two classes (2019). Spaced Practice beat cramming in both.',
        name: 'Spaced Practice',
      },
    ],
  },
  {
    id: 'web-address',
    does: 'drop',
    decides: 'found',
    docs: 'A web address in the text names no term (https of https://example.com/).',
    where: 'en-terms.ts englishProse',
    match: [
      {
        text: 'Read https://example.com/guide first. Then read https://example.com/api and https://example.com/faq.',
        name: 'https',
      },
    ],
    notMatch: [
      {
        text: 'Serve every page over HTTPS. HTTPS encrypts the traffic, and HTTPS needs a certificate.',
        name: 'HTTPS',
      },
    ],
  },
  {
    id: 'line-opens-sentence',
    does: 'drop',
    decides: 'found',
    docs: 'A line break ends a block (a list item, a cell, a heading): a capitalised everyday word opening the next line opens a sentence ("Show a list of footnotes" under "[[Footnotes view]]"), no name; a line of one word is a label, written as its name is ("Cookie").',
    where: 'en-terms.ts englishProse, englishTerms (opening)',
    match: [
      {
        text: '- [[Footnotes view]]\n  - Show a list of footnotes from the current note.\n- [[Outgoing links]]\n  - Show all links for the active note.\n- [[Outline]]\n  - Show the table of contents for the active note.\n',
        name: 'Show',
      },
    ],
    notMatch: [
      {
        text: '- Kubernetes runs containers on many machines.\n- Kubernetes restarts a container that fails.\n- Kubernetes scales a service out.\n',
        name: 'Kubernetes',
      },
    ],
  },
  {
    id: 'inner-dot',
    does: 'drop',
    decides: 'found',
    docs: 'A dot inside a word (Node.js, vite.config.js) ends no sentence: the half after it opens no name.',
    where: 'text/english.ts tagEnglish (joinDotted)',
    match: [
      {
        text: 'Electron embeds Node.js in the browser. Node.js integration is off by default, and Node.js integration runs in the main process. Node.js integration is old.',
        name: 'js integration',
      },
    ],
    notMatch: [
      {
        text: 'JS integration is off by default. JS integration runs in the main process, and JS integration is old.',
        name: 'js integration',
      },
    ],
  },
  {
    id: 'marked-inside-a-name',
    does: 'drop',
    decides: 'found',
    docs: 'A word marked inside a longer English name (「root」component) is no name of its own; a word marked before a function word is.',
    where: 'entities.ts extractEntities (inName)',
    match: [
      {
        text: '你的 React 應用程式從「root」component 開始。root component 通常只有一個，root 也可以改名。',
        name: 'root',
      },
    ],
    notMatch: [
      {
        text: '3. **Committing** to the DOM comes last. Committing writes nodes. Committing is quick.',
        name: 'committing',
      },
    ],
  },
  {
    id: 'possessive',
    does: 'drop',
    decides: 'found',
    docs: "A possessive ending a name (Nimbus's `<ClientRouter />`) is the sentence's, not the name's: the name before it, Nimbus, is found.",
    where: 'entities.ts clean (POSSESSIVE)',
    match: [
      {
        text: "# View transitions\n\nNimbus has view transitions. Nimbus is a framework. Nimbus renders pages.\n\n## Differences between view transitions and Nimbus's `<ClientRouter />`\n\nAdding Nimbus's `<ClientRouter />` component. Using Nimbus's `<ClientRouter />` helps. We like Nimbus's `<ClientRouter />`.\n",
        name: "Nimbus's",
      },
    ],
    notMatch: [
      {
        text: "# View transitions\n\nNimbus has view transitions. Nimbus is a framework. Nimbus renders pages.\n\n## Differences between view transitions and Nimbus's `<ClientRouter />`\n\nAdding Nimbus's `<ClientRouter />` component. Using Nimbus's `<ClientRouter />` helps. We like Nimbus's `<ClientRouter />`.\n",
        name: 'Nimbus',
      },
    ],
  },
  {
    id: 'cut-from-compound',
    does: 'drop',
    decides: 'found',
    docs: 'A name the text only ever writes glued by a hyphen to the word before it (level agreements of service-level agreements, end tests of end-to-end tests) is a piece of a compound; the same words standing on their own are a name.',
    where: 'entities.ts cutFromCompound',
    match: [
      {
        text: 'Testing helps.\n\n## End-to-end tests\n\nPlaywright runs end-to-end tests in a browser. Write end-to-end tests for each page. End-to-end tests are slow.\n',
        name: 'end tests',
      },
    ],
    notMatch: [
      {
        text: 'A vector database stores embeddings. The vector database answers nearest queries, and each vector database keeps an index. A multi-vector database is rare.',
        name: 'vector database',
      },
    ],
  },
  {
    id: 'request-to-reader',
    does: 'drop',
    decides: 'found',
    docs: 'A request to the reader (请参阅, 请确保: 请 and a verb) is an instruction of the text, never a name; a word that starts with 请 (请假条) is one.',
    where: 'entities.ts isRequest (text/lang/zh.ts REQUEST)',
    match: [
      {
        text: '图像组件可以优化图片。请参阅组件的完整 API 参考。\n\n图像组件支持远程图片。请参阅组件的完整 API 参考。\n\n请参阅组件的完整 API 参考，包括必需属性。',
        name: '请参阅组件',
      },
    ],
    notMatch: [
      {
        text: '请假条要提前写。请假条交给老师。请假条上写明原因。',
        name: '请假条',
      },
    ],
  },
  {
    id: 'bound-prefix',
    does: 'take',
    decides: 'found',
    docs: 'A character that makes one word with the noun after it (单, 多, 非, 微, 跨: text/lang/zh.ts BOUND_PREFIXES) begins the term jieba writes apart from it: 多页面应用, not 页面应用.',
    where: 'zh-terms.ts boundPrefix, termBefore',
    match: [
      {
        text: '视图过渡可以为多页面应用（MPA）中文档之间的导航添加动画。它们不会改变多页面应用的核心功能。多页面应用仍然加载整个页面。',
        name: '多页面应用',
      },
    ],
    notMatch: [
      {
        text: '很多页面应用了这个样式。很多页面应用了新的字体。很多页面应用了旧的布局。',
        name: '多页面应用',
      },
    ],
  },
  {
    id: 'stop-noun-in-title-term',
    does: 'drop',
    decides: 'found',
    docs: 'A noun of the stop list written together with the next word of a Chinese title (数据获取) is part of one term with it: the work is not about the verb left after it (获取).',
    where: 'subject.ts runs (stopNounInTerm)',
    match: [
      {
        title: '数据获取',
        text: '组件可以在构建时获取远程数据。获取的数据可以传给组件。每次获取都会发出请求，获取失败时会重试，获取的结果会缓存。',
        name: '获取',
      },
    ],
    notMatch: [
      {
        title: '数据：获取',
        text: '组件可以在构建时获取远程数据。获取的数据可以传给组件。每次获取都会发出请求，获取失败时会重试，获取的结果会缓存。',
        name: '获取',
      },
    ],
  },
  {
    id: 'action-asked-in-title',
    does: 'drop',
    decides: 'found',
    docs: "A verb right after a word that asks how (如何修改…, 怎么安装…) in a Chinese title is the action asked about, not the work's subject.",
    where: 'subject.ts runs (actionAsked, zh.HOW_WORDS)',
    match: [
      {
        title: '如何修改 Ubuntu 登入畫面的背景',
        text: '登入畫面的背景可以修改。修改之前先備份原來的圖片。修改的方法是替換設定檔裡的路徑，修改完成後重新開機。',
        name: '修改',
      },
    ],
    notMatch: [
      {
        title: '修改與備份：登入畫面的背景',
        text: '登入畫面的背景可以修改。修改之前先備份原來的圖片。修改的方法是替換設定檔裡的路徑，修改完成後重新開機。',
        name: '修改',
      },
    ],
  },
  {
    id: 'imperative-title',
    does: 'drop',
    decides: 'found',
    docs: 'An English title that opens with a word and a determiner ("Customize your site", "Manage the vault") opens with a verb and its object: the verb is no subject; a name the prose capitalises ("Git the Hard Way") is.',
    where: 'subject.ts runs (imperativeVerbs, en.DETERMINERS)',
    match: [
      {
        title: 'Customize your site',
        text: 'This page explains how you can customize how your site looks. You can customize your site by publishing files. Within Publish, you can customize the navigation. Customize the theme too.',
        name: 'customize',
      },
    ],
    notMatch: [
      {
        title: 'Git the Hard Way',
        text: 'Git keeps every version. Git stores snapshots. Learn Git by doing: Git rewards practice, and Git is fast.',
        name: 'git',
      },
    ],
  },
  {
    id: 'kind-word-in-name',
    does: 'take',
    decides: 'found',
    docs: 'A noun for a kind of text in a title ("Daily notes", "Unique note creator") is a word of a name where the text writes the title\'s words whole again and again; else it says what the text is ("Rebase review" is about rebase).',
    where: 'subject.ts kindWordsInName (en.TEXT_KINDS)',
    match: [
      {
        title: 'Daily notes and templates',
        text: 'Daily notes is a core plugin that opens a note for today. Open Daily notes from the ribbon. You can set where Daily notes are stored.',
        name: 'daily notes',
      },
    ],
    notMatch: [
      {
        title: 'Rebase review and squash',
        text: 'We rebase the branch before merging. A rebase rewrites history. Each rebase should be checked, and a failed rebase is undone.',
        name: 'rebase review',
      },
    ],
  },
  {
    id: 'instruction-heading',
    does: 'drop',
    decides: 'found',
    docs: 'A heading or sentence that opens with a verb of a step (en.INSTRUCTION_VERBS: add, show, customize) before a lowercase word tells what to do ("Add cards", "Show backlinks in a note"): the verb is no word of a name; a word read as a noun or adjective there (open source, use case) is.',
    where: 'subject.ts imperativeVerbs; en-terms.ts chunk',
    match: [
      {
        title: 'Whiteboards',
        text: '## Add cards\n\nYou add cards from notes, media and folders. Add cards by dragging them.\n\n### Add cards from notes\n\nDrag a note in to add cards from notes.\n',
        name: 'add cards',
      },
      {
        title: 'Links',
        text: '## Show backlinks\n\nThe plugin lists the backlinks of the active note.\n\n## Show backlinks in a note\n\nTo show backlinks in a note, turn the option on. Show backlinks at the bottom.\n',
        name: 'show backlinks',
      },
      {
        title: 'Download and install Obsidian',
        text: 'Open your browser and download the installer. To install Obsidian on Linux, use the AppImage. You can install Obsidian with Snap too, or install Obsidian from Flathub.',
        name: 'install obsidian',
      },
      {
        title: 'Styles',
        text: '## Add Tailwind\n\nTo add Tailwind, run the command below. Tailwind styles your pages. Once you add Tailwind, import it in your layout, and add Tailwind classes.\n',
        name: 'add tailwind',
      },
    ],
    notMatch: [
      {
        title: 'Licences',
        text: '## Open source\n\nOpen source code can be read by anyone. Open source licences differ.\n\n## Open source and business\n\nMany firms fund open source.\n',
        name: 'open source',
      },
    ],
  },
  {
    id: 'marked-step',
    does: 'drop',
    decides: 'found',
    docs: 'A marked phrase that is a step (a verb and the reader\'s possessive, "Sync your vault"; a verb of a step before a lowercase word, "Customize navigation") is no name the text stresses; a marked noun phrase ("**Live Preview**") or a title of a work ("Catch that Rabbit") is.',
    where: 'entities.ts englishNameOk (en.READERS, en.INSTRUCTION_VERBS)',
    match: [
      {
        text: '1. **Install Git**: get it from the website.\n2. **Sync your vault**: commit and push. Then **Sync your vault** again on the phone.\n',
        name: 'sync your vault',
      },
      {
        text: 'Under **Components settings**, next to **Customize navigation**, select the button. **Customize navigation** lists the items.\n',
        name: 'customize navigation',
      },
    ],
    notMatch: [
      {
        text: 'The editor has a mode called **Live Preview**. In **Live Preview** formatting shows as you type.\n',
        name: 'live preview',
      },
      {
        text: 'His story **Catch that Rabbit** came out in 1944. In **Catch that Rabbit** a robot leads six others.\n',
        name: 'catch that rabbit',
      },
    ],
  },
  {
    id: 'stop-noun-after-noun-in-title',
    does: 'drop',
    decides: 'found',
    docs: 'A stop-list noun written together after a noun of a Chinese title (檔案系統, file system) closes one term with it: the work is not about the noun left before it (檔案).',
    where: 'subject.ts runs (stopNounInTerm)',
    match: [
      {
        title: 'Linux 檔案系統',
        text: 'Linux 的檔案系統從根目錄開始。每個檔案都有路徑，設定檔案放在 /etc，使用者的檔案放在 /home。檔案系統把檔案組織成一棵樹。',
        name: '檔案',
      },
    ],
    notMatch: [
      {
        title: 'Linux 檔案與系統',
        text: 'Linux 的檔案系統從根目錄開始。每個檔案都有路徑，設定檔案放在 /etc，使用者的檔案放在 /home。檔案系統把檔案組織成一棵樹。',
        name: '檔案',
      },
    ],
  },
  {
    id: 'verb-toward-object',
    does: 'drop',
    decides: 'found',
    docs: 'A verb with the coverb that leads to its object (发送给, send to), which jieba holds as one word tagged a noun, is a predicate, no name.',
    where: 'zh-terms.ts predicateWord (zh.COVERBS)',
    match: [
      {
        text: '客户端把请求发送给服务器。服务器把证书发送给客户端。快照文件发送给从服务器。消息发送给队列之后就返回。',
        title: 'HTTP',
        name: '发送给',
      },
    ],
    notMatch: [
      {
        text: '客户端把请求交给发送器。发送器把证书交给客户端。快照文件交给发送器。消息交给发送器之后就返回。',
        title: 'HTTP',
        name: '发送器',
      },
    ],
  },
  {
    id: 'qualified-predicate',
    does: 'drop',
    decides: 'found',
    docs: "An adverb and the verb or adjective it qualifies that jieba's dictionary holds as one noun (完全免费, completely free) is a predicate, no name; a word of a qualifier and a noun (即时通讯, instant messaging) is one.",
    where: 'zh-terms.ts predicateWord',
    match: [
      {
        text: '这个工具完全免费，源码开放。它完全免费并且跨平台。完全免费的工具很受欢迎。',
        name: '完全免费',
      },
    ],
    notMatch: [
      {
        text: '即时通讯是一个概念。很多人研究即时通讯。即时通讯的应用很广。',
        name: '即时通讯',
      },
    ],
  },
  {
    id: 'directional-complement',
    does: 'drop',
    decides: 'found',
    docs: "A verb with a directional complement in a title (錄下來, 存起来, 打印出来: zh.DIRECTIONALS) is the title's predicate, no subject; 过去 alone (the past) is a noun.",
    where: 'subject.ts withComplement',
    match: [
      {
        title: '輕鬆把 request 錄下來',
        text: '用 vcr 可以把 request 錄下來。錄下來的檔案放在資料夾裡。下次測試直接讀取錄下來的檔案，不必真的連線。',
        name: '錄下來',
      },
    ],
    notMatch: [
      {
        title: '过去的网页',
        text: '过去的网页很简单。过去的网页没有脚本。过去的网页只用表格排版，过去的网页也没有样式表。',
        name: '过去',
      },
    ],
  },
  {
    id: 'negating-prefix',
    does: 'take',
    decides: 'found',
    docs: 'A prefix that negates the noun after it (非关系型, 非阻塞, 无服务器) is part of the term a gloss names, whatever the gloss spells: without it the term says the opposite.',
    where: 'zh-terms.ts termBefore (zh.NEGATING_PREFIXES)',
    match: [
      {
        text: 'Redis 是速度非常快的非关系型（NoSQL）内存键值数据库。非关系型数据库不用表。Redis 是速度非常快的非关系型（NoSQL）内存键值数据库。',
        name: '非关系型',
      },
    ],
    notMatch: [
      {
        text: '这个数据库并非关系型（relational）数据库，关系型数据库用表来存数据。这个数据库并非关系型（relational）数据库。',
        name: '并非关系型',
      },
    ],
  },
  {
    id: 'unknown-word-in-abbreviation',
    does: 'take',
    decides: 'found',
    docs: "A word jieba's dictionary lacks (跨站) before a glossed term is part of it while the abbreviation spells another word: 跨站脚本攻击 (XSS), not 脚本攻击.",
    where: 'zh-terms.ts termBefore',
    match: [
      {
        text: '跨站脚本攻击 (XSS) 常常窃取用户的 Cookie 信息，使用 HttpOnly 可以避免 XSS 攻击。跨站脚本攻击 (XSS) 常常窃取用户的 Cookie 信息。',
        name: '跨站脚本攻击',
      },
    ],
    notMatch: [
      {
        text: '常见的跨站脚本攻击（SA）会窃取 Cookie 信息。常见的跨站脚本攻击（SA）会窃取 Cookie 信息。',
        name: '跨站脚本攻击',
      },
      {
        text: '该项目是通过个人微信聊天记录对大语言模型（LLM）进行微调，打造专属的数字分身。大语言模型（LLM）很常见。',
        name: '聊天记录对大语言模型',
      },
      {
        // A Han word before the unknown one: where the term starts is unsure (出舱活动 or 月球出舱活动).
        text: '宇航员开始穿新的太空服，专为适应月球出舱活动（EVA）。月球出舱活动（EVA）持续数小时。',
        name: '月球出舱活动',
      },
    ],
  },
  {
    id: 'ui-label',
    does: 'drop',
    decides: 'found',
    docs: 'A marked name a step of a user interface acts on ("click **Publish changes**", "the **Views** toggle", 点击「设置」) is a control\'s label, not a name the text stresses, nor a source of pieces ("click Change site options").',
    where: 'entities.ts uiLabelsAsCode (en.UI_VERBS, en.UI_CONTROLS, zh.UI_VERBS, zh.UI_CONTROLS)',
    match: [
      {
        text: '1. In the ribbon, select **Publish changes** to open it.\n2. In the **Publish changes** dialog, click **Change site options**.\n3. Select **Publish changes** again.\n',
        name: 'publish changes',
      },
      {
        text: '1. In the ribbon, select **Publish changes** to open it.\n2. In the **Publish changes** dialog, click **Change site options**.\n3. Select **Publish changes** again.\n',
        name: 'change site',
      },
      {
        text: 'Open **Settings → Appearance → Show tab title bar** to see the switcher. Run **Tags: Show tags** from the palette. The **Show tab title bar** setting is off.\n',
        name: 'Tags: Show tags',
      },
      {
        text: '1. Open the command palette.\n2. Search for the **Manage workspace layouts** command.\n3. Run the **Manage workspace layouts** command again to switch.\n',
        name: 'manage workspace layouts',
      },
      {
        // A label a step acts on once is that control wherever the text marks it.
        text: '1. Click **Publish changes** in the ribbon.\n2. Under **Publish changes**, pick the notes.\n3. The list under **Publish changes** shows new notes first; **Publish changes** keeps them ticked.\n',
        name: 'publish changes',
      },
      {
        // Nor is the label's word, written as code, a mention of a name in the prose.
        text: 'Snapshots are kept for a week.\n\n## Clear snapshot history\n\n1. Open the settings.\n2. Under **Clear history**, select **Clear**.\n3. Confirm by clicking **Clear**.\n',
        name: 'clear',
      },
    ],
    notMatch: [
      {
        text: 'The editor has a mode called **Live Preview** that shows formatting as you type. Select the text to edit it in **Live Preview**.\n',
        name: 'live preview',
      },
    ],
  },
  {
    id: 'step-verb-before-name',
    does: 'drop',
    decides: 'found',
    docs: 'A verb of a step (open, install, select: en.STEP_VERBS) before a capitalised name, opening the sentence or not, is no word of the name ("Open Obsidian and select the vault" names Obsidian).',
    where: 'en-terms.ts chunk',
    match: [
      {
        text: 'Open Obsidian the same way you would open any other application. On your computer, open Obsidian. Open Obsidian and select the vault.',
        name: 'open obsidian',
      },
    ],
    notMatch: [
      {
        text: 'The Open Source Initiative keeps the list of licences. Every licence the Open Source Initiative approves is listed there, and the Open Source Initiative reviews new ones.',
        name: 'open source initiative',
      },
    ],
  },
  {
    id: 'date-format',
    does: 'drop',
    decides: 'found',
    docs: 'The fields of a date format (YYYY-MM-DD, YYYYMMDDhhmm) are a pattern to fill in, no name; an acronym of capitals (YAML, DDL) is one.',
    where: 'entities.ts validName (DATE_FORMAT)',
    match: [
      {
        text: 'The new note is named after today in the YYYY-MM-DD format. Change YYYY-MM-DD to YYYYMMDD if you like. YYYY is the year.',
        name: 'YYYY',
      },
    ],
    notMatch: [
      {
        text: 'Tables are made with DDL statements. DDL creates and drops tables, and DDL runs before the data comes in.',
        name: 'DDL',
      },
    ],
  },
  {
    id: 'fence-in-fence',
    does: 'drop',
    decides: 'found',
    docs: 'A fence of four backticks that shows a fence of three (a listing of a ```mermaid block) is one code block: what it holds names nothing; a fence indented in a list item is code too; the prose around them still counts.',
    where: 'entities.ts withoutFences',
    match: [
      {
        text: 'Diagrams are drawn from text.\n\n````md\n```mermaid\ngraph TD\n\nBiology --> Chemistry\n```\n````\n\nThe source shows Biology --> Chemistry once more:\n\n````md\n```mermaid\ngraph TD\n\nBiology --> Chemistry\n```\n````\n',
        name: 'Chemistry',
      },
    ],
    notMatch: [
      {
        text: 'Diagrams are drawn with Mermaid.\n\n````md\n```mermaid\ngraph TD\n\nA --> B\n```\n````\n\nMermaid reads the block, and Mermaid draws it.\n',
        name: 'Mermaid',
      },
    ],
  },
  {
    id: 'marks-in-code',
    does: 'drop',
    decides: 'found',
    docs: "Underscores and stars inside code (a listing's `def __init__`, an inline `f1.__doc__`) are code, not emphasis: they stress no name; emphasis in the prose beside them still counts.",
    where: 'entities.ts maskCode',
    match: [
      {
        text: 'A decorator wraps a function.\n\n```python\nclass A:\n    def __init__(self):\n        pass\n```\n\nThe class prints `f1.__doc__` and stops.\n',
        name: 'init',
      },
      {
        text: 'A decorator wraps a function.\n\n```python\nclass A:\n    def __init__(self):\n        pass\n```\n\nThe class prints `f1.__doc__` and stops.\n',
        name: 'doc',
      },
    ],
    notMatch: [
      {
        text: 'A decorator wraps a function.\n\n```python\nclass A:\n    def __init__(self):\n        pass\n```\n\nThe decorator fills a __memo table__ and prints `f1.__doc__` at the end. The memo table grows.\n',
        name: 'memo table',
      },
    ],
  },
  {
    id: 'verb-before-whole-gloss',
    does: 'drop',
    decides: 'found',
    docs: 'A verb before a Chinese noun that already makes the whole name an English gloss gives (two characters or more a word, and a third) takes it as its object: 無法滿足可用性（Availability） is a clause; 反向链接（Backlinks） keeps its first word.',
    where: 'zh-terms.ts termBefore',
    match: [
      {
        text: '這個設計無法滿足可用性（Availability），所以要取捨。無法滿足可用性時系統會拒絕請求。',
        name: '设计无法满足可用性',
      },
      {
        // Two characters a letter already, though one word (搜索引擎) holds two of the abbreviation's.
        text: '这种格式有助于搜索引擎优化（SEO），格式有助于搜索引擎优化（SEO）。',
        name: '格式有助于搜索引擎优化',
      },
    ],
    notMatch: [
      {
        text: '反向链接（Backlinks）让笔记互相连接。反向链接显示在页面底部。反向链接很有用。',
        name: '反向链接',
      },
    ],
  },
  {
    id: 'identifier-in-title',
    does: 'drop',
    decides: 'found',
    docs: 'A word of a title written together with an underscore (functools.lru_cache, `__name__`) is a piece of an identifier, not what the work is about; the same word standing alone in a title is.',
    where: 'subject.ts runs (inIdentifier)',
    match: [
      {
        title: 'What is the functools.lru_cache',
        text: 'The lru_cache decorator keeps results. A cache trades memory for time. The cache grows until full. Clear the cache often.',
        name: 'cache',
      },
      {
        title: "什麼是 if __name__ == '__main__'",
        text: "每個模組都有 `__name__` 變數。直接執行時 `__name__` 是 `'__main__'`。被 import 時 `__name__` 是模組名稱，name 就是名稱。",
        name: 'name',
      },
    ],
    notMatch: [
      {
        title: 'What is a cache',
        text: 'The lru_cache decorator keeps results. A cache trades memory for time. The cache grows until full. Clear the cache often.',
        name: 'cache',
      },
    ],
  },
];
