/** English function words and very generic nouns: never entities, never at a phrase's edge. */
export const EN_STOP = new Set(
  `a about above after again against all also am an and any are as at be because been before being below between both but by can could did do does doing down during each either else even ever every few for from further had has have having he her here hers him his how however i if in into is it its itself just least less let like made make many may me might more most much must my neither no nor not now of off often on once one only or other our ours out over own per quite rather same she should since so some such than that the their theirs them then there these they this those though through thus to too under until up upon us very via was we were what when where whether which while who whom whose why will with within without would yet you your yours
  example examples thing things way ways lot lots kind kinds part parts use used uses using case cases time times number numbers new old good bad first second last next another each many several various different same other others own small large big little great high low long short full main simple easy hard real true false set sets get gets got make makes made take takes note notes see also etc e.g i.e vs`.split(
    /\s+/,
  ),
);

/** Capitalised words that start sentences or headings but name nothing. */
export const CAP_STOP = new Set(
  `a an the this that these those it its in on at to for from by with of and or but if when while as so then there here what which who why how all any each every some no not yes also however therefore thus we you they he she i our your their my his her one two three first second third finally next last today yesterday tomorrow note notes see example examples figure table step steps summary introduction conclusion overview background why what how january february march april may june july august september october november december monday tuesday wednesday thursday friday saturday sunday ok todo faq q a`.split(
    /\s+/,
  ),
);

/**
 * Chinese interrogatives (什么, 哪, 谁, 多少, 如何, 几 …): a question's own words for what it asks,
 * which the sentence that answers it says otherwise (谁 → a name, 多少 → a number). Not 几乎,
 * 茶几, 几何, 任何, 吗啡. With them the words that shape a question about several things (Lint 和
 * Heal 分别做什么, 重置和压缩有什么区别): a sentence holding 分别 or 区别 is no closer to the answer.
 */
const ZH_INTERROGATIVE =
  /为什么|什么|怎么样|怎么|怎样|如何|为何|哪|多少|多久|谁|(?<![任如为])何[时地处种人年]|(?<!茶)几(?![乎何])|是否|吗(?!啡)|呢|啥|分别(?=[是做有为在指用能会叫]|\p{Script=Han}?[什哪多怎如])|各自|(?<=有什么|有何|的)(?:区别|差别|差异|不同)(?=[?？是在吗]|$)/gu;

/** The question with its Chinese interrogatives blanked out (English ones are in EN_STOP). */
export function withoutInterrogatives(question: string): string {
  return question.replace(ZH_INTERROGATIVE, ' ');
}

/** Chinese function words and generic terms. */
export const ZH_STOP = new Set(
  `的 了 是 在 和 与 也 就 都 而 及 等 或 把 被 让 给 对 从 向 以 之 其 这 那 这个 那个 这些 那些 一个 一种 一些 我们 你们 他们 它们 我 你 他 她 它 自己 什么 怎么 如何 为什么 因为 所以 但是 但 如果 虽然 然后 可以 可能 能够 需要 应该 已经 还是 就是 不是 没有 通过 进行 使用 利用 一样 这样 那样 非常 比较 更加 以及 并且 而且 或者 其中 之后 之前 时候 问题 方法 方式 东西 事情 部分 情况 内容 结果 过程 时间 数据 系统 信息 工作 很多 许多 所有 每个 各种 不同 相同 第一 第二 最后 首先 其次 例如 比如 同时 另外 此外 总之 因此 于是 只是 只有 还有 还要 不会 不能 这里 那里 今天 现在 之间 里面 上面 下面 方面 作为 成为 包括 基于 关于 对于 根据 一般 主要 重要 简单 直接 可能 一直 已经 开始 出现 得到 觉得 认为 知道 看到 发现 需要 用户 文档 文章 笔记`.split(
    /\s+/,
  ),
);

/**
 * Words that are capitalised as labels, log levels, literals or UI text (`Chapter 3`, `None`,
 * `error`, `Click`), never concepts of their own.
 */
export const GENERIC = new Set(
  `chapter listing figure fig table section page step round part appendix note tip tips warning warnings error errors info debug notice todo fixme none null nil true false undefined nan yes no ok okay click create open close save cancel submit edit delete update run start stop next previous back home menu button tab window file files folder line lines item items list value values result results output input default example sample test tests demo version v1 v2 summary abstract introduction conclusion contents index reference references source sources author date title`.split(
    /\s+/,
  ),
);

/** The placeholder names of examples (metasyntactic variables): `Foo`, `impl Bar for Baz`, hoge. */
export const PLACEHOLDERS = new Set(
  'foo bar baz qux quux corge grault garply waldo fred plugh xyzzy thud foobar hoge fuga piyo'.split(' '),
);

/** Adjectives that qualify without naming ("other tools", "new approach"): dropped from a phrase's start. */
export const GENERIC_ADJ = new Set(
  `other new old many much more most few several various different same similar good better best bad worse simple complex whole entire specific certain following previous single multiple own main important key major minor real actual current recent early late large small big little high low long short full certain possible available common general typical basic additional further final initial original overall particular special entire existing unused used valid invalid relevant related corresponding respective given proper necessary useful usual`.split(
    /\s+/,
  ),
);
