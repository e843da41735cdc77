import { foldText } from '../text/fold.js';
import * as EN from '../text/lang/en.js';
import { anyOf } from '../text/lang/words.js';
import * as ZH from '../text/lang/zh.js';

/**
 * What a question asks for. `define`: what X is; `list`: several things (有哪些, "what are the");
 * `several`: any 哪些, enough to read a lead-in's labels as a list; `steps`: an ordered process;
 * `number`: an amount; `when`: a date or time; `reason`: why; `purpose`: what X is for (answered,
 * as `define` is, by what a statement says of X); `compare`: how two things differ; `superlative`:
 * which one ranks above the rest (the best method, 最大的理由); `expand`: what an abbreviation
 * stands for (SRS 是什么的缩写, what does RRF stand for); `source`: which text of a series or part of
 * a work says something (in which issue, 哪一期), answered with that text's title.
 */
export type Intent =
  | 'define'
  | 'purpose'
  | 'compare'
  | 'list'
  | 'several'
  | 'steps'
  | 'number'
  | 'when'
  | 'reason'
  | 'superlative'
  | 'expand'
  | 'source';

/** One way a language asks for something, with questions that must and must not read so. */
export interface IntentRule {
  id: string;
  language: 'en' | 'zh';
  intent: Intent;
  /** Tested on the question; for `define` and `purpose`, on the question without its final punctuation, group 1 the subject. */
  pattern: RegExp;
  match: string[];
  notMatch: string[];
}

const ZH_COUNTER = `[${ZH.COUNTERS.join('')}]`;
const ZH_COUNTED = `[两${ZH.NUMERALS.join('')}\\d]`;

/** A Chinese text that ranks one thing above the rest (最好, 最一致; not 最后, 最近). */
export const ZH_SUPERLATIVE = new RegExp(`(?!${anyOf(ZH.NOT_SUPERLATIVE)})${ZH.SUPERLATIVE}`, 'u');
/** An English text that does (the best, the biggest downside). */
export const EN_SUPERLATIVE = new RegExp(`\\b(?:${anyOf(EN.SUPERLATIVES)})\\b`, 'iu');

/** Every rule, by language and intent; their examples run as tests (intent.test.ts). */
export const INTENT_RULES: readonly IntentRule[] = [
  {
    id: 'zh-define-lead',
    language: 'zh',
    intent: 'define',
    pattern: /^(?:请问)?(?:什么是|何为|何谓)\s*(.{1,40})$/u,
    match: ['什么是向量数据库？', '何谓 RAG', '请问什么是提示注入'],
    notMatch: ['为什么要用向量数据库？', '向量数据库怎么建索引'],
  },
  {
    id: 'zh-define-tail',
    language: 'zh',
    intent: 'define',
    pattern: /^(.{1,40}?)\s*(?:是什么|是指什么|指的是什么|是啥)(?:意思|东西)?$/u,
    match: ['嵌入是什么？', 'RAG 指的是什么', '所有权是什么意思'],
    notMatch: ['嵌入有什么用？', '为什么需要嵌入'],
  },
  {
    id: 'en-define',
    language: 'en',
    intent: 'define',
    pattern: /^what(?:'s| is| are)\s+(?!the\s+differences?\s)(?:an?\s+|the\s+)?(.{1,60})$/iu,
    match: ['What is a vector database?', "what's RAG", 'What are embeddings?'],
    notMatch: [
      'What does the scheduler do?',
      'Why is RAG useful?',
      'Who is the author?',
      "What's the difference between a cache and a buffer?",
    ],
  },
  {
    id: 'zh-purpose',
    language: 'zh',
    intent: 'purpose',
    pattern:
      /^(.{1,40}?)\s*(?:是用来(?:做|干)什么的?|是(?:做|干)什么用的|有什么用(?:处)?|的作用是什么|用来(?:做|干)什么)$/u,
    match: ['git bisect 是用来做什么的？', '消息队列是做什么用的？', '嵌入有什么用？'],
    notMatch: ['什么是嵌入？', '为什么要用嵌入？'],
  },
  {
    id: 'en-purpose',
    language: 'en',
    intent: 'purpose',
    pattern:
      /^what (?:is|are) (?:an?\s+|the\s+)?(.{1,60}?) (?:used|good) for$|^what does (?:an?\s+|the\s+)?(.{1,60}?) do$/iu,
    match: ['What is git bisect used for?', 'What does the scheduler do?'],
    notMatch: ['What is git bisect?', 'Why does the scheduler fail?'],
  },
  {
    id: 'zh-compare',
    language: 'zh',
    intent: 'compare',
    pattern:
      /(?:和|与|跟|與|同).{1,30}?(?:有)?(?:什么|什麼|哪些|何)?(?:区别|區別|不同|差别|差別|差异|差異)|相比|比较|比較/u,
    match: ['ref 和 state 有什么区别？', 'Git 与 SVN 的差异', '相比 SVN，Git 好在哪里？'],
    notMatch: ['什么是 ref？', '为什么要用 state？'],
  },
  {
    id: 'en-compare',
    language: 'en',
    intent: 'compare',
    pattern: /\b(?:versus|vs\.?|compared? (?:to|with)|differen(?:t|ce|ces) (?:from|between)|differ from)\b/iu,
    match: [
      'How is a ref different from state?',
      'errors.Is versus errors.As: what does each check?',
      'What is the difference between a and b?',
    ],
    notMatch: ['What is a ref?', 'How do I compare strings?'],
  },
  {
    id: 'zh-list',
    language: 'zh',
    intent: 'list',
    pattern: new RegExp(
      `(?:有|支持|包括|包含|提供)哪些|(?:${anyOf(ZH.PROCESS_WORDS)})(?:是什么|是怎样|如何)|有哪几|哪几${ZH_COUNTER}|几(?:${ZH_COUNTER}|大)|${ZH_COUNTED}+\\s*(?:${ZH_COUNTER}|大)(?!.*[吗么])|列出|列举`,
      'u',
    ),
    match: [
      '向量数据库有哪些索引？',
      '卡片笔记分哪几类',
      '有五种模式',
      '构建流程是什么？',
      '列出所有命令',
      '卡片筆記分哪幾類',
    ],
    notMatch: ['什么是向量数据库？', '三个人去了吗？', '为什么要用索引'],
  },
  {
    id: 'en-list',
    language: 'en',
    intent: 'list',
    pattern: new RegExp(
      `\\bwhat are (?:the|some)\\b|\\bwhich (?:are|\\w+s)\\b|\\blist (?:the|all)\\b|\\bname the\\b|\\bhow many (?:\\w+ )?(?:${EN.COUNTERS.map((c) => `${c}s`).join('|')}|types|kinds)\\b|\\bwhat (?:\\w+ )?\\w+s (?:does|do|did|can|could|will|would)\\b`,
      'iu',
    ),
    match: [
      'What are the main parts of a compiler?',
      'Which tools does it use?',
      'List the steps',
      'How many patterns are there?',
      'What features does it support?',
    ],
    notMatch: ['What is a vector database?', 'Why does it fail?', 'How many users signed up?'],
  },
  {
    id: 'zh-several',
    language: 'zh',
    intent: 'several',
    pattern: /哪些/u,
    match: ['还有哪些重建也支持增量？'],
    notMatch: ['哪个版本最快？'],
  },
  {
    id: 'zh-steps',
    language: 'zh',
    intent: 'steps',
    pattern: new RegExp(anyOf(ZH.PROCESS_WORDS), 'u'),
    match: ['检索增强生成有哪些步骤？', 'RAG 的基本流程是什么'],
    notMatch: ['向量数据库有哪些索引？'],
  },
  {
    id: 'en-steps',
    language: 'en',
    intent: 'steps',
    pattern: /\bsteps\b|\b(?:process|workflow|pipeline)\b/iu,
    match: ['What are the steps of a compile?', 'How does the review process work?'],
    notMatch: ['What does step 2 say?', 'What are the patterns?'],
  },
  {
    id: 'zh-number',
    language: 'zh',
    intent: 'number',
    pattern: /多少|几(?![乎何])|百分之|比例/u,
    match: ['上下文窗口有多少个词元？', '一共几个阶段', '占多大比例'],
    notMatch: ['几乎所有人都用吗？', '什么是几何平均？'],
  },
  {
    id: 'en-number',
    language: 'en',
    intent: 'number',
    pattern: /\bhow (?:many|much|long|old|far|large|big|tall)\b|\bwhat percentage\b/iu,
    match: ['How many tokens fit in the window?', 'How long does a compile take?', 'What percentage failed?'],
    notMatch: ['How does it work?', 'What is a token?'],
  },
  {
    id: 'zh-when',
    language: 'zh',
    intent: 'when',
    pattern: /哪一?年|何年|何时|什么时候|年份|日期/u,
    match: ['它是哪一年发布的？', '什么时候开始支持？'],
    notMatch: ['为什么要发布？'],
  },
  {
    id: 'en-when',
    language: 'en',
    intent: 'when',
    pattern: /\bwhen\b|\bwhat (?:year|date)\b/iu,
    match: ['When was it released?', 'What year did the project start?'],
    notMatch: ['Where is it stored?', 'Whenever possible?'],
  },
  {
    id: 'zh-reason',
    language: 'zh',
    intent: 'reason',
    pattern: /为什么|为何|何以|原因|理由/u,
    match: ['为什么要分块？', '失败的原因是什么', '不用它的理由是什么？'],
    notMatch: ['什么是分块？'],
  },
  {
    id: 'zh-superlative',
    language: 'zh',
    intent: 'superlative',
    pattern: ZH_SUPERLATIVE,
    match: ['哪种方法效果最好？', '不用它的最大理由是什么？'],
    notMatch: ['最后一步是什么？', '最近有哪些更新？', '哪种方法更好？'],
  },
  {
    id: 'en-superlative',
    language: 'en',
    intent: 'superlative',
    pattern: EN_SUPERLATIVE,
    match: ['Which method works best?', 'What is the biggest downside?', 'Which is the most common error?'],
    notMatch: ['What is the last step?', 'Which method works better?', 'What is the test for?'],
  },
  {
    id: 'zh-expand',
    language: 'zh',
    intent: 'expand',
    pattern:
      /是(?:什么|哪几个词|哪些词)的(?:缩写|缩略语|簡寫|縮寫|简称)|的(?:全称|全稱|全名)|(?:缩写|縮寫)(?:自|是)什么/u,
    match: ['SRS 是什么的缩写？', 'RRF 的全称是什么？', 'ADK 是哪几个词的缩写？'],
    notMatch: ['SRS 是什么？', '为什么要缩写文件名？', '怎么写全文检索？'],
  },
  {
    id: 'en-expand',
    language: 'en',
    intent: 'expand',
    pattern: /\bstands? for\b|\bshort for\b|\babbreviation (?:of|for)\b|\bfull (?:name|form) of\b|\bacronym\b/iu,
    match: ['What does RRF stand for?', 'What is SRS short for?', 'What is the full name of HNSW?'],
    notMatch: ['What does RRF do?', 'What is a short note?', 'Which values does it stand beside?'],
  },
  {
    id: 'zh-source',
    language: 'zh',
    intent: 'source',
    pattern: new RegExp(`(?:哪|第几)一?(?:${anyOf(ZH.WORK_PARTS)})`, 'u'),
    match: ['新版本是在哪一期周刊里发布的？', '这个问题在哪篇文章里讲过？', '第几章讲到了分支？'],
    notMatch: ['周刊每期有几篇文章？', '哪个版本最快？'],
  },
  {
    id: 'en-source',
    language: 'en',
    intent: 'source',
    pattern: new RegExp(
      `\\b(?:in|from) (?:which|what) (?:\\w+ )?(?:${anyOf(EN.WORK_PARTS)})\\b|^(?:which|what) (?:\\w+ )?(?:${anyOf(EN.WORK_PARTS)})\\b(?! of\\b)`,
      'iu',
    ),
    match: [
      'In which issue of the digest was the new release announced?',
      'Which chapter explains rebasing?',
      'In what blog post did they drop the flag?',
    ],
    notMatch: [
      'Which issues does the release fix?',
      'What section of the config holds the port?',
      'How many issues are there?',
    ],
  },
  {
    id: 'en-reason',
    language: 'en',
    intent: 'reason',
    pattern: /\bwhy\b|\breason\b/iu,
    match: ['Why does the cache help?', 'What is the reason for two replicas?'],
    notMatch: ['What does the cache do?'],
  },
];

/** A question without its final punctuation and spaces, as `define` rules read it. */
function bare(question: string): string {
  return question.trim().replace(/[?？。.!！\s]+$/u, '');
}

/** Whether a rule reads the text as asking for its intent: in Simplified spelling, as the rules are written (哪幾類 as 哪几类). */
export function ruleMatches(rule: IntentRule, text: string): boolean {
  const folded = foldText(text);
  return rule.pattern.test(rule.intent === 'define' || rule.intent === 'purpose' ? bare(folded) : folded);
}

/** What a question asks for: every intent a rule reads in it. */
export function intentsOf(question: string): Set<Intent> {
  const out = new Set<Intent>();
  for (const r of INTENT_RULES) if (ruleMatches(r, question)) out.add(r.intent);
  return out;
}

/** Whether any rule of this intent reads the text so (a heading that names a process asks for steps). */
export function asks(text: string, intent: Intent): boolean {
  return INTENT_RULES.some((r) => r.intent === intent && ruleMatches(r, text));
}

/** What a "什么是 X？" / "What is X?" / "X 是用来做什么的？" question asks about: X, or undefined. */
export function definedSubject(question: string): string | undefined {
  const q = bare(question);
  for (const r of INTENT_RULES) {
    if (r.intent !== 'define' && r.intent !== 'purpose') continue;
    const m = r.pattern.exec(q);
    const subject = (m?.[1] ?? m?.[2])?.trim();
    if (subject) return Array.from(subject).length >= 2 ? subject : undefined;
  }
  return undefined;
}

/** A subject put in a frame (provenance in a memory model): the part before the frame. */
const FRAMED = new RegExp(`^(.+?)\\s+(?:${anyOf(EN.SUBJECT_TAILS)})\\s`, 'iu');

/**
 * The names a statement may call the subject by: the subject, the gloss it gives in brackets
 * (组合子（combinator）: 组合子, combinator), what follows a possessive (Rust 的 Stream trait: Stream
 * trait), and the subject without a frame it is put in (provenance in a memory model: provenance).
 */
export function subjectNames(subject: string): string[] {
  const out = new Set<string>();
  const add = (s: string | undefined) => {
    const t = s?.trim().replace(/^(?:an?|the)\s+/i, '');
    if (t && Array.from(t).length >= 2) out.add(t);
  };
  const gloss = /^(.+?)\s*[(（]([^()（）]+)[)）]\s*$/u.exec(subject);
  for (const s of gloss ? [gloss[1]!, gloss[2]!] : [subject]) {
    add(s);
    add(/的\s*(.+)$/u.exec(s)?.[1]);
    add(FRAMED.exec(s)?.[1]);
  }
  return [...out];
}
