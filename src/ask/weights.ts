/**
 * The offline answerer's weights, in one table: how a statement's score against the question is
 * raised or lowered, and how a numbered run is chosen for a question asking for a list. Each was
 * set against the bench sets and `npm run eval:ask`; change one only with their figures beside it.
 */
export const ANSWER_WEIGHTS = {
  /** Share of its better neighbour's score a statement adds to its own. */
  neighbourShare: 0.3,
  /** A statement that says what the subject of a "什么是 X？" question is counts this many times. */
  definitionBoost: 2.5,
  /**
   * …and one that says what kind of thing it is ("A module is a collection of…", "X 是一种…") this many
   * times more: the subject, a copula, then a kind, not a remark ("Go modules are the future of…").
   */
  genusBoost: 1.2,
  /** A statement that gives a reason, when the question asks why. */
  reasonBoost: 1.2,
  /**
   * A Chinese statement that holds none of the lowercase Latin terms a Chinese question writes (怎么在
   * widget 里注册 hook): its shared Chinese words, each counted as characters and pairs, would outweigh
   * the terms the question is about.
   */
  nameless: 0.3,
  /** A lead-in into a list or a table ("Here is how the two compare:"), when the question asks for several things or compares. */
  leadInBoost: 1.5,
  /** How many characters of list items, and of table rows (each a row's cells with their headers), a lead-in takes along (five at most). */
  leadInItemsChars: 400,
  leadInRowsChars: 800,
  /** A statement that sets two things against each other (unlike, whereas, 不同), when the question compares. */
  contrastBoost: 1.5,
  /** A statement that ranks one thing above the rest (最, best, biggest), when the question asks which ranks so. */
  superlativeBoost: 1.5,
  /** A statement that spells out an abbreviation the question asks the meaning of (SRS（Spaced Repetition System）). */
  expansionBoost: 3,
  /** Share of a matching statement's score that a reason two sentences away from it gets for a "why". */
  reasonShare: 0.8,
  /** A statement of the entry ranked r counts 1 / (1 + r × this). */
  entryRankDecay: 0.2,
  /** A statement that only says the question again (fewer than two words of its own), or asks a question. */
  restatement: 0.1,
  /** Share of such a statement's score the statement right after it gains: the answer follows the question. */
  giveWay: 1,
  /** What it gains counts this many times when that question asks what the asker asks (how many, why). */
  sameAsking: 1.5,
  /** A statement holding a number, when the question asks for an amount or a date. */
  numberBoost: 1.15,
  /** The best statement must hold this share of what the context holds of the question to be answered with. */
  confident: 0.5,
  /** Below it, the texts of this many of the best statements are shown, each from this many statements before its best to this many after. */
  likeliestPassages: 3,
  passageBefore: 1,
  passageAfter: 2,
  /** Share of the weight of the question's words its entry's title holds that a statement adds to its own. */
  titleShare: 1,
  /** A statement shorter than this (letters and digits) is no candidate. */
  shortest: 3,
  /** Two statements sharing this share of their character pairs say the same thing. */
  sameSentence: 0.5,
  /** A numbered run of as many items as the question counts, and one of another length. */
  listCountMatch: 1.5,
  listCountMiss: 0.7,
  /** A run of the entry ranked r counts 1 / (1 + r × this). */
  listRankDecay: 0.3,
  /** Each of the question's own words a run's heading or lead-in says back raises it by this share. */
  listSaysBack: 0.1,
  /** A run's items must hold this share of the best question term's weight to be about it. */
  listEnough: 0.25,
} as const;
