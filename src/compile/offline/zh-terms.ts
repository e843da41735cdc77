import { WEIGHTS } from './weights.js';
import { HAN } from '../../text/script.js';
import { isCommonEnglishWord } from '../../text/english-words.js';
import { idfOf, tagZh } from '../../text/jieba.js';
import { foldText, mainlandWord } from '../../text/fold.js';
import * as ZH from '../../text/lang/zh.js';

/** A word as jieba tagged it, with where it sits in the original text. */
export interface ZhToken {
  word: string;
  tag: string;
  start: number;
  end: number;
}

/** Nouns, proper names, abbreviations and set phrases: what a term is made of. */
const NOUNISH = new Set(['n', 'nz', 'nt', 'ns', 'nrfg', 'j', 'l', 'vn', 'ng', 'an']);
/** One-character words that end a term (智能/体, 规划/器, 隔离/法); others (时, 源) only cut a phrase. */
const SUFFIX = new Set([...'体器性法库者化度率式型图表链栈层池网机']);
/** Classifiers: 篇文章 and 条边界 are a measure word glued to a word. */
const CLASSIFIER = new Set([...'个篇条张种位名次份项件类些每本段句']);
/** Names of people are noise unless a text keeps coming back to them. */
const PERSON = new Set(['nr']);
/** Tags a single word stands as a term with. */
const SINGLE = new Set(['n', 'nz', 'nt', 'ns', 'nrt', 'nrfg', 'j']);
const HAN_ONLY = /^[\u3400-\u9fff]+$/;

/**
 * Tag a text with jieba. Traditional characters are folded to Simplified first (jieba's dictionary
 * is Simplified; 所有權規則 would come out as single characters), and the tokens keep the offsets of
 * the original text, so a term is read back as it was written.
 */
export function tokenizeZh(text: string): ZhToken[] {
  const folded = foldText(text);
  const sameLength = folded.length === text.length;
  const out: ZhToken[] = [];
  let at = 0;
  for (const t of tagZh(sameLength ? folded : text)) {
    out.push({
      word: sameLength ? text.slice(at, at + t.word.length) : t.word,
      tag: t.tag,
      start: at,
      end: at + t.word.length,
    });
    at += t.word.length;
  }
  return out;
}

function isCommonWord(folded: string): boolean {
  const idf = idfOf(folded);
  return idf !== undefined && idf < WEIGHTS.COMMON_IDF;
}

function hanLength(s: string): number {
  return (s.match(/[\u3400-\u9fff]/g) ?? []).length;
}

/** A word that can start or continue a Chinese term; a one-character word only ends one. */
function termPart(t: ZhToken, first = false): boolean {
  // A place word may go on a run after a noun (上下文/窗口), never open one (本地/存储, 国内/市场).
  const place = !first && t.tag === 's' && t.word.length > 1;
  if ((!NOUNISH.has(t.tag) && !place) || !HAN_ONLY.test(t.word) || predicateWord(foldText(t.word))) return false;
  return t.word.length > 1 || (!first && SUFFIX.has(t.word));
}

const PREDICATE = new Map<string, boolean>();

/**
 * A word jieba's dictionary holds as one and tags a noun that is a predicate: a verb and the coverb
 * that leads to its object (发送给 send to, 传递到 pass on to: zh.COVERBS), or an adverb and the verb
 * or adjective it qualifies (完全免费 completely free). No part of a name; 自然语言 (自然 + the noun
 * 语言) and 快速排序 (two words) are not such words.
 */
function predicateWord(word: string): boolean {
  if (word.length < 3) return false;
  let v = PREDICATE.get(word);
  if (v === undefined) {
    const tagOf = (w: string) => {
      const t = tagZh(w);
      return t.length === 1 ? t[0]!.tag : undefined;
    };
    const toward = ZH.COVERBS.has(word[word.length - 1]!) && tagOf(word.slice(0, -1)) === 'v';
    const qualified =
      word.length === 4 &&
      ['d', 'ad'].includes(tagOf(word.slice(0, 2)) ?? '') &&
      ['v', 'vn', 'a'].includes(tagOf(word.slice(2)) ?? '');
    v = toward || qualified;
    if (PREDICATE.size > 10_000) PREDICATE.clear();
    PREDICATE.set(word, v);
  }
  return v;
}

/**
 * Qualities and roles (一致性, 结构化, 复杂度, 开发者), "-able" words (可验证) and everyday things of
 * software (应用程序, 浏览器): words, not terms, when they stand alone.
 */
const GENERIC_SUFFIX = /^可|[性化度者力]$/;
/** Words of manner and grade (分布式 distributed, 交互式 interactive, 轻量级 lightweight): adjectives, not things. */
const MANNER_SUFFIX = /[式级]$/;

/** An everyday word or a classifier glued to one: no concept of its own. */
export function isCommonZh(word: string): boolean {
  const folded = mainlandWord(word);
  if (isCommonWord(folded) || ZH.GENERIC.has(folded)) return true;
  if (GENERIC_SUFFIX.test(folded) && folded.length <= 3) return true;
  if (MANNER_SUFFIX.test(folded) && folded.length === 3) return true;
  return folded.length === 3 && CLASSIFIER.has(folded[0]!) && isCommonWord(folded.slice(1));
}

/**
 * A compound of everyday words (工作/流程, 核心/功能, 自动/分析, 语音/对话): a phrase of the language
 * that many texts use, not a term of this one, unless a text stresses it (gives its English name,
 * emphasises it). One that ends in a suffix (编码/智能/体, 规划/器) is a coined term.
 */
export function isCommonCompound(term: string): boolean {
  if (!HAN_ONLY.test(term)) return false;
  const words = tokenizeZh(mainlandWord(term)).map((t) => t.word);
  return words.length > 1 && words[words.length - 1]!.length > 1 && words.every(isCommonWord);
}

/**
 * The words of a compound that may stand apart in a text: all of a common compound's, or the
 * everyday word it ends in (开源/项目), which names the kind of thing (项目, 功能, 流程).
 */
export function looseWords(words: string[]): string[] | undefined {
  const head = words[words.length - 1]!;
  if (words.length < 2 || head.length === 1) return undefined;
  const common = (w: string) => isCommonWord(mainlandWord(w));
  if (words.every(common)) return words;
  return common(head) ? [head] : undefined;
}

/**
 * Chinese terms of a paragraph with jieba's parts of speech: proper names and uncommon nouns of
 * three or more characters, and runs of nouns (向量/数据库, 数字音频/工作站, XML/标签/隔离法). A run
 * may end in an adjective or verb read as a noun (上下文/焦虑). A term never starts or ends inside
 * a jieba word, so no fragment like 文档字符 or 中的代码 can come out.
 */
export function chineseTerms(
  text: string,
  tokens: ZhToken[],
  bump: (surface: string, words?: string[]) => void,
  misCut: (term: string, word: string) => void = () => {},
  heading: (term: string) => boolean = () => false,
): void {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const folded = foldText(t.word);
    if ((SINGLE.has(t.tag) || (PERSON.has(t.tag) && hanLength(t.word) >= 3)) && HAN_ONLY.test(t.word)) {
      if (hanLength(t.word) >= 3 && !ZH.STOP.has(folded) && !isCommonZh(t.word) && !predicateWord(folded)) bump(t.word);
    }
    // "XML 标签", and a lowercase word a translator kept in English before a Chinese noun ("cache 物件",
    // "token 对象"): one name in two scripts.
    const mixed =
      t.tag === 'eng' &&
      (/^[A-Z][A-Za-z0-9]+$/.test(t.word)
        ? tokens[i + 1]?.word === ' '
        : /^[a-z]{3,20}$/.test(t.word) &&
          hanBeside(tokens, i, -1) &&
          termPart(tokens[i + (tokens[i + 1]?.word === ' ' ? 2 : 1)] ?? t));
    if (!termPart(t, true) && !mixed && !numeralOpening(tokens, i)) continue;
    let j = i + 1;
    if (t.tag === 'eng' && tokens[j]?.word === ' ') j++; // the space between "XML" and "标签"
    const parts = [t];
    const from = boundPrefix(tokens, i) ? tokens[i - 1]!.start : t.start;
    let term = '';
    for (; j < tokens.length && parts.length < 4; j++) {
      const u = tokens[j]!;
      const last =
        !termPart(u) && u.tag === 'a' && parts.length === 1 && hanLength(u.word) >= 2 && HAN_ONLY.test(u.word);
      if (!termPart(u) && !last) break;
      parts.push(u);
      const before = parts[parts.length - 2]!.word;
      term = text.slice(from, u.end);
      // A name led by its English word ("cache 物件") is that word's, however often the text uses 物件 alone;
      // one led by a capitalised name and a noun ("Git 命令", "Windows 系统") is that name's kind of thing,
      // unless a section is titled by it ("## Cache 对象": what the section is about).
      const led = mixed && hanLength(term) >= 2 && (/^[a-z]/.test(term) || heading(term));
      if (hanLength(term) >= 3 || led) {
        bump(term, led ? undefined : parts.map((p) => p.word));
        // 智能/体会 for 智能体/会: a word that opens with a suffix may have taken it from the word before.
        if (u.word.length > 1 && SUFFIX.has(u.word[0]!)) misCut(term, before + u.word[0]);
      }
      if (last || u.word.length === 1) break;
    }
    const next = tokens[j];
    // 初始化智能/体将: the run stopped at a word that took the suffix away.
    if (hanLength(term) >= 3 && next && next.word.length > 1 && SUFFIX.has(next.word[0]!) && !termPart(next))
      misCut(term, parts[parts.length - 1]!.word + next.word[0]);
  }
}

/** 多/页面/应用: a character that makes one word with the noun after it (zh.BOUND_PREFIXES) stands right before token i. */
function boundPrefix(tokens: readonly ZhToken[], i: number): boolean {
  const p = tokens[i - 1];
  return (
    p !== undefined && ZH.BOUND_PREFIXES.has(p.word) && p.end === tokens[i]!.start && HAN_ONLY.test(tokens[i]!.word)
  );
}

/**
 * 三/斜线/指令: a numeral alone right before a noun opens a term (a count takes a measure word: 三个/指令,
 * 两种/方法, one token each).
 */
function numeralOpening(tokens: readonly ZhToken[], i: number): boolean {
  const t = tokens[i]!;
  const next = tokens[i + 1];
  return t.tag === 'm' && ZH.NUMERALS.includes(t.word) && next !== undefined && termPart(next, true);
}

/** Function words and particles: never part of a term's edge. */
const EDGE = new Set([
  'd',
  'c',
  'p',
  'u',
  'uj',
  'ul',
  'uz',
  'ud',
  'ug',
  'uv',
  'r',
  'm',
  'q',
  'f',
  'y',
  'e',
  'o',
  'zg',
  'x',
  't',
]);

/**
 * The Chinese term that ends right before a parenthesis (`…采用检索增强生成（RAG）`): the words back
 * to the first particle, pronoun, adverb or punctuation, at most four. A lone verb or adverb
 * (必须修复（error）) is not a term.
 */
export function termBefore(tokens: ZhToken[], minWords = 1, letters = 0): string | undefined {
  const parts: ZhToken[] = [];
  for (let i = tokens.length - 1; i >= 0 && parts.length < 4; i--) {
    // A word jieba's dictionary lacks (灰度（canary）, tagged x like punctuation) right before the
    // parenthesis is the new term the parenthesis glosses.
    const t =
      !parts.length && tokens[i]!.tag === 'x' && HAN_ONLY.test(tokens[i]!.word) && tokens[i]!.word.length > 1
        ? { ...tokens[i]!, tag: 'nz' }
        : tokens[i]!;
    // A noun on the stop list (笔记, 数据, 系统) is no term alone but is part of one: 卡片盒/笔记/法.
    // A place word (中间, 前端) is part of a name the English shows is longer: 中间信息遗失（Lost in the Middle）.
    const place = t.tag === 'f' && t.word.length > 1 && parts.length < minWords;
    // 多/页面/应用（MPA）: a prefix the abbreviation spells is part of the term.
    // 非/关系型（NoSQL）: a prefix that negates the term is part of it, whatever the gloss spells.
    const negating = ZH.NEGATING_PREFIXES.has(t.word) && parts.length > 0 && t.end === parts[0]!.start;
    // 跨站/脚本/攻击（XSS）: a word jieba's dictionary lacks is part of the term while the abbreviation
    // needs another word, and opens the term; not one glued to a particle (对大 of 对/大语言模型).
    const unknown =
      t.tag === 'x' &&
      HAN_ONLY.test(t.word) &&
      t.word.length > 1 &&
      parts.length < letters &&
      ![...t.word].some((c) => ZH.STOP.has(c)) &&
      // …and opens it: a Han word before it (月球/出舱/活动, EVA) leaves where the term starts unsure.
      !HAN_ONLY.test(tokens[i - 1]?.word ?? '');
    const prefix = negating || unknown || (ZH.BOUND_PREFIXES.has(t.word) && parts.length > 0 && parts.length < letters);
    // 无法/满足/可用性 (Availability): a verb before a noun that already makes the whole name (two
    // characters or more for each English word, and a third) takes it as its object: the sentence's
    // clause, not the term (反向/链接, Backlinks, is short without its first word).
    if (
      t.tag === 'v' &&
      parts.length > 0 &&
      NOUNISH.has(parts[0]!.tag) &&
      ((parts.length >= Math.max(1, minWords, letters) &&
        hanLength(parts.map((p) => p.word).join('')) > 2 * Math.max(1, minWords)) ||
        // 格式/有助于/搜索引擎/优化 (SEO): two characters a letter already, though one word holds two
        // of the abbreviation's (搜索引擎, search engine).
        (letters > 0 && parts.length >= 2 && hanLength(parts.map((p) => p.word).join('')) >= 2 * letters))
    )
      break;
    if (
      !HAN_ONLY.test(t.word) ||
      (EDGE.has(t.tag) && !place && !prefix) ||
      (ZH.STOP.has(foldText(t.word)) && !NOUNISH.has(t.tag))
    )
      break;
    parts.unshift(t);
  }
  if (parts.length === 1 && ZH.STOP.has(foldText(parts[0]!.word))) return undefined;
  // A common verb in front is the sentence, not the term: 受到/生成对抗网络, 在于/功能完整性.
  // As many words as the English name has stay (知识/图谱 for "knowledge graph", even if 知识 is tagged a verb),
  // and an attribute an abbreviation spells (大型/语言/模型, LLM), never a verb (采用/版本/控制系统, VCS).
  while (
    parts.length > Math.max(1, minWords) &&
    !NOUNISH.has(parts[0]!.tag) &&
    !((parts[0]!.tag === 'b' || ZH.BOUND_PREFIXES.has(parts[0]!.word)) && parts.length <= letters) &&
    !ZH.NEGATING_PREFIXES.has(parts[0]!.word) &&
    (idfOf(mainlandWord(parts[0]!.word)) ?? 9) < 6.5
  )
    parts.shift();
  // A character alone in front is a stray piece, unless an abbreviation needs it: a word a letter (单/文件/组件, SFC).
  while (
    parts.length > Math.max(1, letters) &&
    parts[0]!.word.length === 1 &&
    !(ZH.NEGATING_PREFIXES.has(parts[0]!.word) && parts.length > 1)
  )
    parts.shift();
  // Before a word the dictionary lacks only nouns belong to the term: 称为/灰度 is the sentence's verb and the term.
  if (parts.length > 1 && tokens[tokens.length - 1]!.tag === 'x')
    while (parts.length > 1 && !NOUNISH.has(parts[0]!.tag)) parts.shift();
  if (!parts.length) return undefined;
  const term = parts.map((p) => p.word).join('');
  if (hanLength(term) < 2 || hanLength(term) > 12) return undefined;
  if (parts.length === 1 && !NOUNISH.has(parts[0]!.tag) && parts[0]!.tag !== 'nr' && hanLength(term) < 3)
    return undefined;
  if (parts.every((p) => p.tag === 'v' || p.tag === 'a' || p.tag === 'ad'))
    return hanLength(term) >= 4 ? term : undefined;
  return term;
}

/** Whether a short Chinese text is a noun phrase (for emphasised text: **上下文重置**, not **必须修复**). */
export function isZhNounPhrase(text: string): boolean {
  if (!HAN.test(text)) return false;
  const tokens = tokenizeZh(text).filter((t) => t.word.trim());
  if (!tokens.length || tokens.length > 5) return false;
  const last = tokens[tokens.length - 1]!;
  return (
    (termPart(tokens[0]!) || tokens[0]!.tag === 'eng') &&
    (NOUNISH.has(last.tag) || last.tag === 'eng' || last.tag === 'nr')
  );
}

/**
 * An English word of everyday use written capitalised in Chinese prose (Prompt, Token, Windows): a
 * loanword, not a name; a Chinese text capitalises its English words. A version number after it
 * (Opus 4.5) makes it a product's name.
 */
function loanword(tokens: ZhToken[], i: number): boolean {
  if (!isCommonEnglishWord(tokens[i]!.word)) return false;
  let j = i + 1;
  while (tokens[j]?.word === ' ') j++;
  return !/^\d/.test(tokens[j]?.word ?? '');
}

/** Whether the word nearest a token on one side, spaces skipped, is Chinese: the token sits in Chinese prose. */
function hanBeside(tokens: ZhToken[], i: number, step: 1 | -1): boolean {
  let j = i + step;
  while (tokens[j]?.word === ' ') j += step;
  return CHINESE_PROSE.test(tokens[j]?.word ?? '');
}

/** A Chinese word or Chinese punctuation (。，「」（）): what stands beside a word in Chinese prose. */
const CHINESE_PROSE = /^[\u3400-\u9fff\u3000-\u303f\uff01-\uff0f\uff1a-\uff1f]+$/;

/**
 * A lowercase English word a Chinese text keeps untranslated between Chinese words (叫 tarball 的压缩包,
 * 执行 rebase 之后): a term of art the translator left as written. Not an everyday English word
 * (file, commit), not code (a path, a command with options: those sit beside other Latin text).
 */
function keptInEnglish(tokens: ZhToken[], i: number): boolean {
  const w = tokens[i]!.word;
  return /^[a-z][a-z]{3,20}$/.test(w) && !isCommonEnglishWord(w) && hanBeside(tokens, i, -1) && hanBeside(tokens, i, 1);
}

/**
 * Latin names inside Chinese prose, from jieba's `eng` words: a capitalised word or acronym, or a
 * run of them one space apart (Claude Agent SDK, Tool Wrapper), and a term of art kept in lowercase
 * English between Chinese words. Other lowercase words and code stay out.
 */
export function latinNames(tokens: ZhToken[], bump: (name: string) => void): void {
  let run: ZhToken[] = [];
  const flush = () => {
    // As written, so "Retrieval-Augmented Generation" keeps its hyphen.
    if (run.length)
      bump(
        tokens
          .slice(tokens.indexOf(run[0]!), tokens.indexOf(run[run.length - 1]!) + 1)
          .map((t) => t.word)
          .join(''),
      );
    run = [];
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const joined =
      (tokens[i + 1]?.word === ' ' || tokens[i + 1]?.word === '-') && /^[A-Z]/.test(tokens[i + 2]?.word ?? '');
    let p = i - 1;
    while (p >= 0 && tokens[p]!.word === ' ') p--;
    // A plain capitalised word starting a line, sentence or table cell ("Retrieval quality") is no name.
    const atStart = p < 0 || /[。！？.!?\t\n]$/.test(tokens[p]!.word);
    const plain = /^[A-Z][a-z]+$/.test(t.word) && !run.length && !joined && (atStart || loanword(tokens, i));
    if (t.tag === 'eng' && !run.length && keptInEnglish(tokens, i)) {
      bump(t.word);
      continue;
    }
    if (t.tag === 'eng' && /^[A-Z][A-Za-z0-9]*$/.test(t.word) && !plain) {
      run.push(t);
      if (joined && tokens[i + 2]?.tag === 'eng') i++;
      else flush();
    } else flush();
  }
  flush();
}

/** Tags of a word that can open a two-word term bound to the word after it (初次/渲染, 双向/绑定); a verb opens a phrase (上传/数据). */
const BINDER = new Set(['a', 'ad', 'b', 'd', 'n', 'vn']);
/** Tags of the word it binds to: the doing or the thing the term names. */
const BOUND_HEAD = new Set(['v', 'vn', 'n']);
/** Two adjacent words as countPairs counts them: how often, and the first of them. */
export interface WordPair {
  n: number;
  first: string;
}

/** Count the adjacent word pairs of a paragraph that could be a bound term (boundTerms), by their surface. */
export function countPairs(tokens: readonly ZhToken[], pairs: Map<string, WordPair>): void {
  for (let i = 0; i + 1 < tokens.length; i++) {
    const [a, b] = [tokens[i]!, tokens[i + 1]!];
    if (!BINDER.has(a.tag) || !BOUND_HEAD.has(b.tag) || a.end !== b.start) continue;
    if (![a, b].every((t) => HAN_ONLY.test(t.word) && t.word.length >= 2 && !ZH.STOP.has(foldText(t.word)))) continue;
    const term = a.word + b.word;
    const p = pairs.get(term) ?? { n: 0, first: a.word };
    p.n++;
    pairs.set(term, p);
  }
}

/**
 * Two words a text keeps together as one term though jieba cuts them (重新/渲染, 初次/渲染, 依赖/注入):
 * written together often, and the first word nearly never without the second. A phrase of everyday
 * words (可以/使用) fails: its first word goes before many others.
 */
export function boundTerms(
  pairs: ReadonlyMap<string, WordPair>,
  words: ReadonlyMap<string, number>,
): [string, number][] {
  const out: [string, number][] = [];
  for (const [term, { n, first }] of pairs)
    if (n >= WEIGHTS.BOUND_MIN && n >= WEIGHTS.BOUND_SHARE * (words.get(first) ?? n) && !isCommonZh(term))
      out.push([term, n]);
  return out;
}
