/**
 * The thresholds and shares that decide which names become concepts, titles and pages, in one table
 * tuned against the labelled eval (`npm run eval:wiki`): change one here, and judge the change by the
 * eval's table on all its corpora, never by one document. Limits that only bound work (how many
 * names are counted, how long a piece is read) stay beside the code they bound.
 */
export const WEIGHTS = {
  // --- Names of one document (entities.ts)
  /** Mentions an everyday word needs to be kept as a weak name. */
  WEAK_MIN_COUNT: 3,
  /** Weak English names kept of one document, most mentioned first… */
  MAX_WEAK: 20,
  /**
   * …and weak Chinese ones, one for this many Han characters of the text, between MAX_WEAK and
   * MAX_WEAK_ZH: a two-character noun (协议, 公钥, 冲突) is never a name of its own, so a Chinese
   * version meets its original's names (protocol) only through its everyday words, and a chapter of
   * ten thousand characters holds more of those than a note of two thousand.
   */
  HAN_CHARS_PER_WEAK: 250,
  MAX_WEAK_ZH: 40,
  /** A section shorter than this is too short to keep naming its heading's term. */
  MIN_SECTION_CHARS: 120,
  /** Headings an everyday word must stand in, and mentions their sections must make, to be a subject of the work. */
  RECURRING_HEADINGS: 2,
  RECURRING_MENTIONS: 15,
  /** A glossed word the dictionary lacks is a term when the text writes it at least this often. */
  UNKNOWN_MIN_USES: 3,
  /** Names kept of one document, most mentioned first. */
  MAX_KEPT: 60,

  // --- Names a layout stresses (stressed.ts)
  /** A section shorter than this is a note, not an account of its heading's term. */
  MIN_SECTION: 400,

  // --- A work's subjects (subject.ts)
  /** Mentions a title's term needs in its text to be what the text is about, not a word of the title only. */
  MIN_MENTIONS: 3,
  /** A title's term of this many words at most: a longer run is a phrase of the title. */
  MAX_WORDS: 4,
  /** A word capitalised this share of its mentions is a name. */
  NAME_SHARE: 0.8,
  /** Subjects kept for one work: "Defer, Panic, and Recover" has three. */
  MAX_SUBJECTS: 3,
  /** A shorter term inside a longer one that is named at least this share as often is part of that name. */
  PART_SHARE: 0.5,
  /** A subject named less than this share as often as the work's main one is a side topic of the title. */
  SIDE_SHARE: 0.3,
  /** Mentions a word of a one-name title needs for the text to be about that name, called by a part of it. */
  PART_MENTIONS: 5,

  // --- Chinese terms (zh-terms.ts)
  /** Below this inverse document frequency a dictionary word is an everyday word (模型 6.8, 代码 7.2). */
  COMMON_IDF: 9,
  /** Two words are one term where the text writes them together at least this often… */
  BOUND_MIN: 3,
  /** …and the first almost only before the second (重新 of 重新渲染; not 可以, said before any verb). */
  BOUND_SHARE: 0.8,

  // --- Concepts across works (concepts.ts)
  /** A Chinese gloss given to this many different names is a label of the layout, not a name of any. */
  LABEL_GLOSS_NAMES: 3,
  /** What an everyday word's mention counts in the vote for a concept's title, beside a name's 1. */
  WEAK_VOTE: 0.5,
  /**
   * A work whose Chinese names hold a Traditional character at least this often is written in
   * Traditional script: its other names are Taiwan's words too (伺服器, 命令列). On four corpora the
   * zh-TW notes' works mostly 0.35–1, the zh-CN works' at most 0.15.
   */
  TAIWAN_SHARE: 0.3,
  /** A sentence written the same in this many works is standing text: a template's, not a work's own. */
  STANDING_WORKS: 3,
  /**
   * A name fewer works than this mention is a concept only where one of them introduces or stresses
   * it (salient: defined, glossed, emphasised, in a heading) or a model named it as what the work is
   * about: two chapters that both mention an
   * example's John or a `log output` in passing share no idea.
   */
  PASSING_WORKS: 3,
  /**
   * …in a knowledge base of at least this many works: the more works, the more names two of them
   * share by chance; in a handful of notes, two that name one thing is already a pattern.
   */
  PASSING_MIN_DOCS: 10,
  /** How often a version of a work must name a term that every version names for the term to get a page. */
  VERSIONS_RETURN: 4,
  /** Names shared by more documents than this say nothing about two being one work. */
  VERSION_MAX_SHARED: 20,
  /** Versions of one work share at least this many names… */
  VERSION_MIN_SHARED: 8,
  /** …and this share of the names of the one with fewer: in two languages (a translation names the
   * same things in other words, so fewer merge)… */
  TRANSLATION_SHARE: 0.4,
  /** …or in one (two notes on one topic in one language share many names and are two works). */
  SAME_LANGUAGE_SHARE: 0.75,
  /** A translation keeps at least this many of its original's marks (code, addresses)… */
  TRANSLATION_MIN_MARKS: 5,
  /** …and this share of the marks of the one with fewer… */
  TRANSLATION_MARK_SHARE: 0.7,
  /** …and no other English text comes within this share of that match. */
  TRANSLATION_MARGIN: 0.8,
  /** A name used this often in each of two versions of one work can be the same idea in both. */
  ALIGNED_MIN_COUNT: 2,
  /** An everyday word and its translation in another version of a work are used at least this share as often as each other. */
  ALIGNED_RATIO: 0.5,
  /** A name aligned by where it stands is named in at least this many sections of a version… */
  ALIGNED_MIN_SECTIONS: 3,
  /** …in no more than this share of them (a name in every section stands everywhere, so nowhere)… */
  ALIGNED_MAX_SPREAD: 0.6,
  /** …and in these sections as nearly as its translation is (Dice's overlap of the two sets)… */
  ALIGNED_MIN_OVERLAP: 0.85,
  /** …used about as often (the rarer at least this share of the more frequent). */
  ALIGNED_MIN_RATIO: 0.5,
} as const;
