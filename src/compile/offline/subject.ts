import { WEIGHTS } from './weights.js';
import { HAN } from '../../text/script.js';
import { foldText } from '../../text/fold.js';
import { tokenizeZh } from './zh-terms.js';
import * as EN from '../../text/lang/en.js';
import * as ZH from '../../text/lang/zh.js';
import { escapeRe } from '../../text/lang/words.js';

/** A term of a work's title that its text keeps returning to. */
export interface Subject {
  name: string;
  /** Mentions in the text. */
  count: number;
  /** The title is this name and words of its kind only ("cache-eviction design meeting"): named by the title itself. */
  titled?: boolean;
}

interface Token {
  word: string;
  tag: string;
  start: number;
  end: number;
}

/** jieba's tags of nouns, names and set phrases: what a Chinese term ends in. */
const NOUN_TAGS = new Set(['n', 'nz', 'nt', 'ns', 'nrfg', 'nrt', 'j', 'l', 'vn', 'ng', 'an', 'eng', 'x']);

const LATIN = /[A-Za-z]/;
const WORD = /^[\p{L}\p{N}][\p{L}\p{N}+#.'’-]*$/u;

/** Is a token of the title a word that says what kind of text it is (or a function word)? */
function genre(word: string): boolean {
  return kindWord(word) || (HAN.test(word) ? ZH.STOP.has(foldText(word)) : EN.STOP.has(word.toLowerCase()));
}

/** A word that says what kind of text it is: "design meeting", "update", 简介, 笔记. */
function kindWord(word: string): boolean {
  return HAN.test(word) ? ZH.TITLE_GENRE.has(foldText(word)) : EN.TITLE_GENRE.has(word.toLowerCase());
}

const LATIN_TOKEN = /[\p{L}\p{N}][\p{L}\p{N}+#.'’-]*|\s+|[^\s\p{L}\p{N}]+/gu;

/** The title's words: jieba's for a title with Chinese in it, else its Latin words as written. */
function tokens(title: string): Token[] {
  if (HAN.test(title)) return tokenizeZh(title);
  return [...title.matchAll(LATIN_TOKEN)].map((m) => ({
    word: m[0],
    tag: 'eng',
    start: m.index,
    end: m.index + m[0].length,
  }));
}

/** The title cut into runs of words between punctuation, dates, genre words and a change of script. */
function runs(
  toks: readonly Token[],
  named: (word: string) => boolean = () => false,
  inName: ReadonlySet<number> = new Set(),
): Token[][] {
  const out: Token[][] = [];
  let run: Token[] = [];
  const end = () => {
    if (run.length) out.push(run);
    run = [];
  };
  // A title written with spaces; one that is a file name (pandas_tutorial) uses underscores for them.
  const spaced = toks.some((o) => /^\s+$/.test(o.word));
  const verbs = imperativeVerbs(toks);
  toks.forEach((t, i) => {
    if (!t.word.trim()) return;
    if (
      !WORD.test(t.word) ||
      (spaced && inIdentifier(toks, i)) ||
      (genre(t.word) && !stopNounInTerm(toks, i) && !inName.has(i)) ||
      actionAsked(toks, i) ||
      withComplement(toks, i) ||
      (verbs.includes(i) && !named(t.word))
    ) {
      end();
      return;
    }
    // A number ends a name (RFC 2229, Python 3), never opens one (2021 Edition is about editions).
    const number = /^\d[\d.]*$/.test(t.word);
    if (number && !run.length) return;
    // A Latin name before a Chinese word is a run of its own: "Git 分支" is about 分支, in Git.
    const last = run[run.length - 1];
    if (last && HAN.test(last.word) !== HAN.test(t.word)) end();
    run.push(t);
  });
  end();
  return out;
}

/**
 * `__name__`, lru_cache: in a title written with spaces, a word written together with an underscore
 * is a piece of an identifier, no word of the title.
 */
function inIdentifier(toks: readonly Token[], i: number): boolean {
  const t = toks[i]!;
  const [prev, next] = [toks[i - 1], toks[i + 1]];
  return Boolean(
    (prev && prev.end === t.start && prev.word.endsWith('_')) ||
      (next && next.start === t.end && next.word.startsWith('_')),
  );
}

/**
 * "Customize your site", "Manage the vault": a title that opens with a word and a determiner opens
 * with a verb and its object; the verb is the action, not the subject ("The Art of…" opens with the
 * determiner itself; a name the prose capitalises, "Git the Hard Way", is no verb: runs' `named`).
 * The verbs' indices among the title's tokens.
 */
function imperativeVerbs(toks: readonly Token[]): number[] {
  const words = toks.flatMap((t, i) => (t.word.trim() ? [i] : []));
  const [first, second, third] = [words[0], words[1], words[2]];
  if (first === undefined || second === undefined || !LATIN.test(toks[first]!.word)) return [];
  const lower = (i: number) => toks[i]!.word.toLowerCase();
  if (EN.DETERMINERS.has(lower(second))) return [first];
  // "Add cards", "Show backlinks", "Add Tailwind": a verb of a step (en.INSTRUCTION_VERBS) before what it acts on.
  if (EN.INSTRUCTION_VERBS.has(lower(first))) return [first];
  // "Download and install Obsidian": two verbs of steps joined, before what they act on.
  const step = (i: number) => EN.STEP_VERBS.has(lower(i)) || EN.INSTRUCTION_VERBS.has(lower(i));
  return third !== undefined && lower(second) === 'and' && step(first) && step(third) ? [first, third] : [];
}

/**
 * "Unique note creator", "Daily notes": a noun for a kind of text (en.TEXT_KINDS: note, review,
 * release) is a word of a name where the text writes the title's run of words whole, again and again
 * ("Daily notes is a core plugin…"); "Redis notes" or "Rebase review", never written so, are a name
 * and the kind of text. A run of kind words only ("Getting started") names no subject. The indices of
 * such kind words among the title's tokens.
 */
function kindWordsInName(toks: readonly Token[], text: string, lower: string): Set<number> {
  const out = new Set<number>();
  if (toks.some((t) => HAN.test(t.word))) return out;
  const kind = (i: number) => EN.TEXT_KINDS.has(toks[i]!.word.toLowerCase());
  // Runs of words between punctuation and the title's other cuts (and, of, design): "Daily notes" of
  // "Daily notes and templates".
  let seg: number[] = [];
  const close = () => {
    const ws = seg.filter((i) => toks[i]!.word.trim());
    const kinds = ws.filter(kind);
    const phrase = ws.length
      ? toks
          .slice(ws[0], ws[ws.length - 1]! + 1)
          .map((t) => t.word)
          .join('')
      : '';
    if (
      ws.length >= 2 &&
      ws.length <= WEIGHTS.MAX_WORDS &&
      kinds.length &&
      ws.some((i) => !genre(toks[i]!.word)) &&
      countIn(text, lower, phrase) >= WEIGHTS.MIN_MENTIONS
    )
      for (const i of kinds) out.add(i);
    seg = [];
  };
  toks.forEach((t, i) => {
    if (/^\s+$/.test(t.word)) {
      if (seg.length) seg.push(i);
    } else if (WORD.test(t.word) && (kind(i) || !genre(t.word))) seg.push(i);
    else close();
  });
  close();
  return out;
}

/**
 * 錄下來, 存/起来: a verb with a directional complement (zh.DIRECTIONALS), written as one word or
 * glued after it, is the title's predicate, no subject (过去 alone, the past, is a noun).
 */
function withComplement(toks: readonly Token[], i: number): boolean {
  const t = toks[i]!;
  if (!HAN.test(t.word)) return false;
  const w = foldText(t.word);
  const ending = ZH.DIRECTIONALS.find((d) => w.endsWith(d));
  if (!ending) return false;
  if (w.length > ending.length) return t.tag.startsWith('v');
  const prev = toks[i - 1];
  return prev !== undefined && prev.end === t.start && prev.tag === 'v';
}

/** 如何/修改, 怎麼/安裝: the verb right after a word that asks how is the action asked about, no subject. */
function actionAsked(toks: readonly Token[], i: number): boolean {
  const prev = toks[i - 1];
  return toks[i]!.tag === 'v' && prev !== undefined && ZH.HOW_WORDS.has(foldText(prev.word));
}

/**
 * 数据/获取, 檔案/系統: a noun of the stop list (数据, 系统, 信息) written together with the Chinese word
 * after it opens one term with it, as in termBefore (the title is about 数据获取, not about 获取), and
 * written together after a noun closes one (檔案系統, file system: not about 檔案 alone).
 */
function stopNounInTerm(toks: readonly Token[], i: number): boolean {
  const t = toks[i]!;
  if (!HAN.test(t.word) || t.tag !== 'n' || kindWord(t.word)) return false;
  const joins = (o: Token | undefined, glued: boolean, noun: boolean) =>
    o !== undefined && glued && noun && /^[\u3400-\u9fff]+$/.test(o.word) && !genre(o.word);
  const [prev, next] = [toks[i - 1], toks[i + 1]];
  return joins(next, next?.start === t.end, true) || joins(prev, prev?.end === t.start, prev?.tag === 'n');
}

/**
 * A Chinese term is cut at words, not inside a phrase: no one-character word at either edge of a
 * term of several words (上传/到, 到/仓库); with `nounsOnly` (a section's heading, which often says
 * what to do: 检查/状态), it ends in a noun and does not open with a verb.
 */
function wellCut(tokens: readonly Token[], nounsOnly: boolean): boolean {
  const han = tokens.filter((t) => HAN.test(t.word));
  if (!han.length) return true;
  const first = tokens[0]!;
  const last = tokens[tokens.length - 1]!;
  if (tokens.length > 1 && [first, last].some((t) => HAN.test(t.word) && t.word.length < 2)) return false;
  if (!nounsOnly) return true;
  return NOUN_TAGS.has(last.tag) && !(tokens.length > 1 && first.tag === 'v');
}

/** An English term of several words ends in its noun, not in a participle or an adverb ("Simply Typed"). */
function modifierLast(name: string): boolean {
  const last = /([A-Za-z]+)$/.exec(name)?.[1] ?? '';
  return name.includes(' ') && last.length > 4 && /(?:ed|ly)$/i.test(last);
}

/** Words of a run, numbers aside. */
function words(run: readonly Token[]): number {
  return run.filter((t) => !/^\d[\d.]*$/.test(t.word)).length;
}

/** A word the prose writes capitalised (nearly) every time: a name (Git, React), not a word of the sentence. */
function isName(word: string, text: string): boolean {
  if (!/^[A-Z][A-Za-z0-9]*$/.test(word)) return false;
  const all = countIn(text, text.toLowerCase(), word);
  if (all < WEIGHTS.MIN_MENTIONS) return false;
  const asName = text.match(new RegExp(`(?<![A-Za-z0-9])${word}(?![A-Za-z0-9])`, 'g'))?.length ?? 0;
  return asName >= WEIGHTS.NAME_SHARE * all;
}

/** Compiled patterns by name: titles and headings repeat their words across a corpus. */
const PATTERNS = new Map<string, { probe: string; re: RegExp }>();
const MAX_PATTERNS = 4000;

/** Mentions of a title's term: Han as written; Latin as a whole word, the last word in either number. */
function countIn(text: string, lower: string, name: string): number {
  if (!LATIN.test(name)) {
    let n = 0;
    for (let i = text.indexOf(name); i >= 0; i = text.indexOf(name, i + name.length)) n++;
    return n;
  }
  let p = PATTERNS.get(name);
  if (!p) {
    // "const generic" counts for "const generics"; a word ends where no Latin letter or digit follows.
    const stem = name.toLowerCase().replace(/(?<=[a-z]{3})(?:es|s)$/, '');
    const n = escapeRe(stem).replace(/\s+/g, '[\\s-]+');
    const plural = /[a-z]$/.test(stem) ? '(?:e?s)?' : '';
    p = { probe: stem.split(/\s/)[0]!, re: new RegExp(`(?<![a-z0-9])${n}${plural}(?![a-z0-9])`, 'g') };
    if (PATTERNS.size >= MAX_PATTERNS) PATTERNS.clear();
    PATTERNS.set(name, p);
  }
  if (!lower.includes(p.probe)) return 0;
  return lower.match(p.re)?.length ?? 0;
}

/** Mentions of a Han term that are not part of one of the longer terms given. */
function ownCount(text: string, name: string, longer: readonly string[]): number {
  const covered: [number, number][] = [];
  for (const l of longer)
    for (let i = text.indexOf(l); i >= 0; i = text.indexOf(l, i + l.length)) covered.push([i, i + l.length]);
  let n = 0;
  for (let i = text.indexOf(name); i >= 0; i = text.indexOf(name, i + name.length))
    if (!covered.some(([a, b]) => i >= a && i + name.length <= b)) n++;
  return n;
}

/** A term that can name something: a Latin word of three letters or more, two Han characters, never a bare number. */
function nameable(name: string): boolean {
  if (!/\p{L}/u.test(name)) return false;
  if (HAN.test(name)) return (name.match(/\p{Script=Han}/gu) ?? []).length >= 2 || /[A-Za-z]{2}/.test(name);
  return name.replace(/[^A-Za-z]/g, '').length >= 3;
}

/**
 * A title that is one name and words that say what kind of text it is ("cache-eviction design meeting",
 * "Retry policy design meeting", "RFC 1234 Update") names what the work is about, though the text may
 * call it by a part ("eviction", "the retry") or name it in links only: the name is its subject when
 * the text names it, or one of its words again and again. The whole title is never its own subject.
 */
function oneName(title: string, run: readonly Token[], text: string, lower: string, nounsOnly: boolean) {
  if (words(run) > WEIGHTS.MAX_WORDS || (run.length === 1 && !/-/.test(run[0]!.word))) return undefined;
  const name = title.slice(run[0]!.start, run[run.length - 1]!.end).replace(/\s+/g, ' ');
  if (!nameable(name) || !wellCut(run, nounsOnly) || modifierLast(name)) return undefined;
  const count = countIn(text, lower, name);
  const parts = name.split(/[\s-]+/).filter((w) => w.length >= 3 && !genre(w) && !/^\d/.test(w));
  const part = Math.max(0, ...parts.map((w) => countIn(text, lower, w)));
  if (count < 1 && part < WEIGHTS.PART_MENTIONS) return undefined;
  return { name, count: Math.max(count, WEIGHTS.MIN_MENTIONS), titled: true };
}

/**
 * The terms of a work's title that its text keeps coming back to: what the work is about. The
 * title is cut at punctuation and at words that say what kind of text it is ("design meeting",
 * "review", 简介, 基础); each run of one to four words is a candidate (a single word only when it
 * stands alone between such cuts: "coercion" of "Dyn upcasting coercion safety" is a piece), kept
 * when the text names it three times or more, and a shorter one inside a longer kept one only when
 * the text also uses it much more often on its own ("const generics" over "generics"). A subject
 * named far less often than the main one is a side topic ("组织" in "MOC的组织").
 */
export function titleSubjects(
  title: string,
  text: string,
  prose: () => string = () => text,
  opts: { nounsOnly?: boolean; work?: boolean } = {},
): Subject[] {
  const lower = text.toLowerCase();
  const toks = tokens(title);
  const all = runs(toks, (w) => isName(w, prose()), kindWordsInName(toks, text, lower));
  const found = subjectsOf(title, all, text, lower, prose, opts);
  // A section's heading is nearly always one name: it names its section's subject only when the section keeps naming it.
  // Only a title that says what kind of text it is: "2019年度城市马拉松赛" is not "年度城市马拉松赛" and a date.
  if (found.length || all.length !== 1 || !opts.work || !toks.some((t) => kindWord(t.word))) return found;
  const one = oneName(title, all[0]!, text, lower, opts.nounsOnly ?? false);
  return one ? [one] : [];
}

function subjectsOf(
  title: string,
  all: readonly Token[][],
  text: string,
  lower: string,
  prose: () => string,
  opts: { nounsOnly?: boolean },
): Subject[] {
  const grams: { name: string; from: number; to: number; count: number }[] = [];
  for (const run of all)
    for (let i = 0; i < run.length; i++)
      for (let j = i; j < Math.min(run.length, i + WEIGHTS.MAX_WORDS); j++) {
        // One word of a longer run is a piece of what the title names ("coercion" of "dyn upcasting
        // coercion"), unless a name the text always capitalises stands before it: "Git Branching".
        if (i === j && words(run) > 1 && !(i === 1 && words(run) === 2 && isName(run[0]!.word, prose()))) continue;
        const name = title.slice(run[i]!.start, run[j]!.end).replace(/\s+/g, ' ');
        if (!nameable(name) || !wellCut(run.slice(i, j + 1), opts.nounsOnly ?? false) || modifierLast(name)) continue;
        grams.push({ name, from: run[i]!.start, to: run[j]!.end, count: countIn(text, lower, name) });
      }
  // 工具 in 关于工具箱的工具: a Chinese word's mentions inside a longer term of the title (工具箱) are that term's.
  for (const g of grams)
    if (!LATIN.test(g.name)) {
      const longer = grams.filter((o) => o.name.length > g.name.length && o.name.includes(g.name)).map((o) => o.name);
      if (longer.length) g.count = ownCount(text, g.name, longer);
    }
  const named = grams.filter((g) => g.count >= WEIGHTS.MIN_MENTIONS);
  const kept = named.filter(
    (g) =>
      !named.some(
        (o) =>
          o !== g &&
          o.from <= g.from &&
          o.to >= g.to &&
          o.to - o.from > g.to - g.from &&
          o.count >= WEIGHTS.PART_SHARE * g.count,
      ),
  );
  const top = Math.max(0, ...kept.map((g) => g.count));
  return kept
    .filter((g) => g.count >= WEIGHTS.SIDE_SHARE * top)
    .sort((a, b) => b.count - a.count || a.from - b.from)
    .slice(0, WEIGHTS.MAX_SUBJECTS)
    .map(({ name, count }) => ({ name, count }));
}
