import type { LoadedEntry } from '../entry/wiki.js';
import { ownBody, type Resolver } from './entry-info.js';
import { normalizeName } from './similarity.js';

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

const STOP = new Set(
  'a an the is are was were be been being of in on at to for by with about around approximately roughly nearly almost over under than some and or as it its this that which who has have had from into per each every up down more less most least just only also than then there their his her our your my we they he she you i not no'.split(' '),
);

const SUBJECT_MIN = 3;

/** Sections kb generates from metadata (file sizes, outlines, lists of links): no facts there. */
const SKIP_SECTIONS = new Set(['source', 'sources', 'outline', 'definitions', 'concepts', 'backlinks', 'related', 'see also']);
const MAX_GAP = 80;

/**
 * Every number or year an entry states about a named subject, keyed by the subject (a known entry
 * name or link in the same sentence, before the number and close to it), the nearest content word
 * before the number (the cue: "founded", "costs") and the word after it (the unit: "metres", "%").
 * A number without a unit (or a year) says too little to compare and is left out, and so are
 * formulas (`k1 = 1.2`), tables and the sections kb fills with metadata.
 */
export function extractFacts(e: LoadedEntry, names: { name: string; title: string }[], r: Resolver): Fact[] {
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
      const lower = sentence.toLowerCase();
      const mentions: { title: string; end: number }[] = [];
      for (const t of linked) {
        const at = lower.indexOf(t.toLowerCase());
        if (at >= 0) mentions.push({ title: titleOf(t, names), end: at + t.length });
      }
      for (const n of names) {
        if (Array.from(n.name).length < SUBJECT_MIN) continue;
        const at = findName(lower, n.name.toLowerCase());
        if (at >= 0) mentions.push({ title: n.title, end: at + n.name.length });
      }
      if (mentions.length === 0) continue;
      for (const m of sentence.matchAll(/(?<![\p{L}\d.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?![\d.,]\d)\s*(%|[\p{L}]+)?/gu)) {
        const at = m.index ?? 0;
        const value = m[1]!.replace(/,/g, '');
        let unit = m[2] === '%' ? '%' : (normalizeName(m[2] ?? '').split(' ')[0] ?? '');
        if (STOP.has(unit)) unit = '';
        const n = Number(value);
        if (!unit && Number.isInteger(n) && n >= 1000 && n <= 2100 && !value.includes('.')) unit = 'year';
        if (!unit) continue;
        const subjects = new Set(mentions.filter((s) => s.end <= at && at - s.end <= MAX_GAP).map((s) => s.title));
        if (subjects.size === 0) continue;
        const subjectWords = new Set([...subjects].flatMap((s) => normalizeName(s).split(' ')));
        const before = sentence.slice(0, at).toLowerCase().match(/[\p{L}]+/gu) ?? [];
        let cue = '';
        for (let k = before.length - 1; k >= 0 && k >= before.length - 4; k--) {
          const w = normalizeName(before[k]!);
          if (!w || STOP.has(w) || subjectWords.has(w)) continue;
          cue = w;
          break;
        }
        for (const s of subjects) {
          facts.push({ entry: e, key: `${normalizeName(s)}|${cue}|${unit}`, subject: s, value, line: i + 1, sentence: sentence.trim() });
        }
      }
    }
  }
  return facts;
}

function titleOf(name: string, names: { name: string; title: string }[]): string {
  const k = name.toLowerCase();
  return names.find((n) => n.name.toLowerCase() === k)?.title ?? name;
}

function findName(text: string, name: string): number {
  let from = 0;
  for (;;) {
    const i = text.indexOf(name, from);
    if (i < 0) return -1;
    const before = text[i - 1] ?? ' ';
    const after = text[i + name.length] ?? ' ';
    const latin = /[a-z0-9]/;
    const badStart = latin.test(before) && latin.test(name[0] ?? '');
    const badEnd = latin.test(after) && latin.test(name[name.length - 1] ?? '');
    if (!badStart && !badEnd) return i;
    from = i + 1;
  }
}
