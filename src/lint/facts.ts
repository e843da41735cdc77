import type { LoadedEntry } from '../entry/wiki.js';
import { ownBody, type Resolver } from './entry-info.js';
import { normalizeName } from './similarity.js';
import * as EN from '../text/lang/en.js';

/** A number or date an entry states about a subject: "the Eiffel Tower is 330 metres tall". */
export interface Fact {
  entry: LoadedEntry;
  /** normalizeName(subject) | cue word | unit. */
  key: string;
  subject: string;
  value: string;
  /** 1-based line in the body. */
  line: number;
  sentence: string;
}

/** Words that are no subject of a stated number: function words, generic words, approximators. */
const STOP = new Set([...EN.STOP, ...EN.APPROXIMATORS]);

const SUBJECT_MIN = 3;

/** Sections kb generates from metadata (file sizes, outlines, lists of links): no facts there. */
const SKIP_SECTIONS = new Set([
  'source',
  'sources',
  'outline',
  'definitions',
  'concepts',
  'backlinks',
  'related',
  'see also',
]);
const MAX_GAP = 80;

/**
 * Every number or year an entry states about a named subject, keyed by the subject (a known entry
 * name or link in the same sentence, before the number and close to it), the nearest content word
 * before the number (the cue: "founded", "costs") and the word after it (the unit: "metres", "%").
 * A number without a unit (or a year) says too little to compare and is left out, and so are
 * formulas (`k1 = 1.2`), tables and the sections kb fills with metadata.
 */
export function extractFacts(e: LoadedEntry, names: SubjectNames, r: Resolver): Fact[] {
  const facts: Fact[] = [];
  const lines = ownBody(e.body).split('\n');
  let fence = false;
  let skip = false;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (/^\s*(```|~~~)/.test(raw)) fence = !fence;
    if (fence) continue;
    const head = /^#{1,6}\s+(.*)$/.exec(raw);
    if (head) {
      skip = SKIP_SECTIONS.has(head[1]!.trim().toLowerCase());
      continue;
    }
    if (skip || /^\s*<!--/.test(raw) || /^\s*\|/.test(raw) || (raw.match(/;/g) ?? []).length >= 2) continue;
    // A fact states a number: a line without a digit has none (its links' text is part of the line).
    if (!/\d/.test(raw)) continue;
    const linked: string[] = [];
    const text = raw
      .replace(/`[^`]*`/g, ' ')
      .replace(/https?:\/\/\S+/g, ' ')
      .replace(/!?\[\[([^\]|#]*)(?:#[^\]|]*)?(?:\|([^\]]*))?\]\]/g, (_m, t: string, shown?: string) => {
        const hit = r.entry(t);
        if (hit) linked.push(String(hit.fm.title));
        if (hit && shown) linked.push(shown);
        return shown ?? t;
      })
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    for (const sentence of text.split(/(?<=[.!?。！？;；])\s+|(?<=[。！？；])/u)) {
      if (!/\d/.test(sentence) || /[=<>≈≤≥]/.test(sentence)) continue;
      // The names are looked for only in a sentence that states a number with a unit (most do not).
      const numbers = unitNumbers(sentence);
      if (!numbers.length) continue;
      const lower = sentence.toLowerCase();
      const mentions: { title: string; end: number }[] = [];
      for (const t of linked) {
        const at = lower.indexOf(t.toLowerCase());
        if (at >= 0) mentions.push({ title: names.titleOf(t), end: at + t.length });
      }
      mentions.push(...names.mentions(lower));
      if (mentions.length === 0) continue;
      for (const { at, value, unit } of numbers) {
        const subjects = new Set(mentions.filter((s) => s.end <= at && at - s.end <= MAX_GAP).map((s) => s.title));
        if (subjects.size === 0) continue;
        const subjectWords = new Set([...subjects].flatMap((s) => normalizeName(s).split(' ')));
        const before =
          sentence
            .slice(0, at)
            .toLowerCase()
            .match(/[\p{L}]+/gu) ?? [];
        let cue = '';
        for (let k = before.length - 1; k >= 0 && k >= before.length - 4; k--) {
          const w = normalizeName(before[k]!);
          if (!w || STOP.has(w) || subjectWords.has(w)) continue;
          cue = w;
          break;
        }
        for (const s of subjects) {
          facts.push({
            entry: e,
            key: `${normalizeName(s)}|${cue}|${unit}`,
            subject: s,
            value,
            line: i + 1,
            sentence: sentence.trim(),
          });
        }
      }
    }
  }
  return facts;
}

/** The numbers of a sentence that have a unit (a word after them, `%`, or a year's range), where they start. */
function unitNumbers(sentence: string): { at: number; value: string; unit: string }[] {
  const out: { at: number; value: string; unit: string }[] = [];
  for (const m of sentence.matchAll(
    /(?<![\p{L}\d.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?![\d.,]\d)\s*(%|[\p{L}]+)?/gu,
  )) {
    const value = m[1]!.replace(/,/g, '');
    let unit = m[2] === '%' ? '%' : (normalizeName(m[2] ?? '').split(' ')[0] ?? '');
    if (STOP.has(unit)) unit = '';
    const n = Number(value);
    if (!unit && Number.isInteger(n) && n >= 1000 && n <= 2100 && !value.includes('.')) unit = 'year';
    if (unit) out.push({ at: m.index ?? 0, value, unit });
  }
  return out;
}

const LATIN = /[a-z0-9]/;

/** LATIN, for a UTF-16 code. */
function latinCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
}

/** Is `name` at `i` in `text` a whole word where it is Latin (not `cat` inside `concatenate`)? */
function wholeAt(text: string, i: number, name: string): boolean {
  const badStart = LATIN.test(text[i - 1] ?? ' ') && LATIN.test(name[0] ?? '');
  const badEnd = LATIN.test(text[i + name.length] ?? ' ') && LATIN.test(name[name.length - 1] ?? '');
  return !badStart && !badEnd;
}

/**
 * The names of concepts, ready to be looked for in many sentences: indexed by their first two
 * characters (every name has three or more), so a sentence is read once instead of once per name.
 */
export class SubjectNames {
  private readonly names: { name: string; title: string; lower: string }[];
  /** The first two UTF-16 units of a name, as one number (no string made per position looked at). */
  private readonly byStart = new Map<number, number[]>();
  private readonly titles = new Map<string, string>();

  constructor(names: { name: string; title: string }[]) {
    this.names = names.map((n) => ({ ...n, lower: n.name.toLowerCase() }));
    this.names.forEach((n, k) => {
      if (!this.titles.has(n.lower)) this.titles.set(n.lower, n.title);
      if (Array.from(n.name).length < SUBJECT_MIN) return;
      const start = n.lower.charCodeAt(0) * 0x10000 + n.lower.charCodeAt(1);
      (this.byStart.get(start) ?? this.byStart.set(start, []).get(start)!).push(k);
    });
  }

  /** The title a name stands for (the name itself when it is no concept's name). */
  titleOf(name: string): string {
    return this.titles.get(name.toLowerCase()) ?? name;
  }

  /** Each name found in `lower` (first whole occurrence), in the order of the names. */
  mentions(lower: string): { title: string; end: number }[] {
    const first = new Map<number, number>();
    for (let p = 0; p + 1 < lower.length; p++) {
      // Inside a Latin word no name starts (wholeAt would refuse every one): the next position.
      if (p > 0 && latinCode(lower.charCodeAt(p)) && latinCode(lower.charCodeAt(p - 1))) continue;
      const list = this.byStart.get(lower.charCodeAt(p) * 0x10000 + lower.charCodeAt(p + 1));
      if (!list) continue;
      for (const k of list) {
        if (first.has(k)) continue;
        const n = this.names[k]!;
        if (lower.startsWith(n.lower, p) && wholeAt(lower, p, n.lower)) first.set(k, p);
      }
    }
    return [...first.keys()]
      .sort((a, b) => a - b)
      .map((k) => ({ title: this.names[k]!.title, end: first.get(k)! + this.names[k]!.name.length }));
  }
}
