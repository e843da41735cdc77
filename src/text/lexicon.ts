import Database from 'better-sqlite3';
import { checkOnOpen } from '../store/recover.js';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { homedir } from 'node:os';
import * as EN from './lang/en.js';

/**
 * A Chinese–English lexicon for questions asked in one language about notes in the other, with no
 * model: CC-CEDICT (from the cc-cedict package; CC BY-SA 4.0, mdbg.net) with the word frequencies
 * of jieba's dictionary (from @node-rs/jieba) to tell the usual translation of an English word
 * from the rare ones. Built once into a small SQLite file (the knowledge base's `.kb/`), then read
 * by point lookups, so a question costs a few index reads, not loading 120,000 entries.
 */
export const LEXICON_VERSION = 'cedict-4';

/** Where the lexicon is kept once per user: the XDG cache folder, by version. */
export function sharedLexiconPath(env: NodeJS.ProcessEnv): string {
  return join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'kb', `lexicon-${LEXICON_VERSION}.db`);
}

/** English words that say nothing in a gloss. */
const GLOSS_STOP = new Set([
  ...EN.STOP,
  'sb',
  'sth',
  'etc',
  'one',
  'oneself',
  'someone',
  'something',
  'esp',
  'lit',
  'fig',
  'abbr',
  'pr',
  'cl',
  'also',
  'used',
  'e',
  'g',
]);
/** Senses that point elsewhere rather than translate. */
const POINTER =
  /^(?:(?:old |archaic |japanese |erhua |ancient |same as |see also |see |used in |also written |also pr|surname |variant of|cl:|classifier for|radical in chinese|\(bound form\)\s*$))/i;

/** A file shipped in a package, found from the package's entry point. */
function packageFile(pkg: string, entryRel: string, file: string): string {
  return join(dirname(fileURLToPath(import.meta.resolve(pkg))), entryRel, file);
}

export interface Translation {
  term: string;
  weight: number;
}

/** An English word without a plural ending (tides → tide, causes → cause, cities → city), as keys are stored. */
export function baseForm(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && /(?:ss|x|z|ch|sh)es$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

/** The content words of one English sense, lowercased ("to defend; to protect (against)" → defend, protect). */
export function glossWords(sense: string): string[] {
  return plainGloss(sense)
    .flatMap((w) => w.split('-'))
    .filter((w) => !GLOSS_STOP.has(w) && w.length > 1);
}

/**
 * The hyphenated compounds of one sense ("plug-in (software component)" → plug-in), each under the
 * keys English names meet it by: apart, as names.ts entityKey writes a hyphen (plug in), and closed
 * up, as technical English often writes it (plugin, email, addon).
 */
export function glossCompounds(sense: string): string[][] {
  return plainGloss(sense)
    .filter((w) => w.includes('-'))
    .map((w) => {
      const parts = baseForm(w).split('-');
      return [parts.join(' '), parts.join('')];
    });
}

/** The words of a sense as written, lowercased, with their hyphens; no parenthesis, no Chinese. */
function plainGloss(sense: string): string[] {
  const plain = sense
    .replace(/\([^)]*\)|\[[^\]]*\]/g, ' ')
    .replace(/[\p{Script=Han}|]+/gu, ' ')
    .toLowerCase();
  return (plain.match(/[a-z0-9]+(?:-[a-z0-9]+)*(?:'[a-z]+)?/g) ?? []).map((w) => w.replace(/'s$/, ''));
}

interface Built {
  zh: Map<string, Translation[]>;
  en: Map<string, Translation[]>;
}

/** Parse CC-CEDICT and weigh every sense: earlier senses and shorter glosses translate better. */
function build(): Built {
  const text = readFileSync(packageFile('cc-cedict', '../data', 'all.js'), 'utf8');
  const data = JSON.parse(text.slice(text.indexOf('{')).replace(/;?\s*$/, '')) as {
    all: [string, string, string, string | string[], ...unknown[]][];
  };
  const freq = new Map<string, number>();
  for (const line of readFileSync(packageFile('@node-rs/jieba', '.', 'dict.txt'), 'utf8').split('\n')) {
    const sp = line.indexOf(' ');
    if (sp > 0) freq.set(line.slice(0, sp), Number(line.slice(sp + 1, line.indexOf(' ', sp + 1))) || 0);
  }
  const zh = new Map<string, Map<string, number>>();
  const en = new Map<string, Map<string, number>>();
  for (const [, simp, , english] of data.all) {
    if (!/^\p{Script=Han}+$/u.test(simp)) continue;
    const senses = (typeof english === 'string' ? [english] : english)
      .flatMap((s) => s.split(/;\s*/))
      .filter((s) => !POINTER.test(s.trim()));
    senses.forEach((sense, i) => {
      const words = glossWords(sense);
      if (!words.length) return;
      const w = 1 / (1 + 0.3 * i) / Math.sqrt(words.length);
      const to = zh.get(simp) ?? zh.set(simp, new Map()).get(simp)!;
      const compounds = glossCompounds(sense);
      // A compound closed up (plugin) is one more English word for it, as heavy as its parts.
      const closed = compounds.map((forms) => forms[1]!);
      for (const word of [...words, ...closed]) to.set(word, Math.max(to.get(word) ?? 0, w));
      // The reverse, for each word and for the whole sense when it is a short phrase ("super bowl"):
      // a word that is the whole sense translates best, a word lost in a long gloss hardly at all;
      // among equals, the word Chinese writers use more often.
      const f = Math.log(2 + (freq.get(simp) ?? 0));
      const base = words.map(baseForm);
      const part = base.length === 1 ? 1 : 0.5;
      const keys =
        base.length > 1 && base.length <= 3
          ? [...base.map((k) => ({ k, exact: part })), { k: base.join(' '), exact: 1 }]
          : base.map((k) => ({ k, exact: part }));
      // A compound is also looked up whole (plugin: 插件), at the weight of a word of the sense.
      const whole = compounds.length === 1 && base.length <= 2 ? 1 : 0.5;
      for (const forms of compounds) for (const k of forms) if (!base.includes(k)) keys.push({ k, exact: whole });
      for (const { k, exact } of keys) {
        const back = en.get(k) ?? en.set(k, new Map()).get(k)!;
        back.set(simp, Math.max(back.get(simp) ?? 0, (exact * f) / (1 + 0.2 * i)));
      }
    });
  }
  const top = (m: Map<string, number>, n: number): Translation[] => {
    const list = [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
    const best = list[0]?.[1] ?? 1;
    return list.map(([term, w]) => ({ term, weight: Math.round((w / best) * 1000) / 1000 }));
  };
  const out: Built = { zh: new Map(), en: new Map() };
  for (const [k, m] of zh) out.zh.set(k, top(m, 8));
  for (const [k, m] of en) out.en.set(k, top(m, 6));
  return out;
}

function writeLexicon(path: string): void {
  const w = new Database(path);
  try {
    const built = build();
    w.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE zh (word TEXT PRIMARY KEY, en TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE en (term TEXT PRIMARY KEY, zh TEXT NOT NULL) WITHOUT ROWID;`);
    w.transaction(() => {
      const z = w.prepare(`INSERT INTO zh (word, en) VALUES (?, ?)`);
      let maxWord = 1;
      for (const [k, v] of built.zh) {
        z.run(k, v.map((t) => `${t.term}:${t.weight}`).join(' '));
        maxWord = Math.max(maxWord, Array.from(k).length);
      }
      const e = w.prepare(`INSERT INTO en (term, zh) VALUES (?, ?)`);
      for (const [k, v] of built.en) e.run(k, v.map((t) => `${t.term}:${t.weight}`).join(' '));
      const m = w.prepare(`INSERT INTO meta (key, value) VALUES (?, ?)`);
      m.run('max_word', String(Math.min(maxWord, 12)));
      m.run('version', LEXICON_VERSION);
    })();
  } finally {
    w.close();
  }
}

export class Lexicon {
  private readonly db: Database.Database;
  private readonly zhStmt: Database.Statement;
  private readonly enStmt: Database.Statement;
  /** Longest Chinese headword, in characters. */
  readonly maxWord: number;

  private constructor(db: Database.Database) {
    this.db = db;
    this.zhStmt = db.prepare(`SELECT en FROM zh WHERE word = ?`);
    this.enStmt = db.prepare(`SELECT zh FROM en WHERE term = ?`);
    this.maxWord = Number(
      (db.prepare(`SELECT value FROM meta WHERE key = 'max_word'`).get() as { value: string } | undefined)?.value ?? 8,
    );
  }

  /** The lexicon at `path` when it is there and current; never builds it (that takes half a minute). */
  static openExisting(path: string): Lexicon | undefined {
    if (!existsSync(path)) return undefined;
    try {
      const db = new Database(path, { readonly: true, fileMustExist: true });
      const v = (db.prepare(`SELECT value FROM meta WHERE key = 'version'`).get() as { value: string } | undefined)
        ?.value;
      if (v === LEXICON_VERSION) return new Lexicon(db);
      db.close();
    } catch {
      // Unreadable: as if missing.
    }
    return undefined;
  }

  /** The lexicon at `path`, built there first when it is missing or of another version. */
  static open(path: string): Lexicon {
    checkOnOpen(path, 'lexicon');
    const current = (p: string): Database.Database | undefined => {
      if (!existsSync(p)) return undefined;
      try {
        const db = new Database(p, { readonly: true, fileMustExist: true });
        const v = (db.prepare(`SELECT value FROM meta WHERE key = 'version'`).get() as { value: string } | undefined)
          ?.value;
        if (v === LEXICON_VERSION) return db;
        db.close();
      } catch {
        // Unreadable: build it again.
      }
      return undefined;
    };
    let db = current(path);
    if (!db) {
      mkdirSync(dirname(path), { recursive: true });
      const tmp = `${path}.${process.pid}.tmp`;
      rmSync(tmp, { force: true });
      try {
        writeLexicon(tmp);
        renameSync(tmp, path);
      } finally {
        rmSync(tmp, { force: true });
      }
      db = current(path)!;
    }
    return new Lexicon(db);
  }

  close(): void {
    this.db.close();
  }

  private static parse(row: string | undefined): Translation[] {
    if (!row) return [];
    return row.split(' ').map((x) => {
      const at = x.lastIndexOf(':');
      return { term: x.slice(0, at), weight: Number(x.slice(at + 1)) };
    });
  }

  /** English for a Chinese word (Simplified), best first, weights relative to the best (1). */
  english(word: string): Translation[] {
    return Lexicon.parse((this.zhStmt.get(word) as { en: string } | undefined)?.en);
  }

  /** Chinese for an English word or short phrase (lowercase), best first. */
  chinese(term: string): Translation[] {
    return Lexicon.parse((this.enStmt.get(term) as { zh: string } | undefined)?.zh);
  }

  /**
   * The dictionary words of a run of Han characters that no longer word found there contains
   * (中华人民共和国, not 人民 or 共和国), with where each starts; characters no word covers stay alone.
   */
  words(run: string): string[] {
    const chars = Array.from(run);
    const found: [number, number][] = [];
    for (let i = 0; i < chars.length; i++) {
      for (let n = Math.min(this.maxWord, chars.length - i); n >= 1; n--) {
        const w = chars.slice(i, i + n).join('');
        if (n === 1 || this.zhStmt.get(w)) {
          found.push([i, i + n]);
          break;
        }
      }
    }
    const maximal = found.filter(([a, b]) => !found.some(([c, d]) => c <= a && d >= b && d - c > b - a));
    return maximal.map(([a, b]) => chars.slice(a, b).join(''));
  }
}

const lexicons = new Map<string, Lexicon>();

/**
 * The lexicon, shared within the process. It depends on kb's dictionary only, not on a knowledge
 * base: it is built once per user (XDG cache folder, seconds of work) and kept there by version;
 * where that folder cannot be written, in the knowledge base's .kb/.
 */
export function lexiconFor(stateDir: string, env: NodeJS.ProcessEnv = process.env): Lexicon {
  return openLexicon(sharedLexiconPath(env), false) ?? openLexicon(join(stateDir, 'lexicon.db'), true)!;
}

function openLexicon(path: string, mustOpen: boolean): Lexicon | undefined {
  let lex = lexicons.get(path);
  // A lexicon found damaged in use is set aside (renamed): the next look-up builds a new one.
  if (lex && !existsSync(path)) {
    lex.close();
    lex = undefined;
  }
  if (!lex) {
    try {
      lex = Lexicon.open(path);
    } catch (err) {
      if (mustOpen) throw err;
      return undefined;
    }
    lexicons.set(path, lex);
  }
  return lex;
}

export function closeLexicons(): void {
  for (const l of lexicons.values()) l.close();
  lexicons.clear();
}
