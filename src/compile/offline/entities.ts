import { WEIGHTS } from './weights.js';
import { headingSnippet } from '../types.js';
import { isHeadingLine } from '../../text/layout.js';
import {
  outlineParagraphs,
  namesIn,
  outlineSections,
  placesNaming,
  sectionHeadings,
  sectionsNaming,
} from '../../text/outline.js';
import { HAN, hanCount } from '../../text/script.js';
import { isEverydayWord } from '../../text/jieba.js';
import { sentences } from '../../text/segment.js';
import { cutComments } from '../../text/comments.js';
import { entityKey } from '../../entry/names.js';
import { isCommonEnglishWord } from '../../text/english-words.js';
import { baseForm } from '../../text/lexicon.js';
import { englishTerms, foldShortNames, isCodeLine } from './en-terms.js';
import { definedTypes, headingTerms, withoutHeadings } from './stressed.js';
import { openCode, sealCode } from '../../text/code-spans.js';
import { titleSubjects } from './subject.js';
import { unwrapParagraphs } from '../../chunk/reading.js';
import { foldText } from '../../text/fold.js';
import { type Block, headingText, LIST_ITEM, parseBlocks } from '../../chunk/blocks.js';
import {
  boundTerms,
  chineseTerms,
  countPairs,
  looseWords,
  isCommonCompound,
  isCommonZh,
  isZhNounPhrase,
  latinNames,
  termBefore,
  tokenizeZh,
  type WordPair,
  type ZhToken,
} from './zh-terms.js';
import { anyOf, escapeRe } from '../../text/lang/words.js';
import * as EN from '../../text/lang/en.js';
import * as ZH from '../../text/lang/zh.js';

/** An entity found in one document. */
export interface FoundEntity {
  /** Matching key: NFKC, lowercase, singular, spaces collapsed. */
  key: string;
  /** The form written in the document most often. */
  surface: string;
  /** Other names the document gives it: `Full Name (ABBR)`, `中文（English）`. */
  aliases: string[];
  count: number;
  /** Up to three sentences that mention it, best first. */
  snippets: string[];
  /** Given with a translation or abbreviation, emphasised, or in a heading: what the document is about. */
  salient: boolean;
  /** Named by the work's title and named again and again in its text: the work's subject. */
  subject?: boolean;
  /**
   * An everyday word the text keeps using (提交, 快照, merge): no concept of its own, but a mention
   * of one that the same words name elsewhere (compile/concepts.ts), in this language or another.
   */
  weak?: boolean;
  /** The sections of the text's outline that name it (text/outline.ts), when it has enough of them. */
  sections?: number[];
  /** …and the paragraphs of those sections that name it (`section.paragraph`: text/outline.ts). */
  places?: string[];
}

interface Candidate {
  surfaces: Map<string, number>;
  count: number;
  aliases: Set<string>;
  strong: boolean;
  /** Mentions the layout stands for (stressed.ts). */
  boost?: number;
  /** Sentences about it when none names it (stressed.ts). */
  context?: string[];
  /** Times the text uses it as a noun phrase of its own, not part of a longer one. */
  alone?: number;
  /** A term of the title the text keeps returning to (subject.ts). */
  subject?: boolean;
  /** The name the whole title gives, with words of its kind only: said by the title, if not in the sentences. */
  titled?: boolean;
  /** An everyday word: kept as a weak name only. */
  weak?: boolean;
}

/** A web address with its query or fragment (group 1: the address without them). */
const ADDRESS_QUERY = /(https?:\/\/[^\s?#)>\]]*)[?#][^\s)>\]]*/g;
/** Inline code spans. */
const INLINE_CODE = /`[^`\n]+`/g;

/** The text with its code (fenced blocks as chunk/blocks.ts reads them, inline spans) blanked, every offset kept. */
function maskCode(markdown: string): string {
  if (!markdown.includes('`') && !markdown.includes('~~~')) return markdown;
  const blank = (m: string) => m.replace(/[^\n]/g, ' ');
  const fenced = markdown.includes('```') || markdown.includes('~~~');
  const out = fenced ? replaceBlocks(markdown, fencedBlocks(markdown), blank) : markdown;
  return out.replace(INLINE_CODE, blank);
}

/** The fenced code blocks of a text, as chunk/blocks.ts reads them. */
function fencedBlocks(markdown: string): Block[] {
  return parseBlocks(markdown).blocks.filter((b) => b.kind === 'code');
}

/** The text with each of the blocks given (in order, from this text) replaced by what `by` makes of it. */
function replaceBlocks(markdown: string, blocks: readonly Block[], by: (text: string) => string): string {
  let out = '';
  let at = 0;
  for (const b of blocks) {
    out += markdown.slice(at, b.start) + by(markdown.slice(b.start, b.end));
    at = b.end;
  }
  return out + markdown.slice(at);
}

/** The text with its inline code spans and parenthesised code blanked out. */
function withoutCode(markdown: string): string {
  return markdown.replace(CODE_IN_PARENS, ' ').replace(INLINE_CODE, ' ');
}

/*
 * Every pattern here runs on whole documents, where one line may be megabytes long: each must be
 * linear. A match may only start where a word starts (a lookbehind), so a long word is scanned
 * once, not once per letter; and the words inside a match are bounded (no name has a 40-letter
 * word), so a try that fails costs a few dozen steps.
 */
/** Parentheses that hold only inline code: (`origin`), （`git add`）. */
const CODE_IN_PARENS = /[（(][ \t]*`[^`\n]{1,80}`[ \t]*[)）]/g;
const PAREN_ABBR = /[（(][ \t]*[A-Z][A-Za-z0-9-]{1,10}[ \t]*[)）]/g;
const PAREN_EN =
  /(?<![A-Za-z])([A-Za-z][\p{L}\p{N}-]{0,40}(?:[ \t]+[A-Za-z][\p{L}\p{N}-]{0,40}){0,6})[ \t]*[（(][ \t]*([A-Z][A-Za-z0-9-]{1,10})[ \t]*[)）]$/u;
const PAREN_ZH = /([\u3400-\u9fff]{2,16})[ \t]*[（(][ \t]*([A-Za-z][A-Za-z0-9 .\-,，;；、]{1,60}?)[ \t]*[)）]/gu;
const PAREN_EN_ZH =
  /(?<![A-Za-z])([A-Za-z][A-Za-z0-9.-]{0,40}(?:[ \t][A-Za-z][A-Za-z0-9.-]{0,40}){0,4})[ \t]*[（(][ \t]*([\u3400-\u9fff]{2,10})[ \t]*[)）]/gu;
const EMPHASIS =
  /\*\*([^*\n]{2,60})\*\*|__([^_\n]{2,60})__|《([^》\n]{2,30})》|「([^」\n]{2,30})」|\[\[([^[\]|#\n]{2,60})(?:[|#][^[\]\n]{0,200})?\]\]/g;
/**
 * A term right after a word that names what was described (en.CALLED), in italics or in quotes and
 * lowercase: "is called _X_", 'are referred to as "x" commands'. A quoted word in capitals is more
 * often a label on screen or a file ("a button called "Save"").
 */
const CALLED_TERM = new RegExp(
  `\\b(?:${anyOf(EN.CALLED)})\\s+(?:an?\\s+|the\\s+)?(?:_([^_\\n]{2,60})_|\\*([^*\\n]{2,60})\\*|["“]([a-z][a-z -]{1,58}[a-z])["”])(?![_*])`,
  'g',
);
/**
 * A term of two words or more set in quotes and defined by the clause right after it
 * (EN.QUOTE_DEFINING): Some models show "context rot," in which… — a writer introducing a term of
 * their own (one word in quotes, a "mode", which means…, is an everyday word put to a use).
 */
const QUOTED_DEFINED = new RegExp(
  `["“]([a-z][a-z-]* [a-z -]{0,56}[a-z]),?["”],?[ \\t]+\\(?(?:${anyOf(EN.QUOTE_DEFINING)})\\b`,
  'g',
);
/**
 * A term that opens a sentence and is defined between dashes right after it: "Cold starts—loading
 * the model before the first request—cost…" (two words or more; the definition a gerund's clause).
 */
const DASH_DEFINED = /(?:^|[.!?][ \t]+)([A-Z][a-z]+(?: [a-z]+){1,3})[ \t]?[—–][ \t]?[a-z]+ing\b/gm;
/**
 * A Chinese term right after a word that names what was described (zh.CALLED), closing its clause:
 * 这种问题叫做合并冲突。, 这个过程称为三方合并， — written plainly, as Chinese writes a term it
 * introduces (English sets it in italics or quotes: CALLED_TERM).
 */
const CALLED_TERM_ZH = new RegExp(
  `(?:${anyOf(ZH.CALLED)})[ \\t]*([\\u3400-\\u9fff]{2,8})(?=[。，；：、！？,.;:!?）)]|[ \\t]*$)`,
  'gmu',
);
/** Parts of speech (jieba's tags) no term is made of: particles, adverbs, prepositions, pronouns, conjunctions, interjections. */
const NOT_IN_TERM = new Set(['uj', 'ul', 'uz', 'ug', 'ud', 'uv', 'd', 'p', 'r', 'c', 'y', 'e', 'o', 'f']);

/**
 * What a text names after 叫做/称为 is a term whatever its words' parts of speech (合并/冲突, a verb
 * and a verbal noun; 暂存/区域): only a phrase of at most four words, none of them a particle, an
 * adverb or a pronoun (被称为世界上最快的语言 describes, it names nothing).
 */
function calledZh(t: string): boolean {
  const tokens = tokenizeZh(t);
  return tokens.length <= 4 && !tokens.some((x) => NOT_IN_TERM.has(x.tag) || ZH.STOP.has(x.word));
}

/** A link to an encyclopedia's article (Wikipedia in any language, Baidu Baike), with its text. */
const ENCYCLOPEDIA_LINK =
  /\[([^[\]\n]{2,60})\]\(https?:\/\/(?:[a-z-]+\.)?(?:wikipedia\.org\/wiki\/|baike\.baidu\.com\/item\/)[^()\s]*(?:\([^()\s]*\)[^()\s]*)*\)/g;
/** A verb that shows or says a string ends the text before a quote (zh.SHOW_VERBS). */
const SHOWN = new RegExp(`(?:${ZH.SHOW_VERBS.join('|')})[ \\t]*$`, 'u');
/** A step in a user interface before a marked name (en.UI_VERBS, zh.UI_VERBS): "click **Publish changes**". */
const UI_ACTED = new RegExp(
  `(?:^|[^\\p{L}])(?:${[...EN.UI_VERBS, ...ZH.UI_VERBS].join('|')})(?:[ \\t]+(?:on|the))?[ \\t]*$`,
  'iu',
);
/** A control's noun after a marked name (en.UI_CONTROLS, zh.UI_CONTROLS): "the **Publish changes** dialog". */
const UI_CONTROL = new RegExp(`^[ \\t]*(?:${[...EN.UI_CONTROLS, ...ZH.UI_CONTROLS].join('|')})(?![\\p{L}])`, 'iu');
/**
 * "click **Publish changes**", "the **Views** toggle", 点击「设置」, a menu path (**Settings →
 * Appearance**), a palette command (**Tags: Show tags**): a control's label in a step of a user
 * interface, marked for the eye, not a name the text stresses; as code it stays readable in a
 * quoted sentence, and code gives no name (nor a piece of one: "click Change site options").
 */
function uiLabelsAsCode(markdown: string): { markdown: string; labels: ReadonlySet<string> } {
  const none = { markdown, labels: new Set<string>() };
  if (!markdown.includes('**') && !markdown.includes('「')) return none;
  const MARKED = /\*\*([^*\n`]{2,60})\*\*|「([^」\n`]{2,30})」/g;
  // A label a step acts on once is the same control wherever the text marks it ("Under **Publish changes**, select…").
  const labels = new Set<string>();
  for (const m of markdown.matchAll(MARKED)) {
    const at = m.index ?? 0;
    const before = markdown.slice(Math.max(0, at - 16), at);
    const after = markdown.slice(at + m[0].length, at + m[0].length + 16);
    const inner = m[1] ?? m[2] ?? '';
    // A menu path (**Settings → Appearance**) or a palette command (**Tags: Show tags**) is a label too.
    const path = /[→›»]|\s>\s/.test(inner) || /^[A-Z][\w .-]{0,30}: [A-Z]/.test(inner);
    if (path || UI_ACTED.test(before) || UI_CONTROL.test(after)) labels.add(inner);
  }
  if (!labels.size) return none;
  const coded = markdown.replace(MARKED, (m, bold: string | undefined, quoted: string | undefined) => {
    const inner = bold ?? quoted ?? '';
    return labels.has(inner) ? `\`${inner}\`` : m;
  });
  return { markdown: coded, labels };
}

/** The text without the controls' labels uiLabelsAsCode made code: "select `Clear`" mentions no Clear. */
function withoutLabels(markdown: string, labels: ReadonlySet<string>): string {
  if (!labels.size) return markdown;
  return markdown.replace(/`([^`\n]{2,60})`/g, (m, inner: string) => (labels.has(inner) ? ' ' : m));
}

/** Distinct names from parentheses and emphasis that are counted or checked by a search of the whole text: more than any real page has. */
const MAX_COUNTED = 300;
/** Candidates compared pairwise for containment (a million comparisons at most). */
const MAX_COMPARED = 1000;
/** The longest piece of a line given to jieba or wink-nlp at once: a megabyte line is read in pieces. */
const MAX_PIECE = 4000;

function clean(s: string): string {
  return (
    s
      .replace(/\s+/g, ' ')
      .replace(/^[\s\p{P}]+|(?<![\s\p{P}])[\s\p{P}]+$/gu, '')
      .trim()
      // "Astro's `<ClientRouter />`": the possessive is the sentence's, the name is Astro.
      .replace(POSSESSIVE, '')
  );
}

/** A possessive ending a name ('s, ’s): never part of it ("Conway's Law" is a name with one inside). */
const POSSESSIVE = /(?<=[A-Za-z])['’]s$/;

/** The fields of a date format (YYYY-MM-DD, YYYYMMDDhhmm, HH:mm): a pattern to fill in, no name. */
const DATE_FORMAT = /^(?:YYYY|YY|MM|DD|HH|hh|mm|ss)(?:[-/:. ]?(?:YYYY|YY|MM|DD|HH|hh|mm|ss))*$/;

function validName(name: string): boolean {
  if (name.length < 2 || name.length > 60) return false;
  // Something to read: two letters in a row (Latin or Han), not an id like `21/3d7a`.
  if (!/[A-Za-z]{2}|[\u3400-\u9fff]{2}/.test(name)) return false;
  if (/^[\d\s/.:-]+[a-z\d]*$/i.test(name) && /\d/.test(name)) return false;
  if (/^[\p{P}\p{S}\s]+$/u.test(name)) return false;
  // Half a parenthesis (`Indexing (offline`) is a cut, not a name.
  if ((name.match(/[(（]/g)?.length ?? 0) !== (name.match(/[)）]/g)?.length ?? 0)) return false;
  if (/https?:|www\.|\.(?:com|org|net|io|md|png)$|^[a-z\d-]+(?:\.[a-z\d-]+){2,}$/i.test(name)) return false;
  if (DATE_FORMAT.test(name)) return false;
  const k = name.toLowerCase();
  if (EN.STOP.has(k) || ZH.STOP.has(name) || EN.GENERIC.has(k) || EN.CAP_STOP.has(k)) return false;
  return !isRequest(name);
}

/** 请参阅, 请确保: the reader asked to do something (zh.REQUEST and a verb of two characters or more). */
function isRequest(name: string): boolean {
  const folded = foldText(name);
  if (!folded.startsWith(ZH.REQUEST) || !/^[\u3400-\u9fff]{3,}$/.test(folded)) return false;
  const first = tokenizeZh(folded.slice(ZH.REQUEST.length))[0];
  return first !== undefined && first.word.length >= 2 && first.tag.startsWith('v');
}

/** An emphasised or paired English name that is a noun phrase, not a clause or a lone common word. */
function englishNameOk(name: string): boolean {
  const words = name.split(/\s+/);
  if (words.length > 5 || /[.:!?]$/.test(name)) return false;
  const edge = [words[0]!, words[words.length - 1]!].map((w) => w.toLowerCase());
  if (edge.some((w) => EN.STOP.has(w) || EN.GENERIC.has(w))) return false;
  // A step, not a thing: "Sync your vault", "Customize navigation" (a verb before its object, the
  // reader's: a title of a work, "Catch that Rabbit", is a name).
  const second = words[1];
  if (second === undefined) return true;
  return !(EN.READERS.has(second.toLowerCase()) || (EN.INSTRUCTION_VERBS.has(edge[0]!) && /^[a-z]/.test(second)));
}

/**
 * Entities of one document, found with language tools and no model: jieba's words and parts of
 * speech for Chinese (nouns, proper names and runs of nouns, never a piece of a word), wink-nlp's
 * noun phrases and proper nouns for English, acronyms, terms given with a translation or an
 * abbreviation in parentheses, and emphasised terms that are noun phrases.
 */
export function extractEntities(source: string, title: string): FoundEntity[] {
  // The text's code blocks, parsed once: indented code (a shell session, a listing) is read as code
  // is, not as sentences, and the identifiers of all of it are no names.
  const code = codeBlocks(source);
  const { markdown, labels: uiLabels } = uiLabelsAsCode(unwrapParagraphs(withoutIndentedCode(source, code)));
  // 设置了默认的名称 (`main`): code in parentheses is a value the text gives, not a translation.
  const text = stripMarkdown(withoutTableHeads(withoutLabels(markdown, uiLabels).replace(CODE_IN_PARENS, ' ')));
  const cands = new Map<string, Candidate>();
  const ofTitle = titleParts(title);
  const add = (name: string, strong: boolean, n = 1, subject = false): Candidate | undefined => {
    const surface = clean(name);
    if (!validName(surface)) return undefined;
    const key = entityKey(surface);
    // The title's own subject may end it ("Introducing the Go Race Detector"); it is never the whole title.
    if (!key || ofTitle(key, subject)) return undefined;
    let c = cands.get(key);
    if (!c) {
      c = { surfaces: new Map(), count: 0, aliases: new Set(), strong: false };
      cands.set(key, c);
    }
    c.surfaces.set(surface, (c.surfaces.get(surface) ?? 0) + n);
    c.count += n;
    c.strong ||= strong;
    return c;
  };
  // Code is no name and gives none: `make install (目标目录)` or `staging`（预发） pairs nothing.
  pairedNames(markdown.includes('`') ? stripMarkdown(withoutTableHeads(withoutCode(markdown))) : text, add, ofTitle);
  const emphasised: string[] = [];
  const labels = new Map<string, number>();
  // Marks inside code are code: `f1.__name__`, `**kwargs` and a listing's `def __init__` stress nothing.
  const uncoded = maskCode(markdown);
  for (const m of uncoded.matchAll(EMPHASIS)) {
    // **Indexing (offline):** is a label with a qualifier: the name is what comes before it.
    const inner = m.slice(1).find(Boolean) ?? '';
    const t = clean(inner.replace(/\s*[(（][^()（）]*[)）]\s*[:：]?\s*$/u, ''));
    const end = (m.index ?? 0) + m[0].length;
    const after = markdown.slice(end, end + 30);
    // 「main」branch: a word marked inside a longer English name is no name of its own (but
    // **Deploying** to the server is one: a function word follows it).
    const next = /^ ?([A-Za-z]+)/.exec(after)?.[1];
    const inName =
      !HAN.test(t) &&
      !t.includes(' ') &&
      /[A-Za-z0-9]$/.test(inner) &&
      next !== undefined &&
      !EN.STOP.has(next.toLowerCase());
    // **@name**: a person's account, mentioned; 显示「Walk」: a string shown on screen.
    const handle = /^\s*@/.test(inner);
    const shown = SHOWN.test(markdown.slice(Math.max(0, (m.index ?? 0) - 4), m.index ?? 0));
    if ((HAN.test(t) ? isZhNounPhrase(t) : englishNameOk(t)) && !inName && !handle && !shown) emphasised.push(t);
    // A label opens a line and markup, not prose, follows it: **价格：** …, **equiv** _[[…]]_.
    const opensLine = /(?:^|\n)[ \t]*(?:[-*+][ \t]+)?$/.test(
      markdown.slice(Math.max(0, (m.index ?? 0) - 8), m.index ?? 0),
    );
    if (/[:：]\s*$/.test(m[0].slice(0, -2)) || /^\s?[:：]/.test(after) || (opensLine && /^[ \t]*[_*`[]/.test(after)))
      labels.set(t, (labels.get(t) ?? 0) + 1);
  }
  // A term the text says it names ("is called _shadowing_") is one, however everyday its word.
  const named = namedTerms(markdown);
  // **价格：** or **equiv** _…_ opening item after item is a field of a repeated layout, not a name the
  // text stresses (a term opening its one definition, **消息队列：** …, is).
  for (let i = emphasised.length - 1; i >= 0; i--) if ((labels.get(emphasised[i]!) ?? 0) > 1) emphasised.splice(i, 1);
  const { latin, han } = byScript(text);
  const en = englishTerms(latin);
  // **Findings**: a common word in bold is still a common word.
  // **CHUNK**, **FUSE**: an everyday word in capitals is a label, not a name.
  for (const t of emphasised)
    if (t.includes(' ') || HAN.test(t) || !(en.lowerWords.has(t.toLowerCase()) || shouted(t))) add(t, true, 0);
  for (const t of named) add(t, true, 0);
  const everydayZh = new Map<string, number>();
  const titled = new Set(sectionHeadings(markdown).map((b) => (b.title ?? '').trim()));
  if (han) for (const [name, n] of zhCounts(han, en.names, everydayZh, titled)) if (n >= 2) add(name, false, n);
  for (const [name, n] of foldShortNames(en.names)) {
    // A capitalised word the text also writes in lowercase is a common word at a sentence's start.
    if (!name.includes(' ') && !/[A-Z].*[A-Z]/.test(name) && en.lowerWords.has(name.toLowerCase())) continue;
    // "SKILL" (from SKILL.md) is a word in capitals; two letters (AI, UI, DB) say too little alone.
    if (/^[A-Z]+$/.test(name) && (name.length < 3 || en.lowerWords.has(name.toLowerCase()))) continue;
    if ((en.modifiers.get(name) ?? 0) * 2 >= n && /(?:an|ish|ese|ch|i)$/.test(name)) continue;
    if (n >= 2 || isAcronym(name)) add(name, false, n);
  }
  // A term of art of one word, counted where the text repeats it (soundness, goroutine, monad).
  for (const [term, n] of en.terms) if (n >= 2 && !isCommonZh(term)) add(term, false, n);
  for (const [phrase, n] of en.phrases) {
    const c = n >= 2 ? add(phrase, false, n) : undefined;
    // Noun phrases standing on their own ("the knowledge base"), not inside a longer one.
    if (c) c.alone = (c.alone ?? 0) + n;
  }
  for (const s of [...headingTerms(markdown), ...definedTypes(source)]) {
    const c = add(s.name, true, 0);
    if (!c) continue;
    c.boost = (c.boost ?? 0) + s.weight;
    c.context = s.context;
  }
  // A title's subject is counted in the sentences, not in the title's own heading or a link back to
  // the work; whether the title opens with a name is judged without code (`git branch` says nothing).
  const prose = sentencesOf(markdown, title);
  let plain: string | undefined;
  const plainOf = () => (plain ??= sentencesOf(markdown));
  for (const s of titleSubjects(title, prose, plainOf, { work: true })) {
    const c = add(s.name, true, 0, true);
    if (!c) continue;
    c.count = Math.max(c.count, s.count);
    c.subject = true;
    if (s.titled) c.titled = true;
  }
  // A section's heading names what the section is about when the section keeps naming it ("Rebasing", "Tagging").
  for (const s of sectionSubjects(markdown)) {
    const c = add(s.name, true, 0);
    if (c) c.count = Math.max(c.count, s.count);
  }
  return finish(cands, text, markdown, title, codeIdentifiers(source, code), plainOf, [en.everyday, everydayZh]);
}

/**
 * Names that are the work's own subject: its title; the title without its qualifier ("Victoria" for
 * "Victoria (Australia)", "Fresno" for "Fresno, California"); the last word of a name of two or three
 * words, as a person is named by surname ("Luther" in "Martin Luther"); and a name of several words
 * that ends the title ("Indian War" in "French and Indian War" is a piece of it, not a second
 * subject). A name the title opens with is what it qualifies, another thing ("European Union" in
 * "European Union law"); a list of names ("Obsidian, Wikilinks and Backlinks") has no qualifier.
 */
function titleParts(title: string): (key: string, subject?: boolean) => boolean {
  const whole = entityKey(title);
  const place = /^([^,]+), [A-Z][\w.]*(?: [A-Z][\w.]*)?$/.exec(title);
  const words = title.split(' ');
  // "Martin Luther", not "Git Branching": a surname is no everyday word.
  const named =
    words.length >= 2 &&
    words.length <= 3 &&
    words.every((w) => /^[A-Z][a-z]+$/.test(w)) &&
    !isCommonEnglishWord(words.at(-1)!.toLowerCase());
  const keys = new Set([
    whole,
    entityKey(title.replace(/\s*[(（][^()（）]*[)）]\s*$/, '')),
    ...(place ? [entityKey(place[1]!)] : []),
    ...(named ? [entityKey(words.at(-1)!)] : []),
  ]);
  const spaced = ` ${whole} `;
  return (key, subject = false) => keys.has(key) || (!subject && key.includes(' ') && spaced.endsWith(` ${key} `));
}

/** An identifier as code writes it: camelCase, PascalCase with a capital inside, snake_case. */
const IDENTIFIER = /[A-Za-z_$][\w$]*/g;
const CODE_SHAPED = /^[A-Za-z_$][\w$]*$/;
const INNER_CAPITAL = /[a-z][A-Z]|_/;

/** The code blocks of a text, fenced and indented (chunk/blocks.ts's parser); none without a fence or an indented line. */
function codeBlocks(source: string): Block[] {
  if (!source.includes('```') && !source.includes('~~~') && !/(?:^|\n)(?: {4}|\t)\S/.test(source)) return [];
  return parseBlocks(source).blocks.filter((b) => b.kind === 'code' || b.kind === 'indentedCode');
}

/** Identifiers of the text's code blocks that are shaped as code is written. */
function codeIdentifiers(source: string, code: readonly Block[]): Set<string> {
  const out = new Set<string>();
  for (const b of code)
    for (const m of source.slice(b.start, b.end).matchAll(IDENTIFIER)) if (INNER_CAPITAL.test(m[0])) out.add(m[0]);
  return out;
}

/**
 * A name that is no concept whatever the text does with it: a placeholder of examples (foo, bar:
 * EN.PLACEHOLDERS), an identifier the text's code declares or calls (`ProductRow`, `useState`), or a
 * Chinese phrase joined by a particle (particlePhrase).
 */
function notAName(c: Candidate, codeIds: ReadonlySet<string>): boolean {
  if (particlePhrase(c)) return true;
  for (const s of c.surfaces.keys()) {
    if (
      s
        .toLowerCase()
        .split(/[\s_-]+/)
        .some((w) => EN.PLACEHOLDERS.has(w))
    )
      return true;
    if (CODE_SHAPED.test(s) && INNER_CAPITAL.test(s) && codeIds.has(s)) return true;
  }
  return false;
}

/** Particles that join a phrase (的, 了, 着, 地, 得): a Chinese name holding one alone is a phrase cut from a sentence (端的名稱). */
const PARTICLE_TAGS = new Set(['uj', 'ul', 'uz', 'uv', 'ud', 'ug']);

function particlePhrase(c: Candidate): boolean {
  for (const s of c.surfaces.keys())
    if (/[的了着著地得]/.test(s) && HAN.test(s) && tokenizeZh(s).some((t) => PARTICLE_TAGS.has(t.tag))) return true;
  return false;
}

/** A lowercase word in a past participle's form (memoized, deprecated, unstaged), not a noun: no seed, speed or feed. */
const PARTICIPLE = /^[a-z]{4,}(?:[^e]ed|ied|ized|ised)$/;

/** The subjects of a text's sections: terms of each heading that its section keeps naming (subject.ts). */
function sectionSubjects(markdown: string): { name: string; count: number }[] {
  const heads = sectionHeadings(markdown).filter((b) => b.title);
  const out: { name: string; count: number }[] = [];
  // Everyday words of the headings, by their base form: the headings they stand in, what their sections count.
  const everyday = new Map<string, { headings: number; count: number }>();
  heads.forEach((h, i) => {
    const next = heads.slice(i + 1).find((o) => (o.depth ?? 0) <= (h.depth ?? 0));
    // Counted in the section as written: Markdown's marks stand between words, never inside them.
    // An address's path names what it leads to (…/linter/pull/1 under "Linter"); its query is a
    // search, no mention (…?q=label%3Aneeds-review under "Needs Review").
    const section = markdown.slice(h.end, next ? next.start : markdown.length).replace(ADDRESS_QUERY, '$1');
    // A section of a line or two names nothing three times over.
    if (section.length < WEIGHTS.MIN_SECTION_CHARS) return;
    // A heading of one everyday word ("Status", "Adding", "检查") labels a step; a term of art or a phrase names a subject.
    // Nor does a participle ("Expensive calculations also get memoized"): it says what happens to the subject.
    for (const s of titleSubjects(h.title!, section, undefined, { nounsOnly: true })) {
      if (!everydayWord(s.name)) {
        if (!PARTICIPLE.test(s.name)) out.push(s);
        continue;
      }
      const base = baseWord(s.name, section);
      if (!base || isSectionLabel(s.name) || EN.STOP.has(base) || EN.GENERIC.has(base) || EN.CAP_STOP.has(base))
        continue;
      const e = everyday.get(base) ?? { headings: 0, count: 0 };
      e.headings++;
      e.count += mentionsOfWord(base, section);
      everyday.set(base, e);
    }
  });
  // …but an everyday word that heads several sections, each of which keeps naming it, is what the work
  // is about ("Basic Branching and Merging", "Basic Merging": merge).
  for (const [base, e] of everyday)
    if (e.headings >= WEIGHTS.RECURRING_HEADINGS && e.count >= WEIGHTS.RECURRING_MENTIONS)
      out.push({ name: base, count: e.count });
  return out;
}

/** How often a section writes an everyday word in any of its forms (merge, merges, merged, merging; 合并, 合併). */
function mentionsOfWord(base: string, section: string, forms = true): number {
  if (!/^[a-z]+$/.test(base)) return countOccurrences(foldText(section), foldText(base));
  const stem = base.replace(/e$/, '');
  const endings = forms ? `(?:s|es|d|ed|ing|${escapeRe(stem.at(-1)!)}ing|${escapeRe(stem.at(-1)!)}ed)?` : '(?:s|es)?';
  const re = new RegExp(`(?<![A-Za-z])(?:${escapeRe(base)}|${escapeRe(stem)})${endings}(?![A-Za-z])`, 'gi');
  return section.match(re)?.length ?? 0;
}

/**
 * An everyday word's base form (merge of "Merging", tag of "Tags", 合并 of 合併), by which its
 * headings are counted: of the forms a dictionary holds, the one its section writes most (staging is
 * stage, not stag).
 */
function baseWord(name: string, section: string): string {
  if (!/^[A-Za-z]+$/.test(name)) return entityKey(name);
  const lower = name.toLowerCase();
  // A singular no dictionary holds is no base form: canvas, lens (not canva, len).
  const single = baseForm(lower);
  const w = single !== lower && !isCommonEnglishWord(single) && isCommonEnglishWord(lower) ? lower : single;
  const stems = verbStems(w);
  const forms = stems.length ? stems : [w];
  const known = forms.filter((f) => isCommonEnglishWord(f));
  if (known.length < 2) return known[0] ?? w;
  const uses = known.map((f) => mentionsOfWord(f, section, false));
  return known[uses.indexOf(Math.max(...uses))]!;
}

/** The words an -ing or -ed form may come from (staging: stage, stag, sta; tagged: tagge, tagg, tag); none for another word. */
function verbStems(w: string): string[] {
  const stem = w.replace(/(?:ing|ed)$/, '');
  return stem !== w && stem.length >= 3 ? [`${stem}e`, stem, stem.slice(0, -1)] : [];
}

function everydayWord(name: string): boolean {
  if (/^[A-Za-z]+$/.test(name)) {
    // In any of its forms: "Stabilizing", "Changes", "Staged" are the everyday stabilize, change, stage.
    const w = name.toLowerCase();
    return [w, entityKey(w), ...verbStems(w)].some((f) => isCommonEnglishWord(f));
  }
  return /^[\u3400-\u9fff]+$/.test(name) && (isCommonZh(name) || isEverydayWord(name));
}

/** The text with its indented code blocks (of `blocks`) blanked out (fenced ones are cut by stripMarkdown). */
function withoutIndentedCode(markdown: string, blocks: readonly Block[]): string {
  const code = blocks.filter((b) => b.kind === 'indentedCode');
  if (!code.length) return markdown;
  return replaceBlocks(markdown, code, (t) => t.replace(/[^\n]+/g, ''));
}

/** A table's rule row, blanks taken out (`|---|:--:|`). */
const TABLE_RULE = /^\|?:?-{3,}:?(?:\|:?-{3,}:?)*\|?$/;

/**
 * A Markdown table without its header row: column labels (`支架类型 (Harness) | 成本 (Cost)`) name
 * the columns, often with a loose translation, and are neither prose nor names the text introduces.
 */
export function withoutTableHeads(markdown: string): string {
  if (!markdown.includes('|')) return markdown;
  const lines = markdown.split('\n');
  for (let i = 0; i + 1 < lines.length; i++)
    if (lines[i]!.includes('|') && lines[i + 1]!.includes('-') && TABLE_RULE.test(lines[i + 1]!.replace(/[ \t]/g, '')))
      lines[i] = '';
  return lines.join('\n');
}

/** Names given with an abbreviation or a translation: the strongest signal, and the alias pairs. */
function pairedNames(
  text: string,
  add: (name: string, strong: boolean, n?: number) => Candidate | undefined,
  ofTitle: (key: string) => boolean,
): void {
  const pairAlias = (main: string, alias: string) => {
    const a = clean(alias);
    if (!validName(a) || (/^[A-Za-z]/.test(a) && !englishNameOk(a))) return;
    // 卡片盒笔记法（Zettelkasten） in the work titled 卡片盒笔记法: the title is the source entry's
    // name, not a concept; the other name stays a stressed name of the text, so its concept page
    // (Zettelkasten, from other works) quotes this one too.
    if (ofTitle(entityKey(main))) {
      add(a, true, 0);
      return;
    }
    const c = add(main, true, 0);
    if (c && entityKey(a) !== entityKey(main)) c.aliases.add(a);
  };
  for (const p of text.matchAll(PAREN_ABBR)) {
    // Only the words right before an abbreviation in parentheses: one cheap scan, then a short match.
    const m = PAREN_EN.exec(text.slice(Math.max(0, (p.index ?? 0) - 100), (p.index ?? 0) + p[0].length));
    if (!m) continue;
    const abbr = m[2] ?? '';
    const words = (m[1] ?? '').split(/[ \t]+/);
    // The shortest tail of the phrase whose initials spell the abbreviation.
    for (let k = 2; k <= words.length; k++) {
      const full = words.slice(-k).join(' ');
      if (initialsMatch(full, abbr)) {
        pairAlias(full, abbr);
        break;
      }
    }
  }
  let zhParens = 0;
  for (const m of text.matchAll(PAREN_ZH)) {
    if (++zhParens > MAX_COUNTED) break;
    const before = text.slice(
      Math.max(0, (m.index ?? 0) + m[0].indexOf(m[1]!) - 8),
      (m.index ?? 0) + m[0].indexOf(m[1]!) + m[1]!.length,
    );
    const firstAlias = (m[2] ?? '').split(/[,，;；、]/)[0]!.trim();
    const tokens = tokenizeZh(before);
    const last = tokens[tokens.length - 1];
    const zh =
      termBefore(tokens, Math.min(3, firstAlias.split(/\s+/).length), abbreviationLetters(firstAlias)) ??
      glossedVerb(tokens, firstAlias, text);
    // A word the dictionary lacks (灰度（canary）) is a term only where the text keeps using it: a
    // table's row label glossed once (首页 (Home)) is a label.
    if (zh && last?.tag === 'x' && occurrences(text, last.word, WEIGHTS.UNKNOWN_MIN_USES) < WEIGHTS.UNKNOWN_MIN_USES)
      continue;
    // 中间信息遗失（Lost in the Middle） read back only to 遗失: a Chinese name has about two characters
    // for each word of the English one, so a much shorter one is a piece of it.
    const words = firstAlias.split(/[\s-]+/).filter((w) => w && !EN.STOP.has(w.toLowerCase())).length;
    if (!zh || (/^[A-Za-z]/.test(firstAlias) && [...zh].length < 2 * words - 1)) continue;
    const named = /^[A-Za-z]/.test(firstAlias) && !/^[A-Z0-9-]+s?$/.test(firstAlias) ? afterVerb(zh, words, text) : zh;
    // "倒数排名融合（Reciprocal Rank Fusion，RRF）": every name in the parentheses is an alias; but
    // "提供商可插拔（Gemini、Minimax）" lists examples: names that do not abbreviate one another.
    const inParens = (m[2] ?? '')
      .split(/[,，;；、]/)
      .map((a) => a.trim())
      .filter(Boolean);
    if (inParens.length > 1 && !inParens.slice(1).every((a) => initialsMatch(inParens[0]!, a))) continue;
    for (const alias of inParens) pairAlias(named, alias);
  }
  for (const m of text.matchAll(PAREN_EN_ZH)) {
    // "Heal（自我修复）" opening a line or a cell is a glossary's entry: its gloss may be a verb phrase.
    const entry = /(?:^|[\n\t]|\s;\s)$/.test(text.slice(Math.max(0, (m.index ?? 0) - 3), m.index));
    if (entry || isZhNounPhrase(m[2] ?? '')) pairAlias(trimLeadingStop(m[1] ?? ''), m[2] ?? '');
  }
  glossedNames(text, pairAlias);
}

/** "is German for", "means", "is short for" followed by a quoted name: a translation the text gives. */
const GLOSS = /[ \t](?:is|means)[ \t]+(?:[A-Z][a-z]{2,15}[ \t]+for|short[ \t]+for)[ \t]+["“]/g;
const GLOSSED = /(?<![A-Za-z])([A-Z][\p{L}\p{N}-]{1,40}(?:[ \t]+[A-Z][\p{L}\p{N}-]{1,40}){0,3})$/u;
const QUOTED = /["“]([^"”\n]{2,40})["”](?:[ \t]*(?:,[ \t]*)?(?:or|and)?[ \t]*(?=["“]))?/y;

/**
 * A name the text translates in words: `Zettelkasten is German for "slip box" or "card box"` gives
 * both quoted names as other names of it (what a Chinese text gives as 卡片盒（Zettelkasten）).
 */
function glossedNames(text: string, pairAlias: (main: string, alias: string) => void): void {
  let seen = 0;
  for (const g of text.matchAll(GLOSS)) {
    if (++seen > MAX_COUNTED) break;
    const at = g.index ?? 0;
    const name = GLOSSED.exec(text.slice(Math.max(0, at - 80), at))?.[1];
    if (!name) continue;
    QUOTED.lastIndex = at + g[0].length - 1;
    for (let q = QUOTED.exec(text); q; q = QUOTED.exec(text)) pairAlias(name, q[1]!);
  }
}

/**
 * 叫做混合检索（hybrid search）, 把向量写入向量数据库（vector database）: a verb before the name is the
 * sentence's when the text writes the name without it elsewhere and never again with it. The name
 * starts after that verb if it leaves about two characters for each English word (生成对抗网络
 * keeps its verbs: the rest is short) and is no everyday word (反向链接 is not 链接).
 */
function afterVerb(zh: string, englishWords: number, text: string): string {
  if (occurrences(text, zh, 2) > 1) return zh;
  const tokens = tokenizeZh(zh);
  for (let i = tokens.length - 2; i >= 0; i--) {
    if (tokens[i]!.tag !== 'v') continue;
    const rest = zh.slice(tokens[i]!.end).trim();
    if ((rest.match(/[\u3400-\u9fff]/g) ?? []).length < 2 * englishWords || isCommonZh(rest)) continue;
    if (occurrences(text, rest, 2) > 1) return rest;
  }
  return zh;
}

/** The letters of an abbreviation (SFC: single file component, a word each), 0 for any other name. */
function abbreviationLetters(name: string): number {
  return /^[A-Z]{2,6}s?$/.test(name) ? name.replace(/s$/, '').length : 0;
}

/** jieba's tags of the words after which a verb is the sentence's (an adverb, a conjunction, another verb). */
const SENTENCE_VERB_BEFORE = new Set(['d', 'ad', 'c', 'v']);

/**
 * 歸併(merge), 拉取(pull), 推送(push): a translation of a technical text glosses its verbs too, and
 * a verb the text keeps using (WEIGHTS.UNKNOWN_MIN_USES) glossed by one English word is the name of what it
 * does. After an adverb, a conjunction or another verb (必须修复（error）, 需要推送) it is the
 * sentence's verb; so is one the text uses once.
 */
function glossedVerb(tokens: readonly ZhToken[], gloss: string, text: string): string | undefined {
  const last = tokens.at(-1);
  const before = tokens.at(-2);
  if (last?.tag !== 'v' || !/^[\u3400-\u9fff]{2}$/.test(last.word) || !/^[a-z]{3,}$/.test(gloss)) return undefined;
  if (before && SENTENCE_VERB_BEFORE.has(before.tag)) return undefined;
  return occurrences(text, last.word, WEIGHTS.UNKNOWN_MIN_USES) >= WEIGHTS.UNKNOWN_MIN_USES ? last.word : undefined;
}

/** How often a string occurs in a text, counted up to `max` (2: whether it occurs again is what matters). */
function occurrences(text: string, s: string, max: number): number {
  let n = 0;
  for (let at = text.indexOf(s); at >= 0 && n < max; at = text.indexOf(s, at + s.length)) n++;
  return n;
}

/** Lines mostly in Latin letters (for the English tagger) and lines with Chinese (for jieba). */
function byScript(text: string): { latin: string; han: string } {
  const latin: string[] = [];
  const han: string[] = [];
  for (const line of text.split('\n').flatMap(pieces)) {
    const h = (line.match(/[\u3400-\u9fff]/g) ?? []).length;
    if (h === 0 || (line.match(/[A-Za-z]/g) ?? []).length > h * 6) latin.push(line);
    else han.push(line);
  }
  return { latin: latin.join('\n'), han: han.join('\n') };
}

/** A line cut into pieces of at most MAX_PIECE characters, at a space or a sentence's end when one is near. */
function pieces(line: string): string[] {
  if (line.length <= MAX_PIECE) return [line];
  const out: string[] = [];
  for (let at = 0; at < line.length; ) {
    let end = Math.min(line.length, at + MAX_PIECE);
    if (end < line.length) {
      const window = line.slice(end - 200, end);
      const cut = Math.max(window.lastIndexOf(' '), window.search(/[。！？；][^。！？；]*$/));
      if (cut > 0) end = end - 200 + cut + 1;
    }
    out.push(line.slice(at, end));
    at = end;
  }
  return out;
}

/** Chinese terms of every paragraph, counted; Latin names in Chinese prose go to `names`. */
/** jieba's tags of the everyday words kept as weak names: nouns and verbs (提交, 合并, 快照). */
const WEAK_TAGS = new Set(['n', 'v', 'vn', 'nz']);
const WEAK_ZH = /^[\u3400-\u9fff]{2,4}$/;

function zhCounts(
  text: string,
  names: Map<string, number>,
  everyday: Map<string, number>,
  headings: ReadonlySet<string>,
): Map<string, number> {
  const counts = new Map<string, number>();
  const made = new Map<string, string[]>();
  const bump = (t: string, words?: string[]) => {
    counts.set(t, (counts.get(t) ?? 0) + 1);
    if (words && !made.has(t)) made.set(t, words);
  };
  const bumpName = (t: string) => names.set(t, (names.get(t) ?? 0) + 1);
  const suspect = new Map<string, string>();
  const words = new Map<string, number>();
  const pairs = new Map<string, WordPair>();
  for (const para of text.split(/\n+/)) {
    if (!HAN.test(para)) continue;
    const tokens = tokenizeZh(para);
    for (const t of tokens) {
      words.set(t.word, (words.get(t.word) ?? 0) + 1);
      if (WEAK_TAGS.has(t.tag) && WEAK_ZH.test(t.word) && !ZH.STOP.has(foldText(t.word)))
        everyday.set(t.word, (everyday.get(t.word) ?? 0) + 1);
    }
    countPairs(tokens, pairs);
    chineseTerms(
      para,
      tokens,
      bump,
      (term, word) => suspect.set(term, word),
      (term) => headings.has(term),
    );
    latinNames(tokens, bumpName);
  }
  for (const [term, n] of boundTerms(pairs, words)) counts.set(term, Math.max(counts.get(term) ?? 0, n));
  // A term cut where jieba misread a word's end (智能/体会) goes when the document names the whole word
  // (智能体) at least as often: its own word boundaries outvote the one misreading.
  for (const [term, word] of suspect) if ((counts.get(word) ?? 0) >= (counts.get(term) ?? 0)) counts.delete(term);
  // 工作流程, 核心功能: a compound of everyday words is a term of the text only if the text keeps its
  // words together (所有权规则), not where it mostly uses them apart (工作 ×40, 工作流程 ×3).
  // A word counts as used apart where it is in no other term of the text (上下文 of 上下文焦虑 and
  // 上下文重置 is not used apart from 上下文窗口).
  const inTerms = new Map<string, number>();
  for (const [term, ws] of made)
    for (const w of new Set(ws)) inTerms.set(w, (inTerms.get(w) ?? 0) + (counts.get(term) ?? 0));
  for (const [term, n] of counts) {
    const parts = made.has(term) ? looseWords(made.get(term)!) : undefined;
    const apart = (w: string) => (words.get(w) ?? 0) - (inTerms.get(w) ?? 0);
    if (parts?.some((w) => apart(w) >= n)) counts.delete(term);
  }
  return counts;
}

function finish(
  cands: Map<string, Candidate>,
  text: string,
  markdown: string,
  title: string,
  codeIds: ReadonlySet<string>,
  plainOf: () => string,
  everyday: readonly ReadonlyMap<string, number>[] = [],
): FoundEntity[] {
  // Count real mentions for emphasised / paired names that were added with 0: each count reads the
  // whole text, so only so many are counted; the rest keep the one mention that made them.
  const lower = text.toLowerCase();
  let counted = 0;
  const searched = new Set<Candidate>();
  for (const c of cands.values()) {
    if (c.count === 0 && ++counted > MAX_COUNTED) c.count = 1;
    else if (c.count === 0) {
      let n = 0;
      for (const s of c.surfaces.keys()) n += countOccurrences(lower, s.toLowerCase());
      for (const a of c.aliases) n += countOccurrences(lower, a.toLowerCase());
      c.count = Math.max(1, n);
      searched.add(c);
    }
    c.count += c.boost ?? 0;
  }
  // An abbreviation or translation seen on its own joins the name it was given for; its mentions
  // count once (中央处理器（CPU）: the search above already counted CPU).
  for (const c of cands.values()) {
    for (const a of c.aliases) {
      const ak = entityKey(a);
      const other = cands.get(ak);
      if (!other || other === c) continue;
      for (const [s, n] of other.surfaces) {
        c.aliases.add(s);
        if (!searched.has(c)) c.count += n;
      }
      cands.delete(ak);
    }
  }
  // The title counts as a longer name too: 卡片盒 and 笔记法 are pieces of 卡片盒笔记法.
  dropContained(cands, { key: entityKey(title), count: countOccurrences(lower, title.toLowerCase()) }, lower);
  const headings = headingLines(markdown);
  // A Latin name as a whole word, capitalised if the name is: "Wiki" is not in "从 raw/ 到 wiki/".
  const inHeading = (n: string) => {
    if (!/[A-Za-z]/.test(n)) return headings.includes(n);
    const found = headings.match(new RegExp(`(?<![A-Za-z0-9])${escapeRe(n)}(?![A-Za-z0-9])`, 'gi')) ?? [];
    return found.some((f) => !/^[A-Z]/.test(n) || /^[A-Z]/.test(f));
  };
  const said = inSentences(markdown, plainOf);
  // Words the text writes glued by a hyphen to the word before them, found in one pass.
  const glued = new Set(lower.match(/(?<=[a-z0-9]-)[a-z][a-z0-9]*/g) ?? []);
  const ranked = [...cands.entries()]
    // Weak single mentions are noise; a lone everyday Chinese word (模型, 成本) is no concept.
    .filter(([_key, c]) => c.strong || c.count >= 2 || [...c.surfaces.keys()].some(isAcronym))
    // A word of everyday Chinese (上下文, 新世界) too, unless the text gives it a translation or stresses it.
    // Judged as written (a Taiwan word, 程式碼, is the everyday 代码), not by the key's folded characters.
    .filter(([key, c]) => {
      const everyday =
        /^[\u3400-\u9fff]+$/.test(key) &&
        !c.subject &&
        [key, ...c.surfaces.keys()].some((s) => isCommonZh(s) || (!c.strong && isEverydayWord(s)));
      return !everyday;
    })
    // "end tests" of "end-to-end tests": a name the text only ever writes glued to the word before it.
    .filter(([_key, c]) => !cutFromCompound(c, lower, glued))
    .sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0]));
  const kept = takeWhere(
    ranked,
    WEIGHTS.MAX_KEPT,
    (e) => (e[1].subject || !notAName(e[1], codeIds)) && (e[1].titled || said(e)),
  );
  kept.push(...weakNames(new Set(kept.map(([k]) => k)), everyday, hanCount(text)));
  // What a document says about a name is in its sentences, not in its headings.
  const sents = sentences(stripMarkdown(sealCode(withoutHeadings(rowsAsSentences(markdown))))).map((s) => ({
    s,
    lower: s.toLowerCase(),
  }));
  // Where each name stands in the outline: a translation names the same thing in the same sections.
  const sections = outlineSections(markdown);
  const paragraphs = outlineParagraphs(sections);
  const headingList = headings.split('\n').map((h) => h.replace(/^#+\s*/, '').trim());
  return kept.map(([key, c]) => {
    const surface = [...c.surfaces.entries()].sort((a, b) => b[1] - a[1] || b[0].length - a[0].length)[0]![0];
    const names = [surface, ...c.surfaces.keys(), ...c.aliases].map((s) => s.toLowerCase());
    return {
      key,
      surface,
      aliases: [
        ...new Set([...c.aliases, ...[...c.surfaces.keys()].filter((s) => s !== surface && entityKey(s) !== key)]),
      ],
      count: c.count,
      // An everyday word keeps no sentence: a document keeps many of them, each would read the whole
      // text for its best one, and every compile would load them all (a page lists where it is used).
      snippets: c.weak
        ? []
        : orHeading(orContext(pickSnippets(sents, names), c.context), headingList, names).map(openCode),
      ...(c.subject ? { subject: true } : {}),
      ...(c.weak ? { weak: true } : {}),
      ...(sections.length ? placed(sections, paragraphs, names) : {}),
      salient:
        !c.weak &&
        (c.strong ||
          (c.count >= 3 &&
            [surface, ...c.surfaces.keys(), ...c.aliases].some((n) => inHeading(n)) &&
            !isCommonCompound(surface) &&
            !isSectionLabel(surface))),
    };
  });
}

/** Where a name stands in the outline: the sections that name it and, in those, the paragraphs. */
function placed(
  sections: readonly string[],
  paragraphs: readonly (readonly string[])[],
  names: readonly string[],
): { sections: number[]; places: string[] } {
  const named = sectionsNaming(sections, names);
  return { sections: named, places: placesNaming(paragraphs, names, named) };
}

/**
 * The everyday words a text keeps using, as weak names: its English nouns a general dictionary holds
 * (commit, merge) and its Chinese nouns and verbs (提交, 快照), counted with their other forms
 * (plurals, Traditional script) — never a name the text has already, a stop word or a label.
 */
function weakNames(
  kept: ReadonlySet<string>,
  everyday: readonly ReadonlyMap<string, number>[],
  hanChars: number,
): [string, Candidate][] {
  const byKey = new Map<string, Candidate>();
  for (const words of everyday)
    for (const [word, n] of words) {
      const key = entityKey(word);
      if (!key || kept.has(key) || EN.STOP.has(key) || EN.GENERIC.has(key) || ZH.STOP.has(key)) continue;
      const c = byKey.get(key) ?? { surfaces: new Map(), count: 0, aliases: new Set(), strong: false, weak: true };
      c.surfaces.set(word, (c.surfaces.get(word) ?? 0) + n);
      c.count += n;
      byKey.set(key, c);
    }
  const ranked = [...byKey]
    .filter(([, c]) => c.count >= WEIGHTS.WEAK_MIN_COUNT)
    .sort((a, b) => b[1].count - a[1].count || (a[0] < b[0] ? -1 : 1));
  const cap = Math.min(
    WEIGHTS.MAX_WEAK_ZH,
    Math.max(WEIGHTS.MAX_WEAK, Math.floor(hanChars / WEIGHTS.HAN_CHARS_PER_WEAK)),
  );
  const han = ranked.filter(([k]) => HAN.test(k)).slice(0, cap);
  return [...ranked.filter(([k]) => !HAN.test(k)).slice(0, WEIGHTS.MAX_WEAK), ...han];
}

/** The first `n` items that pass, testing no more than needed. */
function takeWhere<T>(items: readonly T[], n: number, ok: (t: T) => boolean): T[] {
  const out: T[] = [];
  for (const t of items) {
    if (out.length === n) break;
    if (ok(t)) out.push(t);
  }
  return out;
}

/** Inline code spans, and the text of links to other pages (`[Rust Berlin](https://…)`). */
const CODE_OR_LINK_TEXT = /`[^`\n]*`|\[(?:[^[\]\n]|\[[^[\]\n]*\])*\]\((?:[^()\n]|\([^()\n]*\))*\)/g;
/** A heading line, or a list item of fields set apart by ` | ` (an event list: date | place | link). */
const HEADING_OR_FIELDS = /^ {0,3}#{1,6}[ \t].*$|^[ \t]*(?:[-*+]|\d+[.)])[ \t][^\n|]*\|[^\n|]*\|.*$/gm;

/**
 * The text's sentences: without link texts and lists of fields, and without inline code and headings
 * — unless `title` is given: then with inline code and every heading but the title's own.
 */
function sentencesOf(markdown: string, title?: string): string {
  const cut = withoutTableHeads(markdown).replace(CODE_OR_LINK_TEXT, (m) => (title && m.startsWith('`') ? m : ' '));
  return stripMarkdown(
    cut.replace(HEADING_OR_FIELDS, (line) =>
      title && /^ {0,3}#/.test(line) && headingText(line.replace(/^ *#+[ \t]*/, '')) !== title ? line : '',
    ),
  );
}

/**
 * Whether a name occurs in the text's sentences: not only as inline code (an identifier: `git
 * status`, `useState`), as a link's text (the title of what the link leads to: an event, a post),
 * in headings (a section's label: "Renaming Remotes") or in a list of fields (`Virtual | [Rust
 * Berlin](…)`). A name the text stresses (emphasis, a translation, a title's or a section's
 * subject) may stand in code and headings, but not only inside links.
 */
function inSentences(markdown: string, plainOf: () => string): (entry: [string, Candidate]) => boolean {
  let prose: string | undefined;
  let unlinked: string | undefined;
  return ([, c]) => {
    prose ??= plainOf().toLowerCase();
    const names = [...c.surfaces.keys(), ...c.aliases].map((s) => s.toLowerCase());
    if (names.some((n) => namesIn(prose!, n))) return true;
    if (!c.strong) return false;
    unlinked ??= stripMarkdown(markdown.replace(CODE_OR_LINK_TEXT, (m) => (m.startsWith('`') ? m : ' '))).toLowerCase();
    return names.some((n) => namesIn(unlinked!, n));
  };
}

/**
 * A row of a tab-separated table that names a thing in its first cell and says what it is in the
 * next ones (`Heal（自我修复）⇥当检测到冲突时…⇥保持…`) read as a sentence (`Heal（自我修复）：当检测到冲突时…；保持…。`).
 */
function rowsAsSentences(markdown: string): string {
  if (!markdown.includes('\t')) return markdown;
  return markdown
    .split('\n')
    .map((line) => {
      const cells = line
        .split('\t')
        .map((c) => c.trim())
        .filter(Boolean);
      if (cells.length < 2 || cells[0]!.length > 30 || cells.slice(1).join('').length < 12) return line;
      const zh = HAN.test(line);
      const end = /[。.!?！？]$/u.test(cells[cells.length - 1]!) ? '' : zh ? '。' : '.';
      return `${cells[0]}${zh ? '：' : ': '}${cells.slice(1).join(zh ? '；' : '; ')}${end}`;
    })
    .join('\n');
}

/**
 * A Chinese name made of everyday words only (架构/设计, 版本/控制): a heading of that is the name of
 * a section (架构设计, 使用方法), not a term the text stresses. A four-character dictionary word
 * counts as its two halves when both are everyday words. An English name of several words that ends
 * in a word for a kind of text (Release Updates, Meeting Notes: en.TITLE_GENRE) labels a section too.
 */
function isSectionLabel(name: string): boolean {
  const latin = name.split(/\s+/);
  if (/^[A-Za-z]/.test(name) && latin.length > 1) return EN.TITLE_GENRE.has(latin.at(-1)!.toLowerCase());
  if (!/^[\u3400-\u9fff]{4,}$/.test(name)) return false;
  const words = tokenizeZh(name).flatMap((t) =>
    t.word.length === 4 && !isEverydayWord(t.word) ? [t.word.slice(0, 2), t.word.slice(2)] : [t.word],
  );
  return words.length > 1 && words.every((w) => w.length > 1 && isEverydayWord(w));
}

/**
 * Headings as written: Markdown's, and in plain text a short line without sentence punctuation
 * standing between blank lines ("技术增强：前端数据标注 - XML 标签隔离法").
 */
function headingLines(markdown: string): string {
  const lines = markdown.split('\n').map((l) => l.trim());
  return lines.filter((_l, i) => isHeadingLine(lines, i)).join('\n');
}

/**
 * Terms a text names the way a writer introduces one: "…is called _background page cache
 * eviction_" (a word set in italics where a sentence names what it has described; italics
 * elsewhere only stress a word), and "[Dead letter queues](https://en.wikipedia.org/wiki/…)" (a term
 * linked to an encyclopedia's article on it).
 */
function namedTerms(markdown: string): string[] {
  const out: string[] = [];
  for (const m of markdown.matchAll(CALLED_TERM)) {
    const t = clean(m[1] ?? m[2] ?? m[3] ?? '');
    if (englishNameOk(t)) out.push(t);
  }
  for (const m of markdown.matchAll(CALLED_TERM_ZH)) if (calledZh(m[1]!)) out.push(m[1]!);
  for (const re of [QUOTED_DEFINED, DASH_DEFINED])
    for (const m of markdown.matchAll(re)) {
      const t = clean(m[1]!);
      if (englishNameOk(t)) out.push(t);
    }
  for (const m of markdown.matchAll(ENCYCLOPEDIA_LINK)) {
    const t = clean(m[1]!.replace(/[.。]$/u, ''));
    if (HAN.test(t) ? isZhNounPhrase(t) : englishNameOk(t)) out.push(t);
  }
  return out;
}

/**
 * A Latin name every mention of which is glued by a hyphen to the word before it ("end tests" in
 * "end-to-end tests", "level agreements" in "service-level agreements"): the last part of a
 * compound, cut from it, not a name of its own.
 */
function cutFromCompound(c: Candidate, lower: string, afterHyphen: ReadonlySet<string>): boolean {
  if (c.aliases.size) return false;
  // Only a name whose first word the text ever glues to the word before it is read through again.
  const first = (s: string) => /^[a-z][a-z0-9]*/i.exec(s)?.[0]?.toLowerCase() ?? '';
  if (![...c.surfaces.keys()].some((s) => afterHyphen.has(first(s)))) return false;
  let glued = 0;
  for (const s of c.surfaces.keys()) {
    if (!/^[A-Za-z]/.test(s)) return false;
    const re = new RegExp(`(?<![A-Za-z0-9])${escapeRe(s.toLowerCase())}(?![A-Za-z0-9])`, 'g');
    for (const m of lower.matchAll(re)) {
      if (!/[a-z0-9]-$/.test(lower.slice(Math.max(0, m.index - 2), m.index))) return false;
      glued++;
    }
  }
  return glued > 0;
}

/** Drop terms that only ever occur inside a longer candidate (dropped, never merged with it). */
function dropContained(cands: Map<string, Candidate>, title: { key: string; count: number }, lower: string): void {
  // That compares every pair: on a long text, only the candidates that could still make the final list take part.
  if (cands.size > MAX_COMPARED) {
    const ranked = [...cands].sort((a, b) => rank(b[1]) - rank(a[1]) || (a[0] < b[0] ? -1 : 1));
    const keep = new Set(ranked.slice(0, MAX_COMPARED).map(([k]) => k));
    for (const k of [...cands.keys()]) if (!keep.has(k)) cands.delete(k);
  }
  const keys = [...cands.keys()];
  for (const k of keys) {
    const c = cands.get(k)!;
    // A phrase the text also uses on its own, twice, is a term of its own ("knowledge base" beside
    // "personal knowledge base"). A stressed term gives way only to a longer stressed one it is
    // nearly always part of: "page cache" and "cache eviction" to "background page cache eviction".
    if (c.aliases.size) continue;
    for (const other of [...keys, title.key]) {
      if (other === k || other.length <= k.length || !other.includes(k)) continue;
      const o = other === title.key ? { count: title.count, strong: false } : cands.get(other);
      if (!o || (c.strong && !o.strong)) continue;
      if (o.count < c.count * 0.7) continue;
      // Counted apart from the longer one in the text itself: a phrase finder counts a piece of a
      // longer phrase as a phrase of its own.
      if (Math.min(c.alone ?? 0, countOccurrences(lower, k) - countOccurrences(lower, other)) < 2) {
        cands.delete(k);
        break;
      }
    }
  }
}

/**
 * An abbreviation in capitals (RAG, HNSW, BM25) names one thing wherever it stands: a single
 * mention still ties the document to the concept others define ("RAG systems query the index").
 */
function isAcronym(name: string): boolean {
  return /^[A-Z][A-Z0-9]{2,9}$/.test(name) && /^[A-Z]{2}/.test(name);
}

/**
 * An everyday English word written in capitals (**FUSE** as a stage label): not a name a text
 * stresses. A single mention (ORDER in `ORDER BY`, or RAG) still counts: whether it is a concept is
 * decided across sources, where one that names what RAG stands for tells them apart.
 */
function shouted(name: string): boolean {
  return /^[A-Z]+$/.test(name) && isCommonEnglishWord(name);
}

/** What makes a candidate likely to be kept: strong first, then by mentions. */
function rank(c: Candidate): number {
  return (c.strong || c.aliases.size ? 1e9 : 0) + c.count;
}

function trimLeadingStop(phrase: string): string {
  const words = phrase.trim().split(/\s+/);
  while (words.length > 1 && (EN.STOP.has(words[0]!.toLowerCase()) || EN.CAP_STOP.has(words[0]!.toLowerCase())))
    words.shift();
  return words.join(' ');
}

function initialsMatch(full: string, abbr: string): boolean {
  const letters = abbr.replace(/[^A-Za-z]/g, '').toLowerCase();
  const initials = full
    .split(/[\s-]+/)
    .filter((w) => !/^(of|and|for|the|in)$/i.test(w))
    .map((w) => w[0]?.toLowerCase() ?? '')
    .join('');
  if (!letters) return false;
  // All letters of the abbreviation appear, in order, among the words' initials.
  let i = 0;
  for (const ch of initials) if (ch === letters[i]) i++;
  return i >= Math.min(letters.length, 2) && letters[0] === initials[0];
}

/** Whole-word mentions of a lowercase name in a lowercase text. */
function countOccurrences(hay: string, needle: string): number {
  if (!needle || !hay.includes(needle)) return 0;
  return hay.match(new RegExp(boundedPattern(needle), 'g'))?.length ?? 0;
}

interface Sentence {
  s: string;
  lower: string;
}

const LIST_LABEL = new RegExp(`^\\s*(?:${anyOf([...EN.RELATED_LABELS, ...ZH.RELATED_LABELS])})\\s*[:：]`, 'iu');

function pickSnippets(sents: Sentence[], names: string[]): string[] {
  const keys = [...new Set(names.filter(Boolean))];
  // Built at the first sentence that holds a name: most of a document's sentences hold none.
  let defining: RegExp[] | undefined;
  // A name is mentioned as a whole word: "CR" is not in "critical", "Round" not in "around".
  let mention: RegExp | undefined;
  const hits: { s: string; score: number; i: number }[] = [];
  sents.forEach(({ s, lower }, i) => {
    if (s.length < 12 || !keys.some((n) => lower.includes(n))) return;
    mention ??= new RegExp(keys.map(boundedPattern).join('|'));
    if (!mention.test(lower)) return;
    // A table row, a line of a box drawing, or code: not a sentence.
    if (/^\s*;|\s;\s.*\s;\s|[\u2500-\u257f]/.test(s) || isCodeLine(s)) return;
    // A labelled list of links or references ("Related: A, B, C."), not a statement about them.
    if (LIST_LABEL.test(s)) return;
    let score = 0;
    defining ??= keys.map((n) => new RegExp(`^${escapeRe(n)}\\b.*\\b(is|are|was|means|refers)\\b`, 'i'));
    if (defining.some((re) => re.test(lower))) score += 3;
    if (/是|指|即|称为/.test(s)) score += 1;
    if (s.length > 400) score -= 2;
    hits.push({ s: s.length > 400 ? `${s.slice(0, 397)}…` : s, score, i });
  });
  return hits
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, 3)
    .map((h) => h.s);
}

/** The end of a sentence: its mark before a space or the end (not the dots of 2020.01.06). */
const SENTENCE_END = /[.!?;](?:\s|$)|[。！？；]/;

/**
 * No sentence names it: the first heading that names it with words of its own ("数据流架构：从 raw/ 到
 * wiki/ 的编译管线") says where the text is about it, kept as a heading snippet (headingSnippet).
 * `names` lowercased.
 */
export function orHeading(snippets: string[], headings: readonly string[], names: readonly string[]): string[] {
  if (snippets.length) return snippets;
  const named = headings.find((h) => {
    // A short list item between blank lines is no heading.
    if (LIST_ITEM.test(h) || SENTENCE_END.test(h)) return false;
    const l = h.toLowerCase();
    return names.some((n) => n.length >= 2 && l !== n && l.includes(n));
  });
  // As read: no bold marks, no colon that leads into what follows (**Querying (online):**).
  return named ? [headingSnippet(named.replace(/\*\*|__/g, '').replace(/\s*[:：]$/, ''))] : [];
}

function orContext(snippets: string[], context: string[] | undefined): string[] {
  return snippets.length || !context ? snippets : context.filter((s) => s.length >= 12).slice(0, 3);
}

/** A name as a regular expression that matches it only as whole Latin words (Han needs no spaces). */
function boundedPattern(lowerName: string): string {
  const head = /^[a-z0-9]/.test(lowerName) ? '(?<![a-z0-9])' : '';
  const tail = /[a-z0-9]$/.test(lowerName) ? '(?![a-z0-9])' : '';
  return `${head}${escapeRe(lowerName)}${tail}`;
}

/**
 * A line that is a docs toolchain's directive, not text: VitePress's snippet import (`<<< ./a.ts#region`),
 * MkDocs's (`--8<-- "file.md"`), a reStructuredText directive (`.. literalinclude:: x.py`), a Liquid
 * tag (`{% include note.html %}`) or a Hugo shortcode (`{{< figure src="a.png" >}}`) on a line of its own.
 */
const DIRECTIVE_LINE =
  /^[ \t]*(?:<<<[ \t]\S|--8<--|\.\.[ \t]+[a-z][\w-]*::|\{%-?[ \t][^\n]*%\}[ \t]*$|\{\{[<%][^\n]*[>%]\}\}[ \t]*$)[^\n]*$/gm;

/** A line that cites a work by author and year ("Miller, Ann. (2019). Title: …"): the cited title's words are that work's. */
const CITED_YEAR = /\((?:1[5-9]|20)\d\d[a-z]?\)\./;
const CITING_LINE = new RegExp(`^[^\\n]*${CITED_YEAR.source}[^\\n]*$`, 'gm');
/** The cited authors before the year: a surname, a comma and a given name or initials, at most a short list of them. */
const CITED_AUTHORS = /\p{Lu}[\p{L}'’-]+, \p{Lu}[^\n]{0,160}$/u;

/** The text without what its reference lines cite (from the first author on); the words before them stay. */
function withoutCitations(md: string): string {
  if (!md.includes(').')) return md;
  return md.replace(CITING_LINE, (line) => {
    const before = line.slice(0, line.search(CITED_YEAR));
    const authors = CITED_AUTHORS.exec(before);
    return authors ? line.slice(0, authors.index) : line;
  });
}

/**
 * Fenced code blocks cut out, each for a line break, as the block parser reads them: a fence of four
 * backticks holds one of three (a listing that shows a ```mermaid block), which a pattern pairing
 * backticks alone would cut in the middle.
 */
function withoutFences(md: string): string {
  if (!md.includes('```') && !md.includes('~~~')) return md;
  // A pattern pairs the marks right unless a fence of four marks holds one of three, a fence is
  // left open (it runs to the end), or a sentence writes the marks themselves (the marks of a fence in inline code).
  if (!md.includes('````') && !md.includes('~~~~') && !unpaired(md)) return fencesByPattern(md);
  // A fence the parser leaves in a list item or a component (indented four spaces and more, in MDX) is code too.
  return fencesByPattern(replaceBlocks(md, fencedBlocks(md), () => '\n'));
}

function unpaired(md: string): boolean {
  return (md.match(FENCE_LINE)?.length ?? 0) % 2 === 1 || MARKS_IN_PROSE.test(md);
}
const FENCE_LINE = /^[ \t]*(?:```|~~~)/gm;
const MARKS_IN_PROSE = /^[ \t]*[^ \t\n`~][^\n]*?(?:```|~~~)/m;

function fencesByPattern(md: string): string {
  return md.replace(/```[\s\S]*?```/g, '\n').replace(/~~~[\s\S]*?~~~/g, '\n');
}

/**
 * Markdown to plain sentences: no code, links reduced to their text, no markup. Linear on any
 * input: a bracket class never holds the bracket that opens the match (so a try stops at the next
 * opener), and comments are cut by `indexOf`, not by a lazy pattern that rescans for every `<!--`.
 */
export function stripMarkdown(md: string): string {
  return (
    withoutFences(withoutCitations(cutComments(md.replace(/^---\n[\s\S]*?\n---\n/, ''))))
      .replace(/!\[[^[\]]*\]\((?:[^()\n]|\([^()\n]*\))*\)/g, ' ')
      .replace(/!\[\[[^[\]]*\]\]/g, ' ')
      .replace(/\[\[([^[\]|#]+)(?:#[^[\]|]*)?(?:\|([^[\]]+))?\]\]/g, (_m, a: string, b?: string) => b ?? a)
      .replace(/\[([^[\]]*)\]\((?:[^()\n]|\([^()\n]*\))*\)/g, '$1')
      // A docs toolchain's container fence (":::tip Note", ":::") is no text; what it holds is. Nor
      // is a line of its directives (DIRECTIVE_LINE: an include, a snippet import, a template tag).
      .replace(/^[ \t]*:::+[^\n]*$/gm, '')
      .replace(DIRECTIVE_LINE, '')
      // A link reference definition ("[ipcRenderer]: ../api/ipc-renderer.md") is no text; a reference
      // link ("[`BrowserWindow`][browser-window]") reads as its text.
      .replace(/^[ \t]{0,3}\[(?!\^)[^[\]\n]+\]:[ \t]*\S.*$/gm, '')
      .replace(/\[([^[\]\n]+)\]\[[^[\]\n]*\]/g, '$1')
      // A tag opens with a letter, `/` or `!`: "<1MB … >" or "a < b … c > d" is text, not a tag to drop.
      .replace(/<[A-Za-z/!][^<>]*>/g, ' ')
      .replace(/^\s{0,3}(#{1,6}|[-*+]|\d+[.)]|>)\s+/gm, '')
      .replace(/^\|.*\|$/gm, (row) => row.replace(/\|/g, ' ; ').replace(/-{3,}/g, ''))
      .replace(/[*_`~]+/g, '')
  );
}
