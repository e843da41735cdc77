import { createRequire } from 'node:module';
import { freshEnglish } from './wink-model.js';

/**
 * English parts of speech from wink-nlp with its small English model (shipped in the package, no
 * download), loaded once per process on first use (wink-model.ts: faster than the package's loader).
 * Only sentence breaking and tagging run: they are what noun-phrase chunking needs, and the rest of
 * wink's pipe costs time.
 */
const require = createRequire(import.meta.url);

export interface EnToken {
  text: string;
  /** Universal POS tag: NOUN, PROPN, ADJ, VERB, … */
  pos: string;
}

interface WinkDoc {
  sentences(): { each(f: (s: { tokens(): { out(a: unknown): string[] } }) => void): void };
}
interface Wink {
  readDoc(text: string): WinkDoc;
  its: { value: unknown; pos: unknown };
}

let fresh: (() => Wink) | undefined;

/** wink as a process that has read nothing yet has it (wink-model.ts freshEnglish). */
function load(): Wink {
  if (!fresh) {
    const winkNLP = require('wink-nlp') as (model: unknown, pipe: string[]) => Wink;
    fresh = freshEnglish((model) => winkNLP(model, ['sbd', 'pos']));
  }
  return fresh();
}

/** Loads the English model now (a long-running process, while idle), not on first use. */
export function warmEnglish(): void {
  load();
}

/** Whether this process has loaded the English model. */
export function englishLoaded(): boolean {
  return fresh !== undefined;
}

/**
 * A dot inside a word (Node.js, ASP.NET, import.meta.env, vite.config.js) ends no sentence: wink
 * would break the sentence there and tag the halves apart ("js integration"). It is tagged as this
 * character instead, and the word put back together.
 */
const INNER_DOT = /(?<=[A-Za-z0-9])\.(?=[A-Za-z])/g;
const DOT_STAND_IN = '\u2024';

/** The sentences of a text, each as tagged tokens. */
export function tagEnglish(text: string): EnToken[][] {
  const w = load();
  const out: EnToken[][] = [];
  w.readDoc(text.replace(INNER_DOT, DOT_STAND_IN))
    .sentences()
    .each((s) => {
      const t = s.tokens();
      const values = t.out(w.its.value);
      const pos = t.out(w.its.pos);
      out.push(joinDotted(values.map((v, i) => ({ text: v, pos: pos[i]! }))));
    });
  return out;
}

/**
 * Tokens around a dot stand-in joined into one word again: a name if it opens with a capital or a
 * part is one (Node.js, ASP.NET); otherwise a file, a property path or an abbreviation
 * (vite.config.js, import.meta.env, e.g.), tagged X: no part of a noun phrase.
 */
function joinDotted(tokens: EnToken[]): EnToken[] {
  if (!tokens.some((t) => t.text.includes(DOT_STAND_IN))) return tokens;
  const out: EnToken[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const prev = out[out.length - 1];
    if (t.text === DOT_STAND_IN && prev && tokens[i + 1]) {
      const next = tokens[++i]!;
      prev.text = `${prev.text}.${next.text}`;
      const letters = /^[a-z](?:\.[a-z])+\.?$/i.test(prev.text);
      prev.pos = !letters && (prev.pos === 'PROPN' || next.pos === 'PROPN' || /^[A-Z]/.test(prev.text)) ? 'PROPN' : 'X';
    } else out.push({ ...t, text: t.text.replaceAll(DOT_STAND_IN, '.') });
  }
  return out;
}

let porter: ((word: string) => string) | undefined;
const stems = new Map<string, string>();

/**
 * The Porter2 stem of a lowercase English word (meetings → meet, attended → attend), from the
 * stemmer wink's English model ships; anything else as it is. Cached: a wiki repeats its words.
 */
export function stemWord(word: string): string {
  if (word.length < 4 || !/^[a-z]+$/.test(word)) return word;
  let s = stems.get(word);
  if (s === undefined) {
    porter ??= require('wink-eng-lite-web-model/dist/porter-stemmer.js') as (w: string) => string;
    // Who a verb's action falls on, or who does it (attendee, employee, trainee), stems as the verb.
    const agent = /^([a-z]{4,}[^aeiou\W])ees?$/.exec(word)?.[1];
    s = porter(agent && !/([^aeiou])\1$/.test(agent) ? agent : word);
    if (stems.size > 50_000) stems.clear();
    stems.set(word, s);
  }
  return s;
}
