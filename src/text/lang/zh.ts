/**
 * Chinese, as data: the words kb's passes read by, one list per role, defined once. Simplified
 * forms; Traditional text is folded to them before it is compared (text/fold.ts).
 */
import { wordList } from './words.js';

/** Function words (particles, pronouns, prepositions, conjunctions): search leaves them out. */
export const FUNCTION_WORDS = new Set(
  wordList(`的 了 是 在 和 与 也 就 都 而 及 等 着 之 其 或 并 被 把 对 于 从 向 以 为 由 则 即 又 但 很 这 那 个
  我们 你们 他们 她们 它们 这个 那个 一个 可以 因为 所以 但是 如果 这些 那些 以及 或者 而且 并且 通过 进行
  没有 什么 已经 还是 就是 不是 这样 那样 其中 之一 由于 对于 关于 我 你 他 她 它`),
);

/** Single characters that carry no topic: low weight alone, left out of character pairs. */
export const FUNCTION_CHARS = new Set([
  ...'的了是在和与也就都而及等着之其或并被把对于从向以为由则即又但很这那个我你他她它们',
]);

/** Function words and generic terms: never entities. */
export const STOP = new Set([
  ...FUNCTION_WORDS,
  ...wordList(`让 给 一种 一些 自己 怎么 如何 为什么 能够 需要 应该 更加 非常 比较 一样 虽然 然后 可能 只是 只有
  还有 还要 不会 不能 之后 之前 时候 问题 方法 方式 东西 事情 部分 情况 内容 结果 过程 时间 数据 系统 信息 工作
  很多 许多 所有 每个 各种 不同 相同 第一 第二 最后 首先 其次 例如 比如 同时 另外 此外 总之 因此 于是 这里 那里
  今天 现在 之间 里面 上面 下面 方面 作为 成为 包括 基于 根据 一般 主要 重要 简单 直接 一直 开始 出现 得到 觉得
  认为 知道 看到 发现 用户 文档 文章 笔记 使用 利用`),
]);

/**
 * Everyday nouns of computing and the labels of a text's layout (en.GENERIC's examples, summaries,
 * chapters and steps, said in Chinese): no concept of their own, whatever a heading does with them.
 */
export const GENERIC = new Set(
  wordList(`应用程序 浏览器 编辑器 服务器 计算机 程序员 工程师 用户界面 软件 硬件 网站 网页 文件夹 持续时间 开发人员
  使用者 截图 屏幕截图 第一版 数小时 示例 例子 样例 范例 演示 摘要 简介 引言 结论 目录 索引 参考资料 来源 作者
  日期 标题 章节 小节 附录 注意事项 提示 警告 步骤 页面 按钮 菜单 窗口 默认值`),
);

/** Words a question asks with: what they ask is not what the notes say (做什么的 holds 什么的, "and so forth" to a dictionary). */
export const QUESTION_WORDS = new Set(
  wordList(
    '什么 什么样 什么的 多少 哪 哪里 哪儿 哪个 哪些 哪一 谁 怎么 怎样 怎么样 如何 为什么 为何 几 是否 是不是 吗 呢 何时 何地',
  ),
);

/** Words that ask how to do something (如何修改…, 怎么安装…): the verb after one is the action asked about, not a subject. */
export const HOW_WORDS = new Set(wordList('如何 怎么 怎样 怎么样 如何才能 怎么才能 怎样才能'));

/** Coverbs that lead a verb to its object or goal (发送给, 传递到, 转向, 面向): a word ending in one after a verb is a predicate. */
export const COVERBS = new Set([...'给到向往于']);

/**
 * Directional complements (录下来, 存起来, 打印出来, 传过去): a verb written with one is a predicate
 * of the sentence, never a name.
 */
export const DIRECTIONALS = wordList('下来 上来 起来 出来 进来 回来 过来 开来 下去 上去 出去 进去 回去 过去');

/** Single characters of questions and particles, too common to translate alone. */
export const QUESTION_CHARS = new Set([...'吗呢吧啊么什哪谁几多少怎何有']);

/**
 * Interrogatives (什么, 哪, 谁, 多少, 如何, 几 …): a question's own words for what it asks, which the
 * sentence that answers it says otherwise (谁 → a name, 多少 → a number). Not 几乎, 茶几, 几何, 任何,
 * 吗啡. With them the words that shape a question about several things (Lint 和 Heal 分别做什么,
 * 重置和压缩有什么区别): a sentence holding 分别 or 区别 is no closer to the answer. And the words
 * of a question about a purpose (是做什么用的, 有什么用): the answer says what the thing does.
 * 什么 takes the noun of time or case it makes (什么时候, 在什么情况下): the answer names the time or
 * case instead. 几 and 哪 leave their measure words, which the answer keeps (几种 → 三种, 哪个 → 这个:
 * blanked, xquad-zh lost docHit5 0.998 -> 0.997).
 */
export const INTERROGATIVE =
  /是(?:用来)?[做干]什么用?的?|用来[做干]什么的?|[做干]什么用的?|有什么用处?|为什么|(?:在|是)?什么(?:时候|情况下?|场合|地方|样的?)|什么|怎么样|怎么|怎样|如何|为何|哪|多少|多久|谁|(?<![任如为])何[时地处种人年]|(?<!茶)几(?![乎何])|是否|吗(?!啡)|呢|啥|分别(?=[是做有为在指用能会叫]|\p{Script=Han}?[什哪多怎如])|各自|(?<=有什么|有何|的)(?:区别|差别|差异|不同)(?=[?？是在吗]|$)/gu;

/** The question with its Chinese interrogatives blanked out (English ones are in en.STOP). */
export function withoutInterrogatives(question: string): string {
  return question.replace(INTERROGATIVE, ' ');
}

/**
 * Words a title uses for what kind of text it is, not what it is about: "分支简介", "Git 基础"; the
 * subject of a work is looked for among the title's other words.
 */
export const TITLE_GENRE = new Set(
  wordList(`翻译 译文 原文 转载 你的 我的 第一个 第一篇 如同 简介 介绍 入门 笔记 指南 教程 概述 概览 总结 会议 纪要
  初探 浅谈 详解 基础 起步 章 第 篇 简述 小结 问答 速查 手册 学习 心得 周刊 每周 本周 更新 发布 预览 讨论 提案 常用
  指令 命令 用法 技巧
  什么 如何 为什么 怎么 怎样 关于 的 与 和 及 之`),
);

/** Numerals one to ten, in order. */
export const NUMERALS = [...'一二三四五六七八九十'];

/** Counters (measure words) a question or a numbered line counts with: 五种, 第三步, 哪几点. */
export const COUNTERS = [...'种个类步条项点层'];

/** Measure words and nouns for one text of a series or a part of a work (哪一期, 哪篇文章, 哪一章): asked for, the answer is its title. */
export const WORK_PARTS = wordList('期 篇 章 节 集 次会议 份');

/** Words that ask for an ordered process. */
export const PROCESS_WORDS = wordList('步骤 流程');

/** Words that give a reason or a purpose. */
export const REASON_CUES = wordList('因为 由于 所以 因此 因而 为了 以便 以免 否则 原因 导致');

/**
 * Words that open a clause of reason, purpose, condition or time (由于评估器是主动浏览页面…, 如果…):
 * a name after them is the clause's, and the sentence says when or why, not what the name is.
 */
export const CLAUSE_OPENERS = wordList(
  '由于 由於 因为 因為 为了 為了 如果 假如 要是 虽然 雖然 尽管 儘管 即使 一旦 只要 除非 既然',
);

/** The mark that ranks one thing above the rest (最好, 最大, 最一致), and words it starts that rank nothing (最后, 最近). */
export const SUPERLATIVE = '最';
export const NOT_SUPERLATIVE = wordList('最后 最後 最近 最终 最終 最初');

/** Words with which a sentence leans on the one before it. */
export const CONNECTIVES = wordList(
  '然后 但是 但 而且 所以 因此 于是 此外 另外 不过 同时 接着 其次 最后 首先 例如 比如',
);

/**
 * Verbs that put on screen or say a string (显示「Walk」, 输出「Hello」): what they quote is UI text or
 * output, not a name the text stresses.
 */
export const SHOW_VERBS = wordList('显示 顯示 输出 輸出 打印 印出 写着 寫著 提示 回传 回傳 返回 弹出 彈出');

/** Verbs of a step in a user interface (点击「设置」): what they act on, marked, is a control's label. */
export const UI_VERBS = wordList('点击 點擊 单击 單擊 点选 點選 轻点 輕點 点按 點按 勾选 勾選 选择 選擇 按下');

/** Nouns of a control after its label (「发布」按钮). */
export const UI_CONTROLS = wordList('按钮 按鈕 菜单 選單 选单 对话框 對話框 选项 選項 标签页 分頁 图标 圖示 开关 開關');

/** Labels of a document's header lines: who wrote it, where from, when. */
export const HEADER_LABELS = wordList('作者 译者 来源 出处 原文链接 原文地址 原文 项目地址 发布时间 发布日期');

/**
 * The word that asks the reader to do something (请参阅, 请注意, 請確認): a request and its verb are
 * an instruction in the text's UI, never a name (请求, 请柬 are words of their own).
 */
export const REQUEST = '请';

/**
 * Characters that make one word with the noun after them (单页面应用, 多语言, 非阻塞, 微服务, 跨平台,
 * 反模式, 伪代码, 半结构化, 超文本), which jieba writes apart: a term read from that noun begins with them.
 */
export const BOUND_PREFIXES = new Set([...'单多非超微跨反伪半准']);

/**
 * Bound prefixes that negate or invert the noun after them (非关系型 non-relational, 反模式
 * anti-pattern, 无服务器 serverless): without them a term says the opposite, so a term read from that
 * noun always begins with them, whatever its gloss spells.
 */
export const NEGATING_PREFIXES = new Set([...'非反无']);

/** Labels of a list of related links, not of statements. */
export const RELATED_LABELS = wordList('相关 另见 参见 参考 参考资料 链接 延伸阅读');

/** What the offline answer says when no statement answers with confidence, before the passages likeliest to. */
export const UNSURE = '知识库里没有哪句话能确定地回答这个问题；最可能包含答案的段落如下：';

/** Verbs by which a statement says what its subject is (X 是…, X 指的是…): 指 alone also points (指向), so only its compounds. */
export const DEFINING = wordList('是 是指 指的是 即 就是 意思是 意为 意指 定义为 用来 用于 可以');

/** 是 and a measure word: "X 是一种…" says what kind of thing X is. */
export const GENUS_COPULAS = wordList('是一种 是一個 是一个 是一類 是一类 是一套 是一組 是一组 是一種');

/** Words by which a statement names what it has described (这种做法后来被称为 Folgezettel). */
export const CALLED = wordList('称为 称作 叫做 叫作 名为 稱為 稱作 名為');

/** Words by which a statement sets two things against each other. */
export const CONTRAST_CUES = wordList('不同 区别 區別 不像 相比 相较 相對 相对 而是 反之 然而 但是 与之相反');

/** Numerals beyond ten and the measure words a number is counted in (Simplified and Traditional): 三个, 一個, 两倍. */
export const BIG_NUMERALS = [...'百千万萬亿億两兩'];
export const MEASURES = wordList('年 月 日 个 個 次 人 名 位 种 種 座 公里 米 倍 项 項 条 條 步 张 張 % ％');

/** Words that end a clause pointing ahead to a list (“其要点在于：”): without its list the clause says nothing. */
export const POINTS_AHEAD = wordList('在于 如下 包括 有以下 以下几 是这样 如下所示 为例 比如 例如 诸如 包含');
