import type { ModelClient, ModelUsage } from '../model/client.js';
import { loadTemplate, renderTemplate, splitTemplate } from '../model/templates.js';
import { linkKey } from '../entry/names.js';
import { linkMarkup } from '../entry/links.js';
import { sentences, words } from '../text/segment.js';
import { foldText } from '../text/fold.js';
import { isCodeLine } from '../text/code-line.js';
import { baseForm } from '../text/lexicon.js';
import { mendQuotes } from '../text/quotes.js';
import { namedTagsAsCode } from '../text/code-spans.js';
import { searchTerms } from '../text/search.js';
import { HEADER_LABEL, isHeadingLine } from '../text/layout.js';
import { type ReadBlock, readBlocks } from '../chunk/reading.js';
import { abbreviatedWords, abbreviationsIn, expands } from './expansion.js';
import { inChinese } from '../text/script.js';
import { stemWord } from '../text/english.js';
import { qualifiedNames, queryTerms } from './retrieve.js';
import type { PackedContext, PackedEntry } from './pack.js';
import { definedSubject, EN_SUPERLATIVE, type Intent, intentsOf, subjectNames, ZH_SUPERLATIVE } from './intent.js';
import { ANSWER_WEIGHTS as W } from './weights.js';
import * as EN from '../text/lang/en.js';
import * as ZH from '../text/lang/zh.js';
import { anyOf } from '../text/lang/words.js';
import { anyName, genusSentence } from '../text/genus.js';
import { asksForList, type Enumeration, enumerationFor, labelledItems, type TextOf } from './enumerate.js';

export interface Citation {
  id: string;
  title: string;
  /** File name (without .md): the `[[link]]` target. */
  file: string;
}

export interface DraftAnswer {
  text: string;
  citations: Citation[];
  mode: 'offline' | 'model';
  model?: string;
  usage?: ModelUsage;
  /** The model's reply came from .kb/cache.db. */
  cached?: boolean;
  /** Why the model's reply is not a well-formed answer (empty, no `<answer>`, cut off), if it is not. */
  malformed?: string;
  /** The offline answer found no statement that answers with confidence and quotes the likeliest passages instead. */
  unsure?: boolean;
  /** `[[Names]]` the model cited that name no entry it was given (shown as plain text). */
  unknownCitations?: string[];
}

const UNREADABLE = 'The model gave no readable answer. Ask again, or run `kb ask --offline` for the extractive answer.';

export const NOTHING =
  'The wiki has nothing on this yet. Add sources to raw/ and run `kb compile`, or rephrase the question.';

function cite(e: PackedEntry): string {
  return linkMarkup(e.file, e.title);
}

/** A sentence the offline answer may quote. */
interface Candidate {
  text: string;
  entry: PackedEntry;
  /** Entry order, passage order and position: reading order. */
  at: [number, number, number];
  terms: Set<string>;
  /** A lead-in (`…compare:`) into a list or a table, or at the end of its passage, which goes on in the entry's text. */
  leadsList?: boolean;
}

/**
 * Bump when retrieval, packing or the offline answer would answer the same wiki differently: the
 * answer cache does not serve what older code answered.
 */
export const ANSWER_VERSION = 29;

/** Lines that are structure, not statements: links lists, "Sources", table rules, HTML comments. */
const SCAFFOLD =
  /^(?:(?:sources?|backlinks?|references?|see also|related|links?|key points|definitions|来源|参考|参考资料|参考文献|相关|链接|另见|反向链接)\s*[:：]?\s*$|<!--|\|?\s*:?-{3,})/i;

/** An HTML tag inside a line (`<label for="x">`, `</label>`): the text inside it reads without it. */
const INLINE_HTML = /<\/?[A-Za-z][\w-]*(?:\s[^<>]*)?\/?>/g;

/** A line without its inline HTML, code spans kept as written (`<script setup>` is code, not a tag). */
function withoutHtml(line: string): string {
  return line
    .split(/(`[^`\n]*`)/)
    .map((part, i) => (i % 2 ? part : part.replace(INLINE_HTML, '')))
    .join('');
}

/** An Obsidian embed, spaces before it: `![[lucide-send.svg#icon]]`. */
const EMBED = /[ \t]*!\[\[[^\]\n]*\]\]/g;

/** A list marker that opens a line: a bullet or a number. */
const MARKER = /^(?:[-*+]\s+|\d{1,3}[.)]\s+)/u;

/** What kb says of a file it cannot read (ingest/attachment.ts): its path, type and size, no statement. */
const ATTACHMENT_LINE = /^Attachment: `[^`]+` \([^)]*\)\.?$/;

/** A concept page's list of sources: `[[Source]] (4 mentions)`, `[[Source]] mentions X.`, `…and 3 more sources below.` */
const CONCEPT_SCAFFOLD = /^(?:\[\[[^\]]*\]\] (?:\(\d+ mentions?\)|mentions .*)|…and \d+ more sources? below\.)$/;

/**
 * The statements of a passage or summary, read from its blocks (chunk/reading.ts): a paragraph's
 * wrapped lines as one, a list item, a table row with its header; headings, code, lists of links
 * and "Sources"/"Backlinks" lines are skipped; excerpt marks (…) are dropped; wikilinks read as
 * their text.
 */
export function statements(text: string): string[] {
  return readStatements(text).map((s) => s.text);
}

/** A statement with the kind of block it was read from (a paragraph, a list item, a table row) and that block's index. */
interface ReadStatement {
  text: string;
  kind: ReadBlock['kind'];
  block: number;
  /** How deep the list item it is read from is nested (0 outside lists); whether it opens its line. */
  depth: number;
  opens: boolean;
}

function readStatements(text: string): ReadStatement[] {
  const out: ReadStatement[] = [];
  const blocks = readBlocks(text);
  for (const [b, block] of blocks.entries()) {
    if (block.kind === 'heading') continue;
    const next = blocks[b + 1];
    for (const [i, raw] of block.lines.entries()) {
      const line = statementLine(raw, block, i, next);
      if (line === undefined) continue;
      // An excerpt joins what it took from several lines with …; each part may open with a list marker.
      const depth = block.depths?.[i] ?? 0;
      let opens = true;
      for (const part of line.split(/\s+…\s+/))
        for (const s of mendQuotes(sentences(part.replace(MARKER, '')))) {
          out.push({ text: s, kind: block.kind, block: b, depth, opens });
          opens = false;
        }
    }
  }
  return out;
}

/** Whether line `i` of a block is structure, not a statement: a label, a plain-text heading, the name of the list after it. */
function isStructure(line: string, block: ReadBlock, i: number, next: ReadBlock | undefined): boolean {
  // A line of a drawing (`├── index.json # 检索索引`) is no statement either.
  if (!line || SCAFFOLD.test(line) || /^[\u2500-\u257f]/u.test(line)) return true;
  if (block.kind !== 'paragraph') return false;
  // A line alone that gives a figure for a label (`Next meeting: 2026-03-17`) says it: no heading.
  const alone = block.lines.length === 1 && isHeadingLine(['', line, ''], 1);
  if (HEADER_LABEL.test(line) || (alone && !/^[^:：]{2,40}[:：]\s*\S*\d/u.test(line))) return true;
  // A short line without a sentence's end that a list follows names the list (`Action items`).
  return (
    i === block.lines.length - 1 && next?.kind === 'item' && !/[。.!?！？；;：:]$/u.test(line) && line.length <= 40
  );
}

/** One line of a block as the statement it makes, or undefined when it makes none. */
function statementLine(raw: string, block: ReadBlock, i: number, next: ReadBlock | undefined): string | undefined {
  let line = raw.trim();
  if (isStructure(line, block, i, next)) return undefined;
  // A list item a paragraph runs on into (indented past a list's reach) keeps its marker.
  line = line
    .replace(MARKER, '')
    .replace(/^(\[[ xX]\]\s+)/u, '')
    .replace(/^>\s*/, '');
  // A bullet typed inside a line (`• 设计质量：…`).
  line = line.replace(/^[•·▪●◦‣]\s*/u, '');
  // A line that is only links (a list of sources or backlinks), perhaps after a label
  // ("Related:", "另见："), says nothing itself.
  if (/^(?:[^:：[\]]{1,24}[:：])?(\s*\[\[[^\]]*\]\][\s,;、，.。]*)+$/.test(line)) return undefined;
  // A concept page's own scaffolding (src/compile/offline/writer.ts): its list of sources, and the
  // attribution after each quote, which is a citation, not part of what was said.
  if (CONCEPT_SCAFFOLD.test(line) || ATTACHMENT_LINE.test(line)) return undefined;
  line = line.replace(/\s+—\s+\[\[[^\]]*\]\]$/, '');
  // An embed (`![[lucide-send.svg#icon]]`, `![[diagram.png]]`) is an image or a note shown in place: no words of the statement.
  line = line
    .replace(EMBED, '')
    .replace(/\[\[([^\]|]*\|)?([^\]]*)\]\]/g, '$2')
    .replace(/^…\s*|\s*…$/g, '');
  // Inline HTML (`<label for="x">…</label>`) reads as the text inside it; a tag the sentence talks
  // about (`只读取 <context> 标签里的内容`) is a name, kept as code.
  line = withoutHtml(namedTagsAsCode(line));
  // A Markdown link reads as its text; an image is no statement (its `!` is no end of a sentence).
  const imageless = line.replace(/\s*!\[[^\]\n]*\]\([^)\s]*\)/g, '');
  // What is left of a line around an image (`(Same image as a link: ![…](…))`) may say nothing.
  if (imageless !== line && !WORDY.test(imageless.replace(/[(（][^)）]*[:：]\s*[)）]/gu, ''))) return undefined;
  // A link, inline or by reference (`[text](url)`, `[text][label]`), reads as its text.
  line = imageless.replace(/\[([^\]\n]+)\](?:\([^)\s]*\)|\[[^\]\n]*\])/g, '$1');
  // A bold label that opens a line names what the rest says (`**Fixed-size windows.** Cut every N
  // tokens…`): one statement with it, not a sentence of its own; alone with a colon, it leads into a list.
  // (A longer bold sentence, `**Rare terms matter more.**`, says something itself.)
  const label = /^(\*\*|__)([^*_\n]{1,80}?)([.。:：])\1\s*(.*)$/u.exec(line);
  if (label && !label[4] && /[:：]/u.test(label[3]!)) return undefined;
  if (label?.[4] && (/[:：]/u.test(label[3]!) || isName(label[2]!)))
    line = `${label[2]}${HAN_CHAR.test(label[2]!) ? '：' : ': '}${label[4]}`;
  return withoutEmphasis(line) || undefined;
}

/** A few words naming a thing (`Fixed-size windows`, `固定编号`) rather than saying something. */
function isName(s: string): boolean {
  return HAN_CHAR.test(s) ? Array.from(s.replace(/\s/g, '')).length <= 8 : s.trim().split(/\s+/).length <= 3;
}

/** `**bold**`, `__bold__`, `*italic*` and `_italic_` read as their words: a mark must not hang off a sentence. */
function withoutEmphasis(line: string): string {
  return line
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/(?<![*\w])([*_])(?=[^\s*_])([^*_]+?)(?<=[^\s*_])\1(?![*\w])/gu, '$2');
}

/** A statement that gives a reason or a purpose. */
const GIVES_REASON = new RegExp(`${anyOf(ZH.REASON_CUES)}|\\b(?:${anyOf(EN.REASON_CUES)})\\b`, 'iu');
/** A statement that sets two things against each other. */
const CONTRASTS = new RegExp(`${anyOf(ZH.CONTRAST_CUES)}|\\b(?:${anyOf(EN.CONTRAST_CUES)})\\b`, 'iu');
/** A statement that gives a number: digits, or Chinese numerals counted in a measure word (三个, 一個). */
const HAS_NUMBER = new RegExp(
  `[0-9０-９]|[${[...ZH.NUMERALS, ...ZH.BIG_NUMERALS].join('')}]+(?:${anyOf(ZH.MEASURES)})|\\b(?:${anyOf(EN.NUMBERS)})\\b`,
  'iu',
);

/**
 * A statement that says what the subject is: it opens with one of the subject's names, or names it
 * and then says what it is (是/是指/is/refers to, text/lang DEFINING), or names what is so called
 * ("This scheme, later called Folgezettel, let…", 这种做法后来被称为 Folgezettel).
 */
function definesRe(question: string, renderings?: Record<string, string>): RegExp | undefined {
  const asked = askedNames(question, renderings);
  if (!asked) return undefined;
  const names = anyName(asked);
  const verbs = `(?:${anyOf(ZH.DEFINING)}|\\b(?:${anyOf(EN.DEFINING)})\\b)`;
  const called = `(?:${anyOf(ZH.CALLED)}|\\b(?:${anyOf(EN.CALLED)})\\b)`;
  // Not across a relative clause: "…produce combinators that are equal to…" says nothing of what they are.
  const gap = `(?:(?!\\b(?:${anyOf(EN.RELATIVES)})\\b)[^。.!?！？]){0,40}?`;
  return new RegExp(
    `^[\\s\\p{P}\\p{S}]{0,2}(?:definition\\s+)?(?:an?\\s+|the\\s+)?${names}(?!#)|${names}${gap}${verbs}|${called}\\s*["“「『(（]?${names}`,
    'iu',
  );
}

/**
 * A statement that opens with the subject and says what kind of thing it is: "A module is a
 * collection of…", "Sharding is a way to…", "向量数据库是一种…". The subject may be called by its kind
 * alone where the question qualifies it by a name ("a Go module": module).
 */
function genusRe(question: string, renderings?: Record<string, string>): RegExp | undefined {
  const asked = askedNames(question, renderings);
  if (!asked) return undefined;
  const kinds = asked.map((n) => QUALIFIED_KIND.exec(n)?.[1]).filter((k): k is string => Boolean(k));
  return genusSentence([...asked, ...kinds]);
}

/** The names of what a "what is X?" question asks about (subjectNames, and its rendering in English); none for other questions. */
function askedNames(question: string, renderings?: Record<string, string>): string[] | undefined {
  const subject = definedSubject(question);
  return subject ? [...subjectNames(subject), ...rendered(subject, renderings)] : undefined;
}

/** A name that is a kind qualified by what it belongs to ("Go module", "Kafka consumer group"), and the kind. */
const QUALIFIED_KIND = /^[A-Z][\w.+#-]*\s+([a-z][a-z-]{2,}(?:\s+[a-z][a-z-]{2,})?)$/u;

/**
 * The subject in English where each of its Chinese words has a rendering (消息队列: message
 * queue), for a Chinese question about English notes; nothing when a word has none.
 */
function rendered(subject: string, renderings?: Record<string, string>): string[] {
  if (!renderings || !/\p{Script=Han}/u.test(subject)) return [];
  const words = Object.keys(renderings).sort((a, b) => b.length - a.length);
  let out = foldText(subject);
  for (const w of words) out = out.split(w).join(` ${renderings[w]} `);
  out = out.replace(/\s+/g, ' ').trim();
  return /\p{Script=Han}/u.test(out) ? [] : [out];
}

/** Whether a text says what the subject of a "what is X (for)?" question is (false for other questions). */
export function statesWhatItIs(question: string, text: string, renderings?: Record<string, string>): boolean {
  return definesRe(question, renderings)?.test(text) ?? false;
}

function looksLikeCode(s: string, kind?: ReadBlock['kind']): boolean {
  if (isCodeLine(s)) return true;
  // A table row names what it describes: a name in backticks there (`\l`) is a cell's word, not code.
  const prose = kind === 'row' ? s.replace(/`[^`\n]{1,40}`/g, 'x') : s;
  const symbols = (prose.match(/[{}();=<>$\\[\]`|&]/g) ?? []).length;
  return symbols >= 4 && symbols / prose.length > 0.08;
}

const norm = (s: string) => s.toLowerCase().replace(/[\s\p{P}\p{S}]+/gu, '');

/** A statement of the packed context with its score against the question. */
export interface ScoredStatement {
  text: string;
  entry: PackedEntry;
  /** Entry rank, text (summary, then passages) and statement index: reading order. */
  at: [number, number, number];
  score: number;
  /** Share of what the context holds of the question's words that the statement holds itself (0–1). */
  held: number;
}

/**
 * The character pairs of a Chinese question that straddle two of its words (工作|的 gives 作的,
 * 是|怎么 gives 是怎): the index holds them, but a statement holding one says nothing the question
 * asks — and a rare one (作的) would outweigh the words themselves.
 */
function crossingPairs(question: string): Set<string> {
  const q = foldText(question);
  const pairs = new Set(searchTerms(q).filter((t) => t.length === 2 && HAN_PAIR.test(t)));
  if (!pairs.size) return pairs;
  for (const w of words(q)) {
    const chars = Array.from(w);
    for (let i = 0; i + 1 < chars.length; i++) pairs.delete(chars[i]! + chars[i + 1]!);
  }
  return pairs;
}

const HAN_PAIR = /^\p{Script=Han}{2}$/u;

/** The question's terms, and its translations (`translated`: those retrieval searched with). */
function questionTerms(question: string, translated: string[] = []): Set<string> {
  const crossing = crossingPairs(question);
  return new Set([...queryTerms([question]), ...translated].filter((t) => !crossing.has(t)));
}

/**
 * The terms of the trade a Chinese question writes in lowercase Latin letters (怎么在 widget 里注册
 * hook, Go 的 defer 什么时候执行), as statements' terms are: Chinese technical text keeps such words in
 * Latin letters, so a Chinese statement without any of them is about something else. Not proper
 * names (NASA, Acme), which Chinese text often calls otherwise (该机构, 这家公司).
 */
export function latinTerms(question: string): string[] {
  if (!HAN_CHAR.test(question)) return [];
  const lower = (question.match(/(?<![\p{L}\p{N}])[a-z][a-z0-9_-]*(?![\p{L}\p{N}])/gu) ?? []).join(' ');
  return [
    ...new Set(
      searchTerms(lower)
        .filter((t) => !EN.STOP.has(t))
        .map(stemWord),
    ),
  ];
}

/** Whether two statements stand next to each other in one text, `b` right after `a`. */
function sameText(a: Candidate, b: Candidate): boolean {
  return a.entry === b.entry && a.at[1] === b.at[1] && a.at[2] + 1 === b.at[2];
}

/**
 * A statement that asks a question itself, or holds the question's words and fewer than two of its
 * own besides. One that holds none of them says something else (`Three.` after the question it answers).
 * A lead-in that says the question back ("Here is how the two compare:") is quoted with what it leads into.
 */
function restatesQuestion(c: Candidate, terms: Set<string>): boolean {
  if (ASKS.test(c.text)) return true;
  if (/[:：]$/u.test(c.text)) return false;
  let novel = 0;
  let asked = 0;
  for (const t of c.terms)
    if (terms.has(t)) asked++;
    else if (!EN.FUNCTION_WORDS.has(t) && !ZH.FUNCTION_WORDS.has(t)) novel++;
  return asked > 0 && novel < 2;
}

/** A statement that ends as a question does. */
const ASKS = /[?？]\s*["”」』)）]?$/u;

/**
 * A question that names the document (`in This Week in Rust 656`) is answered by what that document
 * says: for each statement, the weight of the question's words its entry's title holds (and some other
 * entry's title lacks: they tell the documents apart) that it does not hold itself.
 */
function titleWeights(
  entries: PackedEntry[],
  cands: Candidate[],
  terms: Set<string>,
  weight: (t: string) => number,
): number[] {
  const titled = entries.map(
    (e) =>
      new Set(
        searchTerms(e.title)
          .map(stemWord)
          .filter((t) => terms.has(t)),
      ),
  );
  const everyTitle = (t: string) => titled.every((ts) => ts.has(t));
  const titleTerms = new Map<PackedEntry, string[]>(
    entries.map((e, k) => [e, [...titled[k]!].filter((t) => !everyTitle(t))]),
  );
  return cands.map((c) => {
    let score = 0;
    for (const t of titleTerms.get(c.entry) ?? []) if (!c.terms.has(t)) score += weight(t);
    return score;
  });
}

/**
 * An abbreviation a statement writes for words of the question (DL for "dead lock") is a
 * term of the question, weighed as the heaviest of the words it stands for, in a text that does
 * not write those words.
 */
function abbreviatedTerms(
  question: string,
  cands: Candidate[],
  asked: Map<string, string>,
  terms: Set<string>,
  weights: Record<string, number> = {},
): Set<string> {
  const added = new Set<string>();
  const own = (a: string) => asked.has(stemWord(a.toLowerCase()));
  const heaviest = (x: string, y: string) => ((weights[y] ?? 0) > (weights[x] ?? 0) ? y : x);
  // In the question's language: a Chinese text's HTTP abbreviates no words of an English question.
  const texts = cands.filter((c) => inChinese(c.text) === HAN_CHAR.test(question)).map((c) => c.text);
  for (const [a, words] of abbreviatedWords(question, texts)) {
    const t = stemWord(a.toLowerCase());
    const of = words.map((w) => asked.get(stemWord(w.toLowerCase()))).filter((w): w is string => w !== undefined);
    if (own(a) || !of.length) continue;
    terms.add(t);
    added.add(t);
    asked.set(t, of.reduce(heaviest));
    // It stands in for the words where a text does not write them: one that does is found by them.
    const spelled = words.map((w) => stemWord(w.toLowerCase()));
    const writes = new Set(cands.filter((c) => spelled.every((w) => c.terms.has(w))).map((c) => c.entry));
    for (const c of cands) if (writes.has(c.entry)) c.terms.delete(t);
  }
  return added;
}

/** The statements of the packed context that may answer: never a title (an entry's, a saved answer's, the question), code, or a short mark. */
function candidatesOf(question: string, packed: PackedContext): Candidate[] {
  const titles = new Set([norm(question), ...packed.entries.map((e) => norm(e.title))]);
  const cands: Candidate[] = [];
  packed.entries.forEach((e, rank) => {
    const texts = [e.summary, ...e.passages.map((p) => p.text)];
    texts.forEach((t, ti) => {
      const read = readStatements(t);
      read.forEach(({ text: s, block, kind }, si) => {
        const key = norm(s);
        // A short statement may still answer (`Three.` after the question it answers).
        if (Array.from(key).length < W.shortest || titles.has(key) || looksLikeCode(s, kind)) return;
        const terms = new Set(searchTerms(s).map(stemWord));
        // A qualified name it writes (errors.Is) counts as the one term the question's is (retrieve.ts).
        for (const q of qualifiedNames(s)) terms.add(stemWord(q));
        const next = read[si + 1];
        const leadsList =
          /[:：]$/u.test(s) && (!next || ((next.kind === 'item' || next.kind === 'row') && next.block !== block));
        cands.push({ text: s, entry: e, at: [rank, ti, si], terms, ...(leadsList ? { leadsList } : {}) });
      });
    });
  });
  return cands;
}

/**
 * The statements of the packed context that may answer the question, best first: scored by the
 * question's terms they hold (weighted by how rare they are in the wiki), with a nudge for a
 * number when the question asks for one and for the higher-ranked entries; never a heading, a
 * title (an entry's, a saved answer's, or the question itself), code, or a list of links.
 */
export function rankStatements(question: string, packed: PackedContext): ScoredStatement[] {
  // English words match by their stems (meeting, meetings); a stem weighs as the heaviest word of the question it stems.
  const asked = new Map<string, string>();
  const heavier = (a: string, b: string | undefined) =>
    b === undefined || (packed.weights?.[a] ?? 0) > (packed.weights?.[b] ?? 0);
  // A question that glosses its Chinese term in English (组合子（combinator）) gives its translation:
  // the dictionary's words for the term's parts (组合: combine) say something else.
  const glossed = /\p{Script=Han}\s*[(（][A-Za-z][^()（）]*[)）]/u.test(question);
  for (const t of questionTerms(question, glossed ? [] : Object.keys(packed.weights ?? {})))
    if (heavier(t, asked.get(stemWord(t)))) asked.set(stemWord(t), t);
  const terms = new Set(asked.keys());
  if (terms.size === 0 || packed.entries.length === 0) return [];
  const cands = ownWordsInTranslations(question, candidatesOf(question, packed));
  const abbreviated = abbreviatedTerms(question, cands, asked, terms, packed.weights);
  // Weights: how rare a term is among the candidates (a term every sentence holds, such as the
  // name of the entry they all talk about, does not tell them apart), times how rare it is in the
  // wiki when the context carries that.
  const df = new Map<string, number>();
  for (const c of cands) for (const t of c.terms) if (terms.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
  const local = (t: string) => Math.log(1 + cands.length / (df.get(t) ?? 1));
  const wiki = packed.weights;
  const weight = wiki ? (t: string) => ((wiki[asked.get(t) ?? t] ?? 0) * local(t)) / Math.log(1 + cands.length) : local;
  const intents = intentsOf(question);
  const wantsNumber = intents.has('number') || intents.has('when');
  const wantsReason = intents.has('reason');
  const wantsContrast = intents.has('compare');
  const wantsTop = intents.has('superlative');
  const wantsSeveral = ['list', 'steps', 'compare'].some((i) => intents.has(i as Intent));
  const expanded = intents.has('expand') ? abbreviationsIn(question) : [];
  const defines = definesRe(question, packed.renderings);
  const genus = genusRe(question, packed.renderings);
  // A question the text asks itself for what the asker asks (how many, why) is followed by its answer.
  const asksAlike = (text: string) => ASKS.test(text) && [...intentsOf(text)].some((i) => intents.has(i));
  // What each statement holds of the question, before it is weighed as an answer.
  const held = cands.map((c) => {
    let score = 0;
    for (const t of c.terms) if (terms.has(t)) score += weight(t);
    return score;
  });
  const named = titleWeights(packed.entries, cands, terms, weight);
  // A Chinese statement that holds none of the names a Chinese question writes in Latin letters (when
  // some statement holds one) is about something else, whatever Chinese words it shares with it.
  const names = latinTerms(question).filter((n) => cands.some((c) => c.terms.has(n)));
  const restates = cands.map((c) => restatesQuestion(c, terms));
  // What a statement that answered in full would hold: all the context holds of the question, and,
  // when the context is mostly in the question's language, the question's own words it lacks (a
  // question about what the wiki does not say holds them nowhere; one asked in the other language
  // finds its words only by their translations).
  let whole = 0;
  // An abbreviation stands in for words the context holds too: it adds nothing a full answer holds.
  for (const t of df.keys()) if (!abbreviated.has(t)) whole += weight(t);
  const asksInChinese = HAN_CHAR.test(question);
  const sameLanguage = cands.filter((c) => inChinese(c.text) === asksInChinese).length * 2 >= cands.length;
  if (sameLanguage)
    for (const t of questionTerms(question))
      if (Array.from(t).length > 1 && !df.has(stemWord(t))) whole += weight(stemWord(t));
  // A statement right after one that says the question again (or asks one) answers it; after a
  // question asking what the asker asks, it holds what that question holds.
  const answers = cands.map((c, k) => !restates[k] && k > 0 && restates[k - 1]! && sameText(cands[k - 1]!, c));
  const repliesAlike = (k: number) => answers[k]! && asksAlike(cands[k - 1]!.text);
  const own = cands.map((c, k) => {
    let score = held[k]! > 0 ? held[k]! + W.titleShare * named[k]! : 0;
    // A sentence that only says the question again, or asks one, holds no answer: it gives way
    // to the statement after it, which often does.
    if (restates[k]) score *= W.restatement;
    else if (answers[k]) score += W.giveWay * held[k - 1]! * (repliesAlike(k) ? W.sameAsking : 1);
    if (wantsNumber && HAS_NUMBER.test(c.text)) score *= W.numberBoost;
    if (wantsReason && GIVES_REASON.test(c.text)) score *= W.reasonBoost;
    if (wantsContrast && CONTRASTS.test(c.text)) score *= W.contrastBoost;
    if (wantsTop && (ZH_SUPERLATIVE.test(c.text) || EN_SUPERLATIVE.test(c.text))) score *= W.superlativeBoost;
    if (wantsSeveral && c.leadsList) score *= W.leadInBoost;
    if (genus?.test(c.text)) score *= W.definitionBoost * W.genusBoost;
    else if (defines?.test(c.text)) score *= W.definitionBoost;
    if (names.length && inChinese(c.text) && !names.some((n) => c.terms.has(n))) score *= W.nameless;
    if (expanded.some((a) => expands(c.text, a))) score *= W.expansionBoost;
    return score;
  });
  /** The score of the statement `d` places away when it is the one next to it in the same text. */
  const beside = (k: number, d: number): number => {
    const c = cands[k]!;
    const o = cands[k + d];
    return o && o.at[0] === c.at[0] && o.at[1] === c.at[1] && o.at[2] === c.at[2] + d ? own[k + d]! : 0;
  };
  return cands
    .map((c, order) => {
      // The answer often sits next to the sentence that matches the question (which names what
      // it asks about, while its neighbour says the answer): a share of the better neighbour's score.
      const near = Math.max(beside(order, -1), beside(order, 1));
      // For a "why", a sentence that gives a reason within two of one that matches, whatever it
      // holds: the reason follows what it explains (removing the sprint construct … Given the
      // improvements in Opus 4.6, there was good reason to believe …).
      const because = wantsReason && own[order] === 0 && GIVES_REASON.test(c.text) && !looksLikeCode(c.text);
      const score =
        own[order]! > 0
          ? own[order]! + W.neighbourShare * near
          : because
            ? W.reasonShare * Math.max(near, beside(order, -2), beside(order, 2))
            : 0;
      // The higher an entry ranks, the likelier it holds the answer.
      return { c, order, score: score / (1 + W.entryRankDecay * c.at[0]) };
    })
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ c, order, score }) => ({
      text: c.text,
      entry: c.entry,
      at: c.at,
      score,
      held: whole ? (repliesAlike(order) ? Math.max(held[order]!, held[order - 1]!) : held[order]!) / whole : 0,
    }));
}

/**
 * A translation's statements, where the work's version in the question's language is in the context
 * with statements of its own (EntryHit.readAs, versions.ts), hold only the question's own words: the
 * words it was translated into are how a question finds notes in the other language, and would let
 * the translation (holding the names as written and their translations both) outweigh the version
 * the asker reads, which says the same.
 */
function ownWordsInTranslations(question: string, cands: Candidate[]): Candidate[] {
  const withStatements = new Set(cands.map((c) => c.entry.id));
  if (!cands.some((c) => c.entry.readAs !== undefined && withStatements.has(c.entry.readAs))) return cands;
  const own = new Set([...questionTerms(question)].map(stemWord));
  return cands.map((c) =>
    c.entry.readAs !== undefined && withStatements.has(c.entry.readAs)
      ? { ...c, terms: new Set([...c.terms].filter((t) => own.has(t))) }
      : c,
  );
}

/**
 * The offline answer: the best statements of the packed context (rankStatements), the same
 * sentence counted once, in reading order, each run of them followed by the entry it came from;
 * for a question asking for a list, the numbered lines that list it first (`textOf` gives an
 * entry's whole text, where they are looked for).
 */
export function offlineAnswer(question: string, packed: PackedContext, maxSentences = 3, textOf?: TextOf): DraftAnswer {
  // A question asking for a list is answered first with the numbered lines that list it.
  const weight = (t: string) => packed.weights?.[t] ?? 1;
  // By the question's own words first: a translation's many character pairs would outweigh them.
  const own = questionTerms(question);
  const all = questionTerms(question, Object.keys(packed.weights ?? {}));
  const list = enumerationFor(question, packed.entries, [own, all], weight, textOf);
  const parts = list ? [list, ...(list.more ?? [])] : [];
  const listed = parts.flatMap((l) => [l.leadIn ?? '', ...l.items]).filter(Boolean);
  const said = statementsAnswer(question, packed, list ? maxSentences - 1 : maxSentences, listed, textOf);
  if (!list) return said;
  const text = `${parts.map(listText).join(' ')} ${cite(list.entry)}`;
  return {
    text: said.citations.length ? `${text}\n\n${said.text}` : text,
    citations: [...new Map([...uniqueCitations([list.entry]), ...said.citations].map((c) => [c.id, c])).values()],
    mode: 'offline',
  };
}

/** A numbered list as one sentence: its lead-in, then the items. */
function listText(list: Pick<Enumeration, 'leadIn' | 'items'>): string {
  // In the language of what leads into it (设计质量 (Design quality) is a Chinese list's item).
  const zh = inChinese(list.leadIn ?? list.items.join(''));
  const lead = list.leadIn ? (/[:：?？]$/u.test(list.leadIn) ? list.leadIn : `${list.leadIn}${zh ? '：' : ':'}`) : '';
  // Read as the statements are: no emphasis marks, a link as its text.
  const plain = (l: string) =>
    withoutEmphasis(withoutHtml(namedTagsAsCode(l.replace(EMBED, '').replace(/\[\[([^\]|]*\|)?([^\]]*)\]\]/g, '$2'))));
  // An item that opens with its name in bold and goes on to explain it (`1. **Fixed-size windows.** Cut
  // every N tokens…`) is listed by its name.
  const named = (l: string) =>
    l.length > 120
      ? (/^(\S+\s+)?(?:\*\*|__)([^*_\n]{2,60}?)[.:：。]?(?:\*\*|__)/u.exec(l)?.slice(1, 3).join('') ?? l)
      : l;
  const items = list.items.map((i) => plain(named(i)).replace(/[。.;；:：]$/u, '')).join(zh ? '；' : '; ');
  return `${lead}${lead && !zh ? ' ' : ''}${items}${zh ? '。' : '.'}`;
}

/** The answer made of the best statements, none that says again what `listed` (lines quoted already) says. */
function statementsAnswer(
  question: string,
  packed: PackedContext,
  maxSentences: number,
  listed: string[] = [],
  textOf?: TextOf,
): DraftAnswer {
  // A question asking for several things reads a lead-in's `Label: …` lines as the list of their labels.
  const labels = asksForList(question, true) ? (textOf ?? (() => undefined)) : undefined;
  const asksInChinese = HAN_CHAR.test(question);
  const picked: ScoredStatement[] = [];
  const seen = listed.map((l) => sayingOf(l));
  const ranked = rankStatements(question, packed);
  // No statement holds enough of the question to be its answer: say so, and show where it likeliest is.
  if (ranked.length && !listed.length && ranked[0]!.held < W.confident)
    return likeliestPassages(question, ranked, textOf);
  for (const x of ranked) {
    // The same sentence twice (overlapping chunks, a summary quoting its source) counts once, and
    // so does a Chinese one said again in other words (two translations of one article) or in the
    // other script (a translation's Simplified and Traditional editions).
    const saying = sayingOf(x.text);
    if (seen.some((k) => saysAgain(k, saying))) continue;
    seen.push(saying);
    // A translation of a statement already picked: the one in the question's language is kept.
    const twin = picked.findIndex((y) => translationPair(x.text, y.text));
    if (twin >= 0) {
      if (inChinese(x.text) === asksInChinese && inChinese(picked[twin]!.text) !== asksInChinese) picked[twin] = x;
      continue;
    }
    picked.push(x);
    if (picked.length >= maxSentences) break;
  }
  if (!picked.length) return { text: NOTHING, citations: [], mode: 'offline' };
  // For "what is X?", the entries saying what X is come first (This scheme, later called Folgezettel…
  // before a passing mention in a higher-ranked entry); then reading order.
  const defines = definesRe(question, packed.renderings);
  const defining = new Set(picked.filter((x) => defines?.test(x.text)).map((x) => x.entry));
  // An entry's passages come packed by rank: read them in the order of the note (summary first).
  const line = (x: ScoredStatement) => (x.at[1] === 0 ? -1 : (x.entry.passages[x.at[1] - 1]?.line ?? 0));
  picked.sort(
    (a, b) =>
      Number(defining.has(b.entry)) - Number(defining.has(a.entry)) ||
      a.at[0] - b.at[0] ||
      line(a) - line(b) ||
      a.at[1] - b.at[1] ||
      a.at[2] - b.at[2],
  );
  const paragraphs: string[] = [];
  // Statements a lead-in took along (`at` joined), not to be quoted again.
  const consumed = new Set<string>();
  for (let i = 0; i < picked.length; ) {
    const e = picked[i]!.entry;
    const run: string[] = [];
    for (; i < picked.length && picked[i]!.entry === e; i++) {
      const x = picked[i]!;
      if (consumed.has(x.at.join())) continue;
      const prev = picked[i - 1];
      const preceded = prev?.entry === e && prev.at[1] === x.at[1] && prev.at[2] === x.at[2] - 1;
      const before = preceded ? undefined : pointedAt(x, consumed);
      if (before) run.push(before);
      // A lead-in into `Label: …` lines, for a list question: the labels, whatever else was picked.
      const named = /[:：]$/u.test(x.text) ? labelsAfter(x, consumed, labels) : undefined;
      if (named) {
        run.push(`${x.text}${/:$/.test(x.text) ? ' ' : ''}${named}`);
        continue;
      }
      // A statement that announces a count ("Instantiation happens in two steps.") takes as many after it.
      const counted = announcedCount(x.text);
      if (counted) {
        run.push(x.text, ...countedFollowers(x, counted, consumed));
        continue;
      }
      // A lead-in takes what it leads into even when the first of it was picked too.
      if (!/[:：]$/u.test(x.text)) {
        run.push(x.text);
        continue;
      }
      // A lead-in says nothing without what it leads into: the sentence or the list items after it.
      const after = leadInFollowers(x, consumed, textOf);
      run.push(
        after ? `${x.text}${/:$/.test(x.text) ? ' ' : ''}${after}` : x.text.replace(/：$/u, '。').replace(/:$/, '.'),
      );
    }
    paragraphs.push(`${titledBy(question, e)}${joinStatements(run)} ${cite(e)}`);
  }
  return { text: paragraphs.join('\n\n'), citations: uniqueCitations(picked.map((x) => x.entry)), mode: 'offline' };
}

const HAN_CHAR = /\p{Script=Han}/u;

/** For a question asking which text says something (in which issue, 哪一期), the title of the entry it quotes, as the answer's first words. */
function titledBy(question: string, e: PackedEntry): string {
  if (!intentsOf(question).has('source')) return '';
  return HAN_CHAR.test(question) ? `${e.title}：` : `${e.title}: `;
}

/**
 * The answer when no statement answers with confidence: that, in the asker's language, then the
 * texts holding the best-ranked statements, each as the statements around its best one, quoted.
 */
function likeliestPassages(question: string, ranked: ScoredStatement[], textOf?: TextOf): DraftAnswer {
  const quoted = new Set<string>();
  const chosen: ScoredStatement[] = [];
  const quotes: string[] = [];
  // A quote that says again what one before it says (a translation's edition in the other script) is left out.
  const seen: Saying[] = [];
  for (const x of ranked) {
    const key = `${x.entry.id}\u0000${x.at[1]}`;
    if (quoted.has(key)) continue;
    quoted.add(key);
    const window = quoteAround(x, textOf);
    const saying = sayingOf(window.join(' '));
    if (!saying.key || seen.some((k) => saysAgain(k, saying))) continue;
    seen.push(saying);
    chosen.push(x);
    quotes.push(`> ${titledBy(question, x.entry)}${joinStatements(window)} ${cite(x.entry)}`);
    if (chosen.length >= W.likeliestPassages) break;
  }
  const unsure = HAN_CHAR.test(question) ? ZH.UNSURE : EN.UNSURE;
  return {
    text: [unsure, ...quotes].join('\n\n'),
    citations: uniqueCitations(chosen.map((x) => x.entry)),
    mode: 'offline',
    unsure: true,
  };
}

/** The statements quoted around a statement: those before and after it in its passage, a lead-in with what it leads into. */
function quoteAround(x: ScoredStatement, textOf?: TextOf): string[] {
  const texts = [x.entry.summary, ...x.entry.passages.map((p) => p.text)];
  const all = statements(texts[x.at[1]] ?? '');
  const from = Math.max(0, x.at[2] - W.passageBefore);
  const window = all.slice(from, x.at[2] + 1 + W.passageAfter).filter((s) => !looksLikeCode(s));
  // A quote never ends at a lead-in (`…compare:`): what it leads into comes with it.
  const last = Math.min(all.length - 1, x.at[2] + W.passageAfter);
  const lead = window[window.length - 1];
  if (lead !== undefined && lead === all[last] && /[:：]$/u.test(lead)) {
    const after = leadInFollowers({ ...x, text: lead, at: [x.at[0], x.at[1], last] }, new Set(), textOf);
    if (after) window[window.length - 1] = `${lead}${/:$/.test(lead) ? ' ' : ''}${after}`;
  }
  return window;
}

/** The words in Latin letters of a statement, lowercase and singular. */
function latinWords(s: string): Set<string> {
  return new Set((s.toLowerCase().match(/[a-z][a-z0-9]+/g) ?? []).map(baseForm));
}

/**
 * A Chinese statement and an English one that say the same thing: every name in Latin letters the
 * Chinese one keeps (at least two: 受生成对抗网络（GAN）的启发，…包含 generator 与 evaluator 的多 agent 结构)
 * stands in the English one.
 */
function translationPair(a: string, b: string): boolean {
  if (inChinese(a) === inChinese(b)) return false;
  const [zh, en] = inChinese(a) ? [a, b] : [b, a];
  const names = latinWords(zh);
  if (names.size < 2) return false;
  const words = latinWords(en);
  for (const n of names) if (!words.has(n)) return false;
  return true;
}

/** A statement as compared with others: its letters in Simplified script, and their character pairs. */
interface Saying {
  key: string;
  pairs: Set<string>;
}

function sayingOf(text: string): Saying {
  const key = norm(foldText(text));
  return { key, pairs: charPairs(key) };
}

/** Whether `b` says again what `a` says: one holds the other, or most of their character pairs are shared. */
function saysAgain(a: Saying, b: Saying): boolean {
  return a.key.includes(b.key) || b.key.includes(a.key) || overlap(a.pairs, b.pairs) >= W.sameSentence;
}

/** The character pairs of a Chinese statement (none for one in Latin letters: its words are no pairs). */
function charPairs(key: string): Set<string> {
  const chars = Array.from(key);
  const han = chars.filter((c) => /\p{Script=Han}/u.test(c)).length;
  if (han * 2 < chars.length) return new Set();
  const out = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i]! + chars[i + 1]!);
  return out;
}

/** Jaccard overlap of two sets. */
function overlap(a: Set<string>, b: Set<string>): number {
  let n = 0;
  for (const x of a) if (b.has(x)) n++;
  return a.size && b.size ? n / (a.size + b.size - n) : 0;
}

const ENDED = /[。！？!?.…」』”"）)]$/u;
/** Two letters or Han characters in a row: a statement that says something. */
const WORDY = /\p{L}{2}/u;
const CJK_END = /[\u3000-\u303f\uff00-\uffef\p{Script=Han}]$/u;

/**
 * Statements in reading order as one paragraph: a statement with no end mark (a list item, a line
 * of plain text) gets one, so it is not read as the start of the next.
 */
function joinStatements(run: string[]): string {
  return run.reduce((acc, s) => {
    if (!acc) return s;
    const closed = ENDED.test(acc) || /[:：；;]$/u.test(acc) ? acc : `${acc}${CJK_END.test(acc) ? '。' : '.'}`;
    return `${closed}${CJK_END.test(closed) ? '' : ' '}${s}`;
  }, '');
}

/** A short statement that points back ("The Inversion pattern flips this dynamic.", "这种做法…"). */
const POINTS_BACK =
  /\b(?:this|these|those|such)\s+[a-z]{3,}|^(?:it|they|this|these)\b|^(?:它|其|该|此)|这(?:种|个|些|样|一)/iu;

/**
 * The sentence a short statement points back to ("Agents inherently want to guess…" before "The
 * Inversion pattern flips this dynamic."), from the same text; marked used. undefined when the
 * statement stands alone, or the one before it is no sentence or was quoted already.
 */
function pointedAt(x: ScoredStatement, consumed: Set<string>): string | undefined {
  const short = inChinese(x.text) ? Array.from(x.text).length <= 30 : x.text.split(/\s+/).length <= 12;
  if (!short || !POINTS_BACK.test(x.text) || x.at[2] === 0) return undefined;
  const key = [x.at[0], x.at[1], x.at[2] - 1].join();
  if (consumed.has(key)) return undefined;
  const texts = [x.entry.summary, ...x.entry.passages.map((p) => p.text)];
  const before = statements(texts[x.at[1]] ?? '')[x.at[2] - 1];
  if (!before || !ENDED.test(before) || !WORDY.test(before) || /[:：]$/u.test(before)) return undefined;
  consumed.add(key);
  return before;
}

/**
 * What a lead-in (`…两个工具：`) leads into, from the same text: the sentence after it, or up to
 * five list items (statements with no end mark) joined as one sentence; each is marked used so it
 * is not quoted twice. undefined when the text has nothing after it.
 */
function leadInFollowers(x: ScoredStatement, consumed: Set<string>, textOf?: TextOf): string | undefined {
  const texts = [x.entry.summary, ...x.entry.passages.map((p) => p.text)];
  let read = readStatements(texts[x.at[1]] ?? '');
  let at = x.at[2];
  let mark = (k: number) => consumed.add([x.at[0], x.at[1], x.at[2] + 1 + k].join());
  // A packed passage may end at the lead-in: what it leads into is read in the entry's whole text.
  if (at + 1 >= read.length && textOf) {
    const whole = readStatements(textOf(x.entry.id) ?? '');
    // Chunks overlap: the last time the text says it, it goes on with what it leads into.
    const found = whole.findLastIndex((r) => norm(r.text) === norm(x.text));
    if (found >= 0) {
      read = whole;
      at = found;
      mark = () => consumed;
    }
  }
  const after = read.slice(at + 1).map((r) => r.text);
  const han = CJK_END.test(x.text);
  const first = after[0];
  if (!first || !WORDY.test(first)) return undefined;
  // A lead-in into a list or a table: its items or rows, whole sentences or not; of a nested list,
  // the items at its top, each by its first sentence.
  const block = read[at + 1]!;
  if ((block.kind === 'item' || block.kind === 'row') && block.block !== read[at]?.block) {
    const items: string[] = [];
    for (const [k, r] of read.slice(at + 1).entries()) {
      const most = block.kind === 'row' ? W.leadInRowsChars : W.leadInItemsChars;
      const full = items.length >= 5 || (items.length > 0 && items.join('').length + r.text.length > most);
      if (full || r.block !== block.block) break;
      mark(k);
      if (r.depth > block.depth || !r.opens) continue;
      items.push(r.text.replace(/[。.;；]$/u, ''));
    }
    return `${items.join(han ? '；' : '; ')}${han ? '。' : '.'}`;
  }
  if (ENDED.test(first) || first.length > 120) {
    mark(0);
    return first;
  }
  const items: string[] = [];
  for (const [k, s] of after.entries()) {
    // A line that says nothing (a code listing's line number, a lone mark) ends the list.
    // So does a new lead-in (`使用方式：`), which leads into something else.
    if (k >= 5 || ENDED.test(s) || !WORDY.test(s) || /[:：]$/u.test(s) || items.join('').length + s.length > 240) break;
    items.push(s);
    mark(k);
  }
  return items.length ? `${items.join(han ? '；' : '; ')}${han ? '。' : '.'}` : undefined;
}

const EN_COUNT = new RegExp(
  `\\b(${anyOf(EN.NUMBERS.slice(1))}|[2-9])\\s+(?:\\w+\\s+)?(?:${anyOf(EN.COUNTERS)}|way|thing|reason)s\\s*[.:]$`,
  'iu',
);
const ZH_COUNT = new RegExp(
  `([两${ZH.NUMERALS.slice(1).join('')}2-9])\\s*[${ZH.COUNTERS.join('')}](?:骤|面|种)?[。：:]$`,
  'u',
);

/** The count a statement announces at its end ("…in two steps.", "…分为三步。"), or 0. */
export function announcedCount(text: string): number {
  const en = EN_COUNT.exec(text)?.[1];
  if (en) return /\d/.test(en) ? Number(en) : EN.NUMBERS.indexOf(en.toLowerCase()) + 1;
  const zh = ZH_COUNT.exec(text)?.[1];
  if (zh) return zh === '两' ? 2 : /\d/.test(zh) ? Number(zh) : ZH.NUMERALS.indexOf(zh) + 1;
  return 0;
}

/** The `count` statements after `x` in its text (five at most), each marked used. */
function countedFollowers(x: ScoredStatement, count: number, consumed: Set<string>): string[] {
  const texts = [x.entry.summary, ...x.entry.passages.map((p) => p.text)];
  const after = statements(texts[x.at[1]] ?? '').slice(x.at[2] + 1, x.at[2] + 1 + Math.min(count, 5));
  const out: string[] = [];
  for (const [k, s] of after.entries()) {
    const key = [x.at[0], x.at[1], x.at[2] + 1 + k].join();
    if (consumed.has(key) || !WORDY.test(s)) break;
    consumed.add(key);
    out.push(s);
  }
  return out;
}

/**
 * For a list question, what a lead-in leads into when it is `Label: what it is` lines (设计质量（Design
 * quality）：…, Craft: …): their labels as one sentence, read in the passage or else in the entry's whole
 * text (a packed passage may end at the lead-in). The statements they stand in are marked used.
 */
function labelsAfter(x: ScoredStatement, consumed: Set<string>, textOf: TextOf | undefined): string | undefined {
  if (!textOf) return undefined;
  const own = [x.entry.summary, ...x.entry.passages.map((p) => p.text)][x.at[1]] ?? '';
  const labels = labelledItems(own, x.text) ?? labelledItems(textOf(x.entry.id) ?? '', x.text);
  if (!labels) return undefined;
  const after = statements(own).slice(x.at[2] + 1);
  const last = labels[labels.length - 1]!;
  const end = after.findIndex((s) => s.startsWith(last));
  for (let k = 0; k <= end; k++) consumed.add([x.at[0], x.at[1], x.at[2] + 1 + k].join());
  const han = CJK_END.test(x.text);
  return `${labels.join(han ? '；' : '; ')}${han ? '。' : '.'}`;
}

function uniqueCitations(entries: PackedEntry[]): Citation[] {
  const out = new Map<string, Citation>();
  for (const e of entries) if (!out.has(e.id)) out.set(e.id, { id: e.id, title: e.title, file: e.file });
  return [...out.values()];
}

/**
 * Point the `[[Title]]` citations of a model's answer at the packed entries (by title or file
 * name, case-insensitively); a citation of anything that was not in the context becomes plain text.
 */
export function resolveCitations(
  text: string,
  packed: PackedContext,
): { text: string; citations: Citation[]; unknown: string[] } {
  const byKey = new Map<string, PackedEntry>();
  for (const e of packed.entries) {
    byKey.set(linkKey(e.title), e);
    byKey.set(linkKey(e.file), e);
  }
  const used: PackedEntry[] = [];
  const unknown = new Set<string>();
  const out = text.replace(
    /\[\[([^\]\n|#]*)(#[^\]\n|]*)?(?:\|([^\]\n]*))?\]\]/g,
    (_w, target: string, _h: string | undefined, alias: string | undefined) => {
      const e = byKey.get(linkKey(target.trim()));
      if (!e) {
        if (target.trim()) unknown.add(target.trim());
        return alias ?? target;
      }
      used.push(e);
      return linkMarkup(e.file, alias ?? e.title);
    },
  );
  return { text: out.trim(), citations: uniqueCitations(used), unknown: [...unknown] };
}

/** The question in keyword queries, Chinese and English, so either language finds the other's sources. */
export async function expandQuery(
  client: ModelClient,
  root: string,
  question: string,
  signal?: AbortSignal,
): Promise<string[]> {
  const tpl = loadTemplate(root, 'expand-query');
  const { system, input } = splitTemplate(tpl.text);
  const res = await client.complete(
    {
      task: 'expand-query',
      templateHash: tpl.hash,
      system: renderTemplate(system, {}),
      prompt: renderTemplate(input, { question }),
      maxTokens: 300,
    },
    signal,
  );
  return parseQueries(res.text);
}

export function parseQueries(reply: string): string[] {
  const out: string[] = [];
  for (const m of reply.matchAll(/<query[^>]*>([\s\S]*?)<\/query>/g)) {
    const q = m[1]!.replace(/\s+/g, ' ').trim();
    if (q && !out.includes(q)) out.push(q);
  }
  return out.slice(0, 6);
}

/** Claude answers from the packed context only, citing entries as [[Title]]. */
export async function modelAnswer(
  client: ModelClient,
  root: string,
  question: string,
  packed: PackedContext,
  signal?: AbortSignal,
): Promise<DraftAnswer> {
  if (!packed.entries.length) return { text: NOTHING, citations: [], mode: 'model', model: client.model };
  const tpl = loadTemplate(root, 'answer');
  const { system, input } = splitTemplate(tpl.text);
  const res = await client.complete(
    {
      task: 'answer',
      templateHash: tpl.hash,
      system: renderTemplate(system, {}),
      prompt: renderTemplate(input, { question, context: packed.xml }),
      maxTokens: 1500,
      // A malformed reply is not kept in .kb/cache.db: asking again asks the model again.
      keep: (r) => !malformedReply(r),
    },
    signal,
  );
  const inAnswer = /<answer>([\s\S]*?)(<\/answer>|$)/.exec(res.text)?.[1];
  const malformed = malformedReply(res);
  // A reply without <answer> is shown only when it is prose: markup (a <kb_entry>, other tags) never reaches the screen.
  const reply = inAnswer ?? (/<\/?[A-Za-z_][\w-]*(?:\s[^<>]*)?>/.test(res.text) ? '' : res.text);
  const { text, citations, unknown } = resolveCitations(reply.trim(), packed);
  return {
    text: text || (malformed ? UNREADABLE : NOTHING),
    citations,
    ...(unknown.length ? { unknownCitations: unknown } : {}),
    mode: 'model',
    model: client.model,
    usage: res.usage,
    cached: res.cached,
    ...(malformed ? { malformed } : {}),
  };
}

/** Why a reply to the answer prompt is not a well-formed answer, if it is not. */
function malformedReply(res: { text: string; stopReason: string }): string | undefined {
  if (!res.text.trim()) return 'is empty';
  if (res.stopReason === 'max_tokens') return 'was cut off at the token limit';
  const m = /<answer>([\s\S]*?)(<\/answer>|$)/.exec(res.text);
  if (!m) return 'has no <answer> element';
  if (!m[2]) return 'has an <answer> element that is never closed';
  if (!m[1]!.trim()) return 'has an empty <answer>';
  return undefined;
}
