// The answer eval's questions: written by reading bench/corpora/wiki/*/raw/ before kb ever answered
// them, as a person would ask their own notes. `gold` is what a right answer contains: every key
// phrase (each a `|`-separated list of alternatives) for "right", some for "partly", none for "wrong".
// `docs` are the raw files (under the corpus folder) that hold the answer: a translated work lists
// every version that does.

export type QuestionLang = 'en' | 'zh' | 'zh-TW';

export type Kind = 'define' | 'list' | 'steps' | 'number' | 'reason' | 'who' | 'when' | 'compare' | 'yesno' | 'other';

export interface AskQuestion {
  id: string;
  corpus: string;
  lang: QuestionLang;
  kind: Kind;
  /** The question's language differs from the language of every gold document (English vs Chinese). */
  crossing: boolean;
  q: string;
  docs: string[];
  gold: string[];
}

const q = (
  corpus: string,
  id: string,
  lang: QuestionLang,
  kind: Kind,
  crossing: boolean,
  question: string,
  docs: string[],
  gold: string[],
): AskQuestion => ({ id: `${corpus}/${id}`, corpus, lang, kind, crossing, q: question, docs, gold });

/** A work in all three languages: any version holds the answer. */
const inAll = (file: string) => ['en', 'zh', 'zh-tw'].map((l) => `raw/${l}/${file}`);

// biome-ignore format: one question a line
export const QUESTIONS: AskQuestion[] = [
  // --- blog: the Go blog (en) and a personal note-taking blog (zh).
  q('blog', 'ctx-done', 'en', 'define', false, 'What does the Done method of a Go context give you?', ['raw/en/context.md'], ['channel', 'cancel']),
  q('blog', 'defer-rules', 'zh', 'list', true, 'Go 里的 defer 有哪三条规则？', ['raw/en/defer-panic-and-recover.md'], ['evaluated|求值', 'Last In First Out|LIFO|后进先出', 'named return|命名返回']),
  q('blog', 'recover-when', 'zh', 'when', true, 'Go 的 recover 什么时候才有用？', ['raw/en/defer-panic-and-recover.md'], ['deferred|延迟']),
  q('blog', 'race-cost', 'en', 'number', false, 'How much more CPU and memory does a binary built with the race detector use?', ['raw/en/race-detector.md'], ['ten times|10x|10 times']),
  q('blog', 'race-basis', 'zh', 'who', true, 'Go 的竞态检测器是基于哪个库实现的？', ['raw/en/race-detector.md'], ['ThreadSanitizer']),
  q('blog', 'race-enable', 'en', 'steps', false, 'How do I turn the race detector on when I build or test?', ['raw/en/race-detector.md'], ['-race']),
  q('blog', 'loopvar-release', 'en', 'when', false, 'Which Go release gives for-loop variables a fresh copy on each iteration?', ['raw/en/loopvar-preview.md'], ['1.22']),
  q('blog', 'is-vs-as', 'en', 'compare', false, 'errors.Is versus errors.As: what does each one check?', ['raw/en/go1.13-errors.md'], ['compares an error to a value|sentinel', 'specific type|type assertion']),
  q('blog', 'generics-three', 'en', 'list', false, 'What are the three big additions that generics brought to Go?', ['raw/en/intro-generics.md'], ['type parameters', 'sets of types|type sets', 'type inference']),
  q('blog', 'instantiation', 'en', 'steps', false, 'What happens, step by step, when a generic function is instantiated?', ['raw/en/intro-generics.md'], ['substitut', 'satisf|verif']),
  q('blog', 'module-zh', 'zh', 'define', true, 'Go 模块（module）到底是什么？', ['raw/en/using-go-modules.md'], ['collection of Go packages|packages|包', 'go.mod']),
  q('blog', 'moc', 'zh', 'define', false, 'MOC 是什么的缩写，中文一般怎么叫？', ['raw/zh/MOC的组织.md'], ['Map of Contents', '内容地图']),
  q('blog', 'moc-who', 'en', 'who', true, 'Who first came up with the term MOC for notes?', ['raw/zh/MOC的组织.md'], ['Kimbro']),
  q('blog', 'luhmann-links', 'zh', 'number', false, '卢曼第一代卡片盒里每张卡片平均有多少个链接？', ['raw/zh/卢曼笔记网络不是纯链接网络.md'], ['0.9']),
  q('blog', 'note-purposes', 'zh', 'list', false, '记笔记常见的目的可以分成哪几类？', ['raw/zh/笔记的不同目的.md'], ['记录', '理解', '记忆']),

  // --- book: Pro Git in English, Simplified and Traditional Chinese; some chapters in one language only.
  q('book', 'three-states', 'en', 'list', false, 'What three states can a file be in with Git?', inAll('01-introduction.md'), ['committed', 'modified', 'staged']),
  q('book', 'three-states-zh', 'zh', 'list', false, 'Git 中文件有哪几种状态？', inAll('01-introduction.md'), ['已提交|committed', '已修改|modified', '已暂存|staged']),
  q('book', 'bitkeeper', 'en', 'who', false, 'Which version control tool did the Linux kernel use before Git existed?', inAll('01-introduction.md'), ['BitKeeper']),
  q('book', 'born', 'zh-TW', 'when', false, 'Git 是在哪一年誕生的？', inAll('01-introduction.md'), ['2005']),
  q('book', 'staging-area', 'zh-TW', 'define', false, '暫存區域到底是什麼？', inAll('01-introduction.md'), ['下一個提交|下一次提交|next commit|下次提交']),
  q('book', 'git-port', 'zh', 'number', true, 'Git 协议默认监听哪个端口？', ['raw/en/04-git-server.md'], ['9418']),
  q('book', 'git-protocol-cons', 'zh', 'reason', true, 'Git 协议为什么一般不开放推送？', ['raw/en/04-git-server.md'], ['authentication|认证|验证']),
  q('book', 'protocols', 'en', 'list', false, 'Which network protocols can Git use to transfer data?', ['raw/en/04-git-server.md'], ['Local', 'SSH', 'HTTP']),
  q('book', 'rebase-public', 'zh', 'reason', false, '为什么不应该对已经推送到公共仓库的提交做变基？', inAll('03-git-branching.md'), ['抛弃|放弃|abandon', '新的提交|new ones|重新']),
  q('book', 'integration-manager', 'en', 'steps', true, 'How does the integration-manager workflow go, step by step?', ['raw/zh/05-distributed-git.md'], ['blessed', 'developer public|公共仓库', '合并|merge']),
  q('book', 'centralized-second', 'en', 'other', true, 'In a centralized workflow, what must the second developer do before pushing?', ['raw/zh/05-distributed-git.md'], ['合并|merge', '下载|fetch|pull|抓取']),
  q('book', 'stash', 'en', 'define', true, 'What does stashing do with my half-done work?', ['raw/zh-tw/06-git-tools.md'], ['dirty state|未完成', '堆疊|stack']),
  q('book', 'short-sha', 'en', 'number', true, 'What is the fewest characters of a SHA-1 that Git accepts to name a commit?', ['raw/zh-tw/06-git-tools.md'], ['四個|四个|four|4 個|4 characters']),
  q('book', 'bisect', 'zh', 'define', false, 'git bisect 是用来做什么的？', ['raw/zh-tw/06-git-tools.md'], ['二分']),
  // Works in all three languages, asked in one (written for the answer's language: the version a reader of the question reads).
  q('book', 'origin', 'en', 'other', false, 'What name does Git give the server you cloned a repository from?', inAll('02-git-basics.md'), ['origin']),
  q('book', 'origin-tw', 'zh-TW', 'other', false, 'clone 下來的專案，遠端伺服器預設叫什麼名字？', inAll('02-git-basics.md'), ['origin']),
  q('book', 'head', 'en', 'other', false, 'How does Git know which branch I am currently on?', inAll('03-git-branching.md'), ['HEAD']),
  q('book', 'head-zh', 'zh', 'other', false, 'Git 怎么知道我现在在哪个分支上？', inAll('03-git-branching.md'), ['HEAD']),
  q('book', 'branch-what', 'en', 'define', false, 'What is a branch in Git, really?', inAll('03-git-branching.md'), ['pointer|指针|指標', 'movable|可变|可變']),
  q('book', 'fast-forward', 'en', 'reason', false, 'Why does Git call some merges a fast-forward?', inAll('03-git-branching.md'), ['pointer|指针|指標', 'forward|右移']),
  q('book', 'rebase-what', 'en', 'define', false, 'What does the rebase command do with the commits of a branch?', inAll('03-git-branching.md'), ['replay|重放|重演']),
  q('book', 'object-names', 'en', 'other', false, 'How does Git name the files it stores under the objects directory?', inAll('09-git-internals.md'), ['SHA-1', 'first 2|前两个|前兩個', '38']),

  // --- docs: the React docs in three languages; some pages in one language only.
  q('docs', 'render-steps', 'en', 'steps', false, 'What steps does React go through before a component shows up on screen?', inAll('render-and-commit.md'), ['trigger', 'render', 'commit']),
  q('docs', 'render-reasons', 'zh', 'reason', false, '一个组件在什么情况下会渲染？', inAll('render-and-commit.md'), ['初次渲染|initial render|初始渲染', 'state']),
  q('docs', 'compiler-what', 'zh', 'define', true, 'React 编译器是做什么用的？', ['raw/en/react-compiler-introduction.md'], ['optimiz|优化', 'build|构建|编译时']),
  q('docs', 'compiler-memo', 'zh-TW', 'list', true, 'React Compiler 的自動記憶化主要針對哪兩種情況？', ['raw/en/react-compiler-introduction.md'], ['cascading|re-render', 'expensive calculation']),
  q('docs', 'ref-vs-state', 'en', 'compare', false, 'How is a ref different from state?', ['raw/en/referencing-values-with-refs.md'], ['re-render', 'mutable']),
  q('docs', 'ref-vs-state-zh', 'zh', 'compare', true, 'ref 和 state 有什么区别？', ['raw/en/referencing-values-with-refs.md'], ['re-render|重新渲染', 'mutable|可变']),
  q('docs', 'add-ref', 'zh-TW', 'steps', true, '要怎麼在 component 裡加上一個 ref？', ['raw/en/referencing-values-with-refs.md'], ['useRef']),
  q('docs', 'thinking-steps', 'en', 'steps', true, 'What are the steps of building a UI the "thinking in React" way?', ['raw/zh/thinking-in-react.md'], ['拆解|component hierarchy|组件层级', '静态|static', '反向数据流|inverse data flow']),
  q('docs', 'product-list-state', 'en', 'reason', true, "In thinking in React, why isn't the original product list state?", ['raw/zh/thinking-in-react.md'], ['props']),
  q('docs', 'default-export-count', 'zh', 'number', false, '一个文件里可以有几个 default export？', ['raw/zh-tw/importing-and-exporting-components.md'], ['僅能有一個|只能有一个|一個 default export|only one']),
  q('docs', 'jsx-rules', 'en', 'list', false, 'What are the rules of JSX?', ['raw/en/writing-markup-with-jsx.md', 'raw/zh/writing-markup-with-jsx.md'], ['single root|一个根元素', 'close|闭合', 'camelCase|驼峰']),
  q('docs', 'component-name', 'zh-TW', 'other', false, 'React component 的名稱有什麼規定？', inAll('your-first-component.md'), ['大寫|大写|capital']),
  q('docs', 'nest-definitions', 'en', 'yesno', false, 'Can I define a component inside another component?', inAll('your-first-component.md'), ['never|不要|永远不要']),
  q('docs', 'render-nothing', 'en', 'other', false, 'What should a component return when it should render nothing at all?', inAll('conditional-rendering.md'), ['null']),
  q('docs', 'state-snapshot', 'en', 'define', false, 'Why is React state said to behave like a snapshot?', inAll('state-as-a-snapshot.md'), ['not change|不会更改|不會改變', 're-render|重新渲染|重新 render']),

  // --- meetings: Rust language team design meeting minutes (en).
  q('meetings', 'provenance', 'en', 'define', false, 'What is provenance in a memory model?', ['raw/2022-10-05-provenance.md'], ['address', 'state|remember']),
  q('meetings', 'provenance-against', 'zh', 'reason', true, '不要 provenance 的最大理由是什么？', ['raw/2022-10-05-provenance.md'], ['complexity|复杂']),
  q('meetings', 'provenance-for', 'zh', 'reason', true, '为什么编译器优化需要 provenance？', ['raw/2022-10-05-provenance.md'], ['alias|别名']),
  q('meetings', 'const-types', 'en', 'list', false, 'Which types may a const generic parameter have in the MVP?', ['raw/2020-07-22-Const-generics-MVP.md'], ['integral|u8|usize', 'char', 'bool']),
  q('meetings', 'const-float', 'zh', 'reason', true, 'const generics 的 MVP 为什么不支持浮点数？', ['raw/2020-07-22-Const-generics-MVP.md'], ['NaN']),
  q('meetings', 'ffi-proposal-two', 'en', 'other', false, 'Under proposal two of the ffi-unwind meeting, what does extern "C" mean?', ['raw/2020-03-16-ffi-unwind.md'], ['no unwind', 'UB|undefined']),
  q('meetings', 'stream-zh', 'zh', 'define', true, 'Rust 的 Stream trait 是什么？', ['raw/2020-08-26-stream-trait.md'], ['async|异步', 'iterator|迭代器']),
  q('meetings', 'transmute-approaches', 'en', 'list', false, 'What were the two main approaches discussed for safe transmute?', ['raw/2020-07-01-safe-transmute-typic.md'], ['ZeroCopy', 'Typic']),
  q('meetings', 'hard-deprecation', 'zh', 'other', true, 'lint 政策里，hard deprecation 在下一个 edition 是什么级别？', ['raw/2021-02-24-lints-and-editions.md'], ['deny']),
  q('meetings', 'edition-when', 'en', 'when', false, 'By when should the changes prepared for the 2021 edition start to materialize?', ['raw/2020-04-20-2021-edition-design.md'], ['October']),
  q('meetings', 'upcast-ub', 'en', 'reason', false, 'Why could upcasting a raw dyn pointer be undefined behavior?', ['raw/2021-10-20-dyn-upcast-and-safety.md'], ['vtable|metadata', 'load|not be valid|invalid']),

  // --- newsletter: This Week in Rust (en).
  q('newsletter', 'crate-656', 'en', 'who', false, 'Which crate was crate of the week in This Week in Rust 656?', ['raw/2026-06-17-this-week-in-rust.md'], ['marser']),
  q('newsletter', 'cargo-rdme', 'zh', 'define', true, 'cargo-rdme 是做什么的？', ['raw/2026-06-24-this-week-in-rust.md'], ['README']),
  q('newsletter', 'dashu', 'zh', 'define', true, 'dashu 这个 crate 是什么？', ['raw/2026-07-15-this-week-in-rust.md'], ['arbitrary precision|任意精度']),
  q('newsletter', 'rust-197', 'en', 'when', false, 'In which issue of the newsletter was Rust 1.97.0 announced?', ['raw/2026-07-15-this-week-in-rust.md'], ['660|2026-07-15|07-09|07/09']),
  q('newsletter', 'netstack-bugs', 'zh', 'number', true, 'Netstack3 的内部试用一年里在实际使用中发现了几个 bug？', ['raw/2026-07-29-this-week-in-rust.md'], ['Three|三个|三個']),
  q('newsletter', 'netstack-devices', 'en', 'number', false, 'At its peak, how many devices were in the Netstack3 dogfooding program?', ['raw/2026-07-29-this-week-in-rust.md'], ['60']),
  q('newsletter', 'tokio-wasm', 'zh-TW', 'define', true, 'tokio_with_wasm 可以做什麼？', ['raw/2026-08-19-this-week-in-rust.md'], ['browser|瀏覽器']),
  q('newsletter', 'literator', 'zh', 'reason', true, 'literator 这个 crate 好在哪里？', ['raw/2026-08-12-this-week-in-rust.md'], ['temporary allocation|临时分配']),
  q('newsletter', 'editorconfig', 'en', 'yesno', false, 'Is there a drop-in cargo fmt replacement that respects .editorconfig?', ['raw/2026-07-29-this-week-in-rust.md'], ['cargo-efmt']),

  // --- notes: functional programming notes (en) and a few Traditional Chinese notes.
  q('notes', 'currying', 'en', 'define', false, 'What is currying?', ['raw/en/currying.md'], ['nested', 'single argument']),
  q('notes', 'currying-zh', 'zh', 'define', true, '什么是柯里化？', ['raw/en/currying.md'], ['nested|嵌套', 'single argument|单个参数|一个参数']),
  q('notes', 'monoid-semigroup', 'en', 'compare', false, "What's the difference between a monoid and a semigroup?", ['raw/en/monoid.md', 'raw/en/semigroup.md'], ['identity']),
  q('notes', 'monoid-zh', 'zh-TW', 'define', true, '么半群（monoid）是什麼？', ['raw/en/monoid.md'], ['identity|單位元|单位元', 'associative|結合|结合']),
  q('notes', 'pure-zh', 'zh', 'define', true, '纯函数是什么意思？', ['raw/en/pure.md'], ['side effect|副作用']),
  q('notes', 'functor-laws', 'en', 'list', false, "Which laws must a functor's map obey?", ['raw/en/functor.md'], ['identity', 'composition']),
  q('notes', 'combinator-zh', 'zh', 'define', true, '组合子（combinator）是什么？', ['raw/en/combinator.md'], ['closed|封闭', 'lambda']),
  q('notes', 'psql-list-db', 'en', 'steps', true, 'How do I list every database in psql?', ['raw/zh-tw/psql常用指令.md'], ['`\\l`']),
  q('notes', 'psql-timing', 'zh', 'steps', false, 'psql 里怎样显示每条 SQL 执行花了多久？', ['raw/zh-tw/psql常用指令.md'], ['\\timing']),
  q('notes', 'psql-connections', 'en', 'other', true, 'How can I see how many connections PostgreSQL has open right now?', ['raw/zh-tw/psql常用指令.md'], ['pg_stat_activity']),
  q('notes', 'llm-mac', 'zh-TW', 'number', false, '作者在 Mac Studio 上跑到了多少 tokens/s？', ['raw/zh-tw/Your local LLM is 10x slower.md'], ['1,226|1226']),
  q('notes', 'llm-balance', 'en', 'steps', true, 'How does the local LLM video spread requests over several llama servers?', ['raw/zh-tw/Your local LLM is 10x slower.md'], ['Nginx', 'Round Robin|輪詢']),
  q('notes', 'layer-best', 'zh', 'compare', false, '隐藏 3D 打印层线，哪种方法效果最好？', ['raw/zh-tw/隱藏3D列印層線.md'], ['打磨|補土|补土|噴漆|Sand']),
  q('notes', 'layer-speed', 'en', 'number', true, 'How well does printing slower hide layer lines?', ['raw/zh-tw/隱藏3D列印層線.md'], ['10%']),
];
