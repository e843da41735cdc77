import { tagEnglish, type EnToken } from '../../text/english.js';
import { isCommonEnglishWord, isKnownEnglishWord } from '../../text/english-words.js';
import { CODE_LINE } from '../../text/code-line.js';
import * as EN from '../../text/lang/en.js';

export { isCodeLine } from '../../text/code-line.js';

/** What the English side of a text names, counted. */
export interface EnglishFound {
  /** Noun phrases of two or three words, lowercase unless written as a name. */
  phrases: Map<string, number>;
  /** Proper names and acronyms (ClipGenius, Microsoft Azure, RAG), as written. */
  names: Map<string, number>;
  /** Lowercase forms of every word the text writes in lowercase (a capitalised common word is no name). */
  lowerWords: Set<string>;
  /** How often a one-word name qualifies a common noun ("American football", "Chinese text"): an adjective. */
  modifiers: Map<string, number>;
  /**
   * Lowercase nouns of one word that no general dictionary holds (goroutine, soundness, memoization,
   * monad): terms of art, whose mentions count; everyday nouns (file, branch) are left to phrases.
   */
  terms: Map<string, number>;
  /** Lowercase nouns and verbs a general dictionary holds (commit, merge, snapshot), as written. */
  everyday: Map<string, number>;
}

const NOUN = new Set(['NOUN', 'PROPN']);
/** Tokens before a sentence's first word: white space and marks. */
const SPACING = new Set(['SPACE', 'PUNCT', 'SYM']);
/** The parts of speech of the everyday words counted: what a term of art is used as (a commit, to commit). */
const EVERYDAY_POS = new Set(['NOUN', 'VERB']);
/** A lowercase word of five letters or more, hyphens inside allowed: what a term of art looks like. */
const TERM_WORD = /^[a-z]{2,}(?:-?[a-z]+)+$/;

/** Words looked up already, per worker: a text repeats its nouns. */
const EVERYDAY = new Map<string, boolean>();
const MAX_EVERYDAY = 50_000;

/** A word a general dictionary holds, as written or as its singular (files, branches). */
function everyday(word: string): boolean {
  if (word.length < 5) return true;
  let known = EVERYDAY.get(word);
  if (known === undefined) {
    const singular = word.replace(/(?:(?<=(?:ch|sh|x|z|ss))es|s)$/, '');
    known = isKnownEnglishWord(word) || isKnownEnglishWord(singular);
    if (EVERYDAY.size >= MAX_EVERYDAY) EVERYDAY.clear();
    EVERYDAY.set(word, known);
  }
  return known;
}
const CONNECTOR = new Set(['of', 'upon', 'de', 'la', 'von', 'van', 'du', 'del']);
const WORD = /^[A-Za-z][A-Za-z0-9]*(?:[-'][A-Za-z0-9]+)*$/;
/** Identifiers from code: lowerCamelCase, snake_case, dotted names. */
const CODE_TOKEN = /^[a-z]+[A-Z]|_|\.\w/;
function isWord(t: EnToken): boolean {
  return WORD.test(t.text) && !CODE_TOKEN.test(t.text);
}

function acronym(w: string): boolean {
  return /^[A-Z][A-Za-z]*[A-Z][A-Za-z0-9]*$/.test(w) && /[A-Z].*[A-Z]/.test(w) && w.length <= 12;
}

/** Prose only: code lines, LaTeX and inline code go; Chinese stays (wink reads around it). */
export function englishProse(text: string): string {
  return (
    text
      .split('\n')
      .filter((l) => !CODE_LINE.test(l))
      .join('\n')
      .replace(/\$\$[\s\S]*?\$\$|\$[^$\n]+\$|\\[a-zA-Z]+(?:\{[^}]*\})*/g, ' ')
      // A web address in the text names no term ("https" of https://example.com/).
      .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, ' ')
      // Paragraphs come unwrapped: a line break ends a block (a list item, a cell, a heading), and
      // a capital after it opens a sentence ("[[Footnotes view]]" / "Show a list of footnotes").
      .replace(/(?<=[\p{L}\p{N})\]'"’”])[ \t]*\n(?=[ \t]*[-*+>]*[ \t]*[A-Z])/gu, '.\n')
  );
}

function bump(m: Map<string, number>, k: string): void {
  m.set(k, (m.get(k) ?? 0) + 1);
}

/**
 * English terms by noun-phrase chunking on wink-nlp's parts of speech: runs of adjectives and nouns
 * that end in a noun. A run of two or three words is a phrase ("context anxiety", "harness design");
 * its proper nouns are names ("Microsoft Azure"); a lone common noun is no concept on its own,
 * and a verb never starts or ends one ("Click Create" is a verb and its object).
 */
export function englishTerms(text: string): EnglishFound {
  const found: EnglishFound = {
    phrases: new Map(),
    names: new Map(),
    lowerWords: new Set(),
    modifiers: new Map(),
    terms: new Map(),
    everyday: new Map(),
  };
  const prose = englishProse(text);
  if (!/[A-Za-z]{3}/.test(prose)) return found;
  for (const sentence of tagEnglish(prose)) {
    let run: EnToken[] = [];
    // The sentence's first word: after a line break, a bullet or a quote mark wink keeps in it. A
    // line of one word (a heading, a cell: "Cookie") is a label, written as the name is, no sentence.
    const words = sentence.filter((t) => !SPACING.has(t.pos));
    const opening = words.length > 1 ? sentence.indexOf(words[0]!) : -1;
    const flush = () => {
      chunk(run, sentence, found);
      run = [];
    };
    sentence.forEach((t, i) => {
      // The parts of a path or an identifier (heal/rag-definition, last_heal_timestamp) are no prose.
      const inPath = /^[/_]$/.test(sentence[i - 1]?.text ?? '') || /^[/_]$/.test(sentence[i + 1]?.text ?? '');
      if (/^[a-z]/.test(t.text) && !inPath) {
        found.lowerWords.add(t.text);
        if (EVERYDAY_POS.has(t.pos) && /^[a-z]{3,}$/.test(t.text) && everyday(t.text)) bump(found.everyday, t.text);
      }
      // "Newcastle upon Tyne", "Bank of America": a connector between two capitalised words joins a name.
      const joins =
        CONNECTOR.has(t.text) &&
        /^[A-Z]/.test(sentence[i - 1]?.text ?? '') &&
        /^[A-Z]/.test(sentence[i + 1]?.text ?? '') &&
        run.length > 0;
      const before =
        i > 0 &&
        isWord(t) &&
        /^[A-Z]/.test(t.text) &&
        sentence[i + 1]?.pos === 'PROPN' &&
        /^[A-Z]/.test(sentence[i + 1]!.text);
      const plural = pluralNoun(sentence, i, run);
      const ok =
        joins ||
        before ||
        plural ||
        (isWord(t) && (NOUN.has(t.pos) || (t.pos === 'ADJ' && !run.some((r) => NOUN.has(r.pos)))));
      // "Chapter 3", "Round 2", "Listing 4": a label before a number names nothing.
      const label = !run.length && /^\d/.test(sentence[i + 1]?.text ?? '') && /^[A-Z]/.test(t.text);
      if (ok && !label && verbAfterNoun(sentence, i, run)) {
        flush();
        return;
      }
      if (ok && !label) run.push({ ...t, pos: plural ? 'NOUN' : i === opening ? `${t.pos}^` : t.pos });
      else flush();
    });
    flush();
  }
  return found;
}

/** Words that open the object of a verb: "Git stores its data", "Git stores the snapshot". */
const OBJECT_OPENER = /^(?:DET|PRON)$/;

/**
 * A word the tagger read as a plural noun after a noun, with a determiner or pronoun right after it:
 * the verb of a sentence whose subject is the noun before ("Git stores its data", "the index
 * holds a list"), not the last word of a phrase.
 */
function verbAfterNoun(sentence: EnToken[], i: number, run: EnToken[]): boolean {
  const t = sentence[i]!;
  const last = run[run.length - 1];
  if (!NOUN.has(t.pos) || !/^[a-z]{3,}[^s]s$/.test(t.text) || !last || !NOUN.has(last.pos.replace('^', '')))
    return false;
  return OBJECT_OPENER.test(sentence[i + 1]?.pos ?? '');
}

/**
 * A plural the tagger read as a verb after a noun ("context resets", "memory leaks"): it is a noun
 * where a verb cannot stand — before were/are ("Context resets were key"), or between the object of
 * a verb or preposition and a preposition or the end ("drop context resets from", "across context
 * resets.").
 */
function pluralNoun(sentence: EnToken[], i: number, run: EnToken[]): boolean {
  const t = sentence[i]!;
  const last = run[run.length - 1];
  if (t.pos !== 'VERB' || !/^[a-z]{2,}[^s]s$/.test(t.text) || !last || !NOUN.has(last.pos.replace('^', '')))
    return false;
  const next = sentence[i + 1];
  if (next?.pos === 'AUX') return true;
  const opener = sentence[i - run.length - 1]?.pos ?? '';
  return (!next || /^(?:ADP|PUNCT|CCONJ)$/.test(next.pos)) && /^(?:ADP|VERB)$/.test(opener);
}

/**
 * A capitalised word inside a sentence that another capitalised word follows opens a name, even a
 * content word of the stop lists: "New York", "a Time Lord", "the First Minister" ("York" is no name of
 * its own). A word opening the sentence ("New" is '^'-marked) or a function word ("With The API") does not.
 */
function opensName(run: EnToken[]): boolean {
  const [a, b] = run;
  const content = /^(?:NOUN|PROPN|ADJ|NUM)$/.test(a?.pos ?? '');
  return Boolean(a && b && content && /^[A-Z]/.test(a.text) && /^[A-Z]/.test(b.text));
}

function chunk(run: EnToken[], _sentence: EnToken[], found: EnglishFound): void {
  while (
    run.length &&
    !opensName(run) &&
    (EN.STOP.has(run[0]!.text.toLowerCase()) ||
      EN.CAP_STOP.has(run[0]!.text.toLowerCase()) ||
      // "other tools", and participles used so ("existing project", "given file").
      (/^(?:ADJ|VERB)/.test(run[0]!.pos) && EN.GENERIC_ADJ.has(run[0]!.text.toLowerCase())) ||
      // "open Obsidian": a step's verb before a name (not "open source").
      (EN.STEP_VERBS.has(run[0]!.text.toLowerCase()) && /^[A-Z]/.test(run[1]?.text ?? '')) ||
      // "Show backlinks.", "Add cards from notes.": an instruction's verb opening a sentence is imperative.
      (EN.INSTRUCTION_VERBS.has(run[0]!.text.toLowerCase()) && run[0]!.pos.endsWith('^')))
  )
    run = run.slice(1);
  while (run.length && !NOUN.has(run[run.length - 1]!.pos.replace('^', ''))) run = run.slice(0, -1);
  if (!run.length) return;
  // Names: runs of capitalised proper nouns; a single one not at the start of a sentence.
  let names: EnToken[] = [];
  const flushNames = () => {
    const initial = names[0]?.pos.endsWith('^');
    const text = names.map((n) => n.text).join(' ');
    const single = names.length === 1;
    if (
      names.length &&
      // One capitalised word opening a sentence is a word of the sentence ("Show a list…") unless no
      // dictionary holds it (Serializable, Kubernetes).
      !(single && initial && !acronym(text) && everyday(text.toLowerCase())) &&
      !EN.GENERIC.has(text.toLowerCase()) &&
      !EN.CAP_STOP.has(text.toLowerCase())
    )
      bump(found.names, text);
    names = [];
  };
  run.forEach((t, i) => {
    // Inside a name a capitalised word belongs to it whatever its tag ("Pro Bowl": Pro is read as an adjective).
    const inName = names.length > 0 || /^[A-Z]/.test(run[i + 1]?.text ?? '');
    if (/^[A-Z]/.test(t.text) && (t.pos.startsWith('PROPN') || acronym(t.text) || (inName && !t.pos.endsWith('^')))) {
      names.push(t);
      return;
    }
    if (names.length && CONNECTOR.has(t.text)) {
      names.push(t);
      return;
    }
    if (names.length === 1 && /^[a-z]/.test(t.text) && run[i - 1] === names[0]) bump(found.modifiers, names[0]!.text);
    flushNames();
  });
  flushNames();
  // A word that only qualifies the noun after it ("const generics", "const fn") is no term of its own there.
  run.forEach((t, i) => {
    if (i < run.length - 1 && run[i + 1]!.pos.startsWith('NOUN') && /^[a-z]/.test(run[i + 1]!.text)) return;
    if ((t.pos === 'NOUN' || t.pos === 'NOUN^') && t.text.length >= 5 && TERM_WORD.test(t.text) && !everyday(t.text))
      bump(found.terms, t.text);
  });
  // A long run is mostly a verb the tagger took for a noun ("vector database stores embeddings"):
  // each pair of neighbours counts, and only a pair the text repeats will be kept.
  const spans = run.length > 3 ? run.slice(1).map((_, i) => run.slice(i, i + 2)) : [run];
  for (const span of spans) {
    if (span.length < 2 || span.every((t) => /^[A-Z]/.test(t.text))) continue; // a name, counted above
    const words = span.map((t) => (acronym(t.text) ? t.text : t.text.toLowerCase()));
    if (words.some((w) => EN.STOP.has(w) || w.length < 2)) continue;
    bump(found.phrases, words.join(' '));
  }
}

/**
 * A common word written as a name that the same text also writes as the last word of a longer
 * name ("Parliament" after "European Parliament", "Lord" beside "Time Lord") is that name said short:
 * its mentions count for the longer one. Where two longer names end in it ("European Parliament",
 * "Kenyan Parliament") it names neither for sure, and is dropped. A place is no short form of the
 * places named after it ("Australia" beside "Western Australia"); abbreviations stay as they are.
 */
export function foldShortNames(names: ReadonlyMap<string, number>): Map<string, number> {
  const out = new Map(names);
  for (const [name, n] of names) {
    if (name.includes(' ') || /[A-Z].*[A-Z]/.test(name) || !isCommonEnglishWord(name)) continue;
    const longer = [...names.keys()].filter((l) => l.endsWith(` ${name}`));
    if (!longer.length) continue;
    out.delete(name);
    if (longer.length === 1) out.set(longer[0]!, (out.get(longer[0]!) ?? 0) + n);
  }
  return out;
}
