import { parseBlocks } from '../chunk/blocks.js';
import type { PackedEntry } from './pack.js';
import { foldText } from '../text/fold.js';
import { searchTerms } from '../text/search.js';
import { HAN, inChinese } from '../text/script.js';
import { baseForm } from '../text/lexicon.js';
import { cutZh } from '../text/jieba.js';
import { withoutInterrogatives } from '../text/lang/zh.js';
import * as EN from '../text/lang/en.js';
import * as ZH from '../text/lang/zh.js';
import { anyOf } from '../text/lang/words.js';
import { asks, intentsOf } from './intent.js';
import { ANSWER_WEIGHTS as W } from './weights.js';

/**
 * Numbered lines in the packed context, for a question that asks for a list ("ClipGenius 有哪些功能？",
 * "ADK 有哪五种技能设计模式？", "What are the steps…"): a work often answers it with numbered sections
 * (`1. 智能内容分类`, `Pattern 2: The Generator`, `模式三：Reviewer（审查器）`, `第一步：导入数据`), whose lines
 * are labels, no statements, so the sentences around them never say what the items are.
 */

/**
 * Whether a question asks for several things (有哪些, 支持哪些, 哪几步, "what are the", "which …s",
 * "what features does"); `loosely` also takes any other 哪些 (还有哪些重建也支持…), which is enough to
 * read a lead-in's labels but not to pick a numbered run, whose items must then speak of what is asked.
 */
export function asksForList(question: string, loosely = false): boolean {
  const intents = intentsOf(question);
  return intents.has('list') || (loosely && intents.has('several'));
}

/** The words of the steps rules as search terms (singular): they say a list is asked for, not of what. */
const STEP_WORD = new RegExp(`^(?:${anyOf([...ZH.PROCESS_WORDS, ...EN.PROCESS_WORDS])})$`, 'u');

const ZH_NUMERAL = `[两${ZH.NUMERALS.join('')}]`;
const ZH_COUNTER = `[${ZH.COUNTERS.join('')}]`;
const EN_COUNTER = EN.COUNTERS.join('|');
const COUNTER_WORD = new RegExp(`\\b(${EN_COUNTER})s\\b`, 'i');
const ZH_COUNTED = new RegExp(`(?:哪|几|${ZH_NUMERAL}|\\d)\\s*(${ZH_COUNTER})`, 'u');
const ZH_COUNT = new RegExp(`(${ZH_NUMERAL}|\\d{1,2})\\s*(?:${ZH_COUNTER}|大)`, 'u');
const EN_COUNT = new RegExp(`\\b(${EN.NUMBERS.slice(2).join('|')}|\\d{1,2})\\s+\\w+`, 'i');

/** The word a question counts with (步 of 哪几步, 种 of 五种, step of "what are the steps"). */
function counterAsked(question: string): string | undefined {
  return ZH_COUNTED.exec(question)?.[1] ?? COUNTER_WORD.exec(question)?.[1]?.toLowerCase();
}

/** The count a question names ("哪五种" → 5, "five patterns", "3 steps"). */
function countAsked(question: string): number | undefined {
  const m = ZH_COUNT.exec(question) ?? EN_COUNT.exec(question);
  return m ? numberOf(m[1]!) : undefined;
}

/** Words that count or ask for steps: STEP_WORD's, the counters (step, pattern, 种, 步…) and numbers. */
const COUNTING = new RegExp(
  `^(?:${anyOf([...ZH.PROCESS_WORDS, ...EN.PROCESS_WORDS])}|(?:${EN_COUNTER})s?|${ZH_COUNTER}|\\d+|${ZH_NUMERAL}|${EN.NUMBERS.join('|')})$`,
  'u',
);

function numberOf(s: string): number | undefined {
  if (/^\d+$/.test(s)) return Number(s);
  if (s === '两') return 2;
  const zh = ZH.NUMERALS.indexOf(s);
  if (zh >= 0) return zh + 1;
  const en = EN.NUMBERS.indexOf(s.toLowerCase());
  return en >= 0 ? en + 1 : undefined;
}

/**
 * A numbered line: an optional word for what is counted (Pattern, Step, 模式, 第…步), the number, a
 * separator, and a short label.
 */
const NUMBERED =
  /^(?:((?:pattern|step|part|phase|stage|tip|rule|lesson|principle|模式|步骤|方法|原则|技巧|阶段|第)\s*))?(\d{1,2}|[一二三四五六七八九十])\s*(阶段|部分|[步层点个条种类章节]?)\s*([.、:：)）]|[，,](?=\S)|[—–-](?=\s))\s*(\S.{0,600})$/iu;

interface Item {
  n: number;
  line: string;
  /** What follows the number: the item's name (`Inversion` of `Pattern 4: Inversion`). */
  label: string;
  /** Where it stands among the entry's lines. */
  at: number;
}

/** The whole text of an entry, in reading order. */
export type TextOf = (entryId: string) => string | undefined;

export interface Enumeration {
  entry: PackedEntry;
  leadIn: string | undefined;
  items: string[];
  /** Lists that go on with it: the other phases of the steps asked for, in reading order. */
  more?: { leadIn: string | undefined; items: string[] }[];
  score: number;
}

interface Run {
  /** `Label: what it is` lines after a lead-in rather than numbered ones: their labels are the items. */
  labelled?: boolean;
  /** Bullets under a short title line: what the title names must be what is asked. */
  titled?: boolean;
  leadIn: string | undefined;
  /** The heading the run stands under (its words count, it is not quoted). */
  section: string;
  /** The word counted in its numbers (步 of 第一步, pattern of Pattern 1), lowercase. */
  counts: string;
  items: Item[];
}

/**
 * Numbered runs of one entry: items of one style (prefix, separator) whose numbers go up from 1; and
 * lists of `Label: what it is` lines after a lead-in. Read in its whole text when there is one (the
 * packed passages seldom hold every item).
 */
function runsOf(entry: PackedEntry, whole: string | undefined): Run[] {
  const passages = whole ? [{ text: whole }] : [...entry.passages].sort((a, b) => a.line - b.line);
  const open = new Map<string, Run>();
  const runs: Run[] = [];
  const seen = new Set<string>();
  let at = 0;
  for (const p of passages) {
    let before: string | undefined;
    let heading = '';
    // Lines read since that heading: a run far below one is not what it names (in a plain text, a
    // `# …` line may be a comment of a code sample).
    let since = 0;
    const lines = p.text.split('\n');
    for (const [j, raw] of lines.entries()) {
      at++;
      // A heading stands after a blank line; a `# …` line right under another line is a comment in code.
      const isHeading = /^#{1,6}\s/.test(raw.trim()) && !lines[j - 1]?.trim();
      // A numbered heading (`## Phase 1 — Problem Discovery`) is an item like a numbered line.
      const line = raw.trim().replace(/^#{1,6}\s+/, '');
      if (!line) continue;
      since++;
      const section = since <= 8 ? heading : '';
      let m = NUMBERED.exec(line);
      // A dash numbers only after a word for what is counted (`Phase 1 — …`), not after a bare number.
      if (m && /^[—–-]$/.test(m[4]!) && !m[1]) m = null;
      if (!m) {
        if (isHeading) {
          heading = line;
          since = 0;
        }
        before = line.replace(/^[*_]+|[*_]+$/g, '');
        // A lead-in says something (`…三条原则：`); a bare key (`metadata:`) opens a block of settings.
        const labelled = /[:：]$/u.test(line) && !/^[\w-]+[:：]$/u.test(line) ? labelsFrom(lines, j + 1) : undefined;
        // A list under a short title line (`Action items` and its bullets): its lines are the items.
        const titled = !labelled && TITLE_LINE.test(line) ? bulletsFrom(lines, j + 1) : undefined;
        if (titled && !seen.has(`${line}\n${titled.items.join('\n')}`)) {
          seen.add(`${line}\n${titled.items.join('\n')}`);
          const items = titled.items.map((l, k) => ({ n: k + 1, line: l, label: l, at: at + titled.at[k]! - j }));
          runs.push({ titled: true, leadIn: before, section, counts: '', items });
        }
        if (labelled && !seen.has(`${line}\n${labelled.labels.join('\n')}`)) {
          seen.add(`${line}\n${labelled.labels.join('\n')}`);
          const items = labelled.labels.map((label, k) => ({
            n: k + 1,
            line: label,
            label,
            at: at + labelled.at[k]! - j,
          }));
          runs.push({ labelled: true, leadIn: before, section, counts: '', items });
        }
        continue;
      }
      // Overlapping chunks hold some lines twice.
      if (seen.has(line)) continue;
      seen.add(line);
      const style = `${(m[1] ?? '').trim().toLowerCase()}|${m[3]}|${m[4]}`;
      const n = numberOf(m[2]!)!;
      const run = open.get(style);
      const last = run?.items[run.items.length - 1]?.n ?? 0;
      if (n === 1 || !run) {
        if (n !== 1) continue;
        // The line before the first item leads into the list when it asks or announces it (…能做什么？, …steps:).
        const leadIn = before && /[:：?？]$/u.test(before) ? before : undefined;
        const fresh = {
          leadIn,
          section,
          counts: (m[3] || (m[1] ?? '').trim()).toLowerCase(),
          items: [{ n, line, label: m[5]!, at }],
        };
        open.set(style, fresh);
        runs.push(fresh);
      } else if (n > last && n <= last + 3) run.items.push({ n, line, label: m[5]!, at });
      before = undefined;
    }
  }
  // A source's text only: a concept page's sections are kb's own (What the sources say, Sources).
  if (entry.kind === 'source') runs.push(...sectionRuns(passages.map((p) => p.text).join('\n'), seen));
  return runs.filter((r) => r.items.length >= (r.labelled || r.titled ? 2 : 3));
}

/**
 * A section's own sections as a list under its heading (`## 八、持久化` with `### RDB 持久化` and
 * `### AOF 持久化`): what the section holds, named by their headings.
 */
function sectionRuns(text: string, seen: Set<string>): Run[] {
  const heads = parseBlocks(text)
    .blocks.filter((b) => b.kind === 'heading' && b.title)
    .map((b) => ({ level: b.depth!, title: b.title! }));
  const runs: Run[] = [];
  heads.forEach((h, i) => {
    const items: Item[] = [];
    for (let k = i + 1; k < heads.length && heads[k]!.level > h.level; k++)
      if (heads[k]!.level === h.level + 1)
        items.push({ n: items.length + 1, line: heads[k]!.title, label: heads[k]!.title, at: k });
    const key = `${h.title}\n${items.map((x) => x.line).join('\n')}`;
    // A section's, not the title's: a text's own sections are its outline, not a list it gives.
    if (h.level < 2 || items.length < 2 || seen.has(key)) return;
    seen.add(key);
    runs.push({ titled: true, leadIn: h.title, section: h.title, counts: '', items });
  });
  return runs;
}

/**
 * A line of a list that names a thing and says what it is: `- 设计质量（Design quality）：…`, `Craft: …`,
 * `- **Fleeting notes** — …` (a numbered line is an item of a numbered run).
 */
const LABELLED =
  /^(?:[-*+•]\s+)?(?:(?:\*\*|__)([^*_\n]{1,40}?)[.:：]?(?:\*\*|__)\s*(?:[:：—–-]\s*)?\S|([^:：。.!?！？\n]{1,40}?)\s*[:：]\s*\S)/u;

/** A numbered section (第三步：…, Step 2: …): no item of a list of labels. */
const SECTION_LABEL = /^(?:第[一二三四五六七八九十\d]+|(?:step|phase|part|stage|pattern|chapter)\s*\d)/iu;

/** A short line that names what follows, without a sentence's end (`Action items`, `待办事项`). */
const TITLE_LINE = /^(?![-*+•]\s|\d{1,3}[.)]\s)[^。.!?！？；;:：]{2,40}$/u;

/** How far a line is indented, a tab as four columns. */
const indentOf = (line: string): number => (/^\s*/u.exec(line)?.[0] ?? '').replace(/\t/g, '    ').length;

/**
 * A line that says again the end of the line before it that says something: where the next chunk of
 * an entry's text starts, overlapping the one before.
 */
function repeats(lines: readonly string[], j: number): boolean {
  const line = lines[j]!.trim();
  if (!line) return false;
  for (let k = j - 1; k >= 0; k--) if (lines[k]!.trim()) return lines[k]!.trim().endsWith(line);
  return false;
}

/** Whether the next line that says something, from `from` on, is nested deeper than `top` or is a bullet at it. */
function goesOn(lines: readonly string[], from: number, top: number): boolean {
  const next = lines.slice(from).find((l, k) => l.trim() && !repeats(lines, from + k));
  if (next === undefined) return false;
  return indentOf(next) > top || (indentOf(next) === top && /^\s*[-*+•]\s+\S/u.test(next));
}

/**
 * The bullet lines right after `from` (two or more, indented or not), without their bullets: those at
 * the first one's depth; what is nested under one (sub-items, a quote) belongs to it, not to the list.
 */
function bulletsFrom(lines: readonly string[], from: number): { items: string[]; at: number[] } | undefined {
  const items: string[] = [];
  const at: number[] = [];
  let top: number | undefined;
  for (let j = from; j < lines.length; j++) {
    const line = lines[j]!;
    const m = /^\s*[-*+•]\s+(\S.*)$/u.exec(line);
    const depth = indentOf(line);
    // A blank line inside the list (between its items, or in what is nested under one) does not end it.
    if (top !== undefined && !line.trim() && goesOn(lines, j + 1, top)) continue;
    if (top !== undefined && line.trim() && (depth > top || repeats(lines, j))) continue;
    if (!m || (top !== undefined && depth < top)) break;
    top ??= depth;
    items.push(m[1]!.trim());
    at.push(j);
  }
  return items.length >= 2 ? { items, at } : undefined;
}

/**
 * The labels of the `Label: what it is` lines from line `from` on, with the lines they stand on: at
 * least two, at most eight; an item may go on for a paragraph or two (`Design quality: …` then `Strong
 * work here means…`). undefined when the lines there are no such list.
 */
function labelsFrom(lines: readonly string[], from: number): { labels: string[]; at: number[] } | undefined {
  const labels: string[] = [];
  const at: number[] = [];
  let gap = 0;
  for (let j = from; j < lines.length; j++) {
    const line = lines[j]!.trim();
    if (!line) continue;
    const m = /^#/.test(line) ? null : LABELLED.exec(line);
    const label = (m?.[1] ?? m?.[2])?.trim();
    if (label && SECTION_LABEL.test(label)) break;
    if (!label || !/\p{L}{2}/u.test(label) || label.split(/\s+/).length > 5) {
      if (!labels.length || /^#/.test(line) || /[:：]$/u.test(line) || ++gap > 2) break;
      continue;
    }
    gap = 0;
    labels.push(label);
    at.push(j);
    if (labels.length >= 8) break;
  }
  return labels.length >= 2 ? { labels, at } : undefined;
}

/**
 * The labels of the `Label: what it is` lines right after a lead-in (`…四个评分标准…：`) in a text;
 * undefined when the lines after it are no such list.
 */
export function labelledItems(text: string, leadIn: string): string[] | undefined {
  const lines = text.split('\n');
  const tail = leadIn.replace(/[:：]$/u, '').slice(-16);
  // The lead-in may stand twice (overlapping chunks): the list follows one of them.
  for (const [at, l] of lines.entries()) {
    if (!l.includes(tail)) continue;
    const found = labelsFrom(lines, at + 1);
    if (found) return found.labels;
  }
  return undefined;
}

/**
 * The numbered run that best answers a question asking for a list: scored by the question's terms
 * in its lead-in and items, and by holding as many items as the question counts. `termSets` are
 * tried in order (the question's own words, then with their translations): the first that finds a
 * run wins. undefined when the question asks for no list or no run holds a term of it.
 */
export function enumerationFor(
  question: string,
  entries: readonly PackedEntry[],
  termSets: readonly ReadonlySet<string>[],
  weight: (term: string) => number,
  textOf?: TextOf,
): Enumeration | undefined {
  if (!asksForList(question)) return undefined;
  // Each entry is read once, whatever the term sets tried.
  const read = entries.map((entry) => {
    const whole = textOf?.(entry.id);
    const runs = runsOf(entry, whole);
    const local = runs.length ? localWeights(whole ?? entry.passages.map((p) => p.text).join('\n')) : () => 0;
    return { entry, runs, local };
  });
  for (const terms of termSets) {
    const found = bestRun(question, read, terms, weight);
    if (found) return found;
  }
  return undefined;
}

function bestRun(
  question: string,
  read: { entry: PackedEntry; runs: Run[]; local: (t: string) => number }[],
  terms: ReadonlySet<string>,
  weight: (term: string) => number,
): Enumeration | undefined {
  // Counted in Simplified spelling, as the words are written (哪幾類 as 哪几类).
  const count = countAsked(foldText(question));
  const counter = counterAsked(foldText(question));
  const steps = asks(question, 'steps');
  // 流程 of 知识图谱的构建流程 asks for steps; a run under 基本流程 is not about 知识图谱 for that.
  const asking = steps ? STEP_WORD : undefined;
  const chinese = HAN.test(question);
  // The question's own words as written, its everyday ones too ("kinds of notes"): a lead-in that
  // says them back ("Ahrens distinguishes three kinds of notes:") is the list asked for.
  const said = new Set(
    (question.toLowerCase().match(/[a-z]{3,}/g) ?? []).filter((w) => !EN.ASKING.has(w)).map(baseForm),
  );
  const saysBack = (text: string) =>
    new Set((text.toLowerCase().match(/[a-z]{3,}/g) ?? []).map(baseForm).filter((w) => said.has(w))).size;
  // English words match in their singular (patterns, pattern).
  const asked = new Map<string, string>();
  for (const t of terms) asked.set(baseForm(t), t);
  // The question's Chinese words: its runs of Han characters between interrogatives and particles
  // (向量数据库有哪些索引 → 向量数据库, 索引).
  const hanWords = withoutInterrogatives(question)
    .split(/[^\p{Script=Han}]+|[有些的是了给和与在]|[一二三四五六七八九十两]+[个种类条项步点件大]?/u)
    .filter((w) => w.length >= 2);
  // …unless the pair is a word of its own there (查询 of 查询步骤, where 数据 of 向量数据库 is not).
  const segmented = new Set(hanWords.flatMap(cutZh));
  const holds = (text: string, local: (t: string) => number, skip?: RegExp) => {
    let score = 0;
    for (const t of new Set(searchTerms(text).map(baseForm))) {
      if (skip?.test(t)) continue;
      // One Han character says too little about a list (片 of 卡片 in 图片), and so does a character
      // pair of a longer word the text does not hold (数据 of 向量数据库 in 导入数据).
      if (t.length === 1 && HAN.test(t)) continue;
      const of = HAN.test(t) ? hanWords.filter((w) => w.includes(t)) : [];
      if (of.length && !segmented.has(t) && !of.some((w) => text.includes(w))) continue;
      const q = asked.get(t);
      if (q !== undefined) score += weight(q) * local(t);
    }
    return score;
  };
  // Whether the question names what it asks about, besides what it counts (not only 有哪几步？).
  const subject = [...terms].some((t) => !COUNTING.test(t) && !EN.ASKING.has(t) && !(t.length === 1 && HAN.test(t)));
  // A quarter of the question's heaviest term, in an entry that holds it on few of its lines.
  const enough = W.listEnough * Math.max(0, ...[...terms].map(weight));
  let best: (Enumeration & { key: number[] }) | undefined;
  read.forEach(({ entry, runs, local }, rank) => {
    const { named, inside } = subjectItem(question, runs);
    for (const run of runs) {
      // "What are the steps of the Inversion pattern?" asks inside one item of the list of patterns:
      // that list is not the answer, a run under the item it names is.
      if (named.has(run)) continue;
      const within = inside(run);
      // A run counted in what the question counts (哪几步 and 第一步…, "the steps" and Step 1…) lists
      // what it asks for, before any other run (the sections of the work, say).
      // So is one whose items are numbered by a word the question names (模式一… for 哪五种设计模式).
      // Either must stand where something names what the question asks about, when it names anything
      // (the steps of a report generator do not answer "What are the steps the planner takes?").
      const counted =
        ((counter !== undefined && run.counts === counter) ||
          (run.counts.length > 1 && (question.includes(run.counts) || asked.has(baseForm(run.counts))))) &&
        (!subject ||
          holds(
            [entry.title, run.section, run.leadIn ?? '', ...run.items.map((i) => i.line)].join('\n'),
            () => 1,
            COUNTING,
          ) > 0);
      // Otherwise what leads into it, or most of its items, must speak of what the question asks
      // about — by a term the entry does not hold all over (its topic is in every section of it).
      // Plain numbers (1. 2. 3.) order steps when steps are asked for: the steps of what the question
      // names, when the run's heading or lead-in or its entry's title holds a word of it.
      const stepped =
        steps &&
        !run.labelled &&
        !run.titled &&
        run.counts === '' &&
        holds([run.section, run.leadIn, entry.title].join('\n'), () => 1, asking) > 0;
      // Numbered steps under a heading or lead-in naming a process (基本流程, "Pipeline") answer a
      // question asking for steps, not one asking what there is (向量数据库有哪些索引 is not
      // answered by 建索引（离线）：1. 读取文档…).
      const procedure =
        !run.labelled && !run.titled && run.counts === '' && asks(`${run.section}\n${run.leadIn ?? ''}`, 'steps');
      if (!steps && procedure && !counted && !within) continue;
      const items = run.items.map((i) => holds(i.line, local, asking));
      // A list of labels is about what its own lead-in says (a heading far above it may name anything).
      const head = holds(`${run.labelled || run.titled ? '' : run.section}\n${run.leadIn ?? ''}`, local, asking);
      // So does a run of as many items as the question counts whose lead-in holds one of its words
      // (哪三类笔记 and 书中把笔记分成三类：, where 笔记 is on every line of the entry).
      const fits = count !== undefined && run.items.length === count && head > 0;
      const about =
        fits || head >= enough || (!run.titled && items.filter((x) => x >= enough).length * 2 >= items.length);
      if (!counted && !stepped && !about && !within) continue;
      let score = head + holds(run.items.map((i) => i.line).join('\n'), local);
      // Steps are those of what the question names: in the entry about it, the steps of its own process.
      if (stepped) score += holds(entry.title, () => 1);
      if (count !== undefined) score *= run.items.length === count ? W.listCountMatch : W.listCountMiss;
      score /= 1 + W.listRankDecay * rank;
      score *= 1 + W.listSaysBack * saysBack(`${run.section}\n${run.leadIn ?? ''}`);
      // Runs under the item the question names first (in the asker's language, the outermost of them),
      // then counted runs, then runs in the asker's language, then the best score.
      const lang = inChinese(run.items.map((i) => i.line).join('')) === chinese ? 1 : 0;
      const key = within ? [1, lang, 0, -run.items[0]!.at] : [0, counted ? 2 : stepped ? 1 : 0, lang, score];
      if (!best || before(best.key, key)) {
        best = { entry, leadIn: run.leadIn, items: run.items.map((i) => i.line), score, key };
        // The steps of a process often come as several lists under its heading, each led in by its
        // phase (建索引（离线）：1…4, 查询（在线）：1…4 under 基本流程): the steps asked for are all of them.
        const phases = stepped && run.leadIn && run.section ? runs.filter((r) => phaseOf(run, r)) : [];
        if (phases.length) best.more = phases.map((r) => ({ leadIn: r.leadIn, items: r.items.map((i) => i.line) }));
      }
    }
  });
  if (!best) return undefined;
  const { key: _key, ...found } = best;
  return found;
}

/** Another plainly numbered run led in under the same heading as `run`. */
function phaseOf(run: Run, other: Run): boolean {
  return (
    other !== run &&
    !other.labelled &&
    !other.titled &&
    other.counts === '' &&
    !!other.leadIn &&
    other.section === run.section
  );
}

/**
 * The runs of which the question names exactly one item (`Inversion` of `Pattern 4: Inversion`), and
 * a test for a run that stands under such an item (after it, before the run's next item).
 */
function subjectItem(question: string, runs: Run[]): { named: Set<Run>; inside: (r: Run) => boolean } {
  const q = ` ${question.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
  const named = new Map<Run, [number, number]>();
  for (const run of runs) {
    const hits = run.items
      .map((it, i) => ({ it, i, name: itemName(it.label) }))
      .filter(({ name }) => name.length >= 3 && (HAN.test(name) ? q.includes(name) : q.includes(` ${name} `)));
    if (hits.length !== 1) continue;
    const { it, i } = hits[0]!;
    named.set(run, [it.at, run.items[i + 1]?.at ?? Number.POSITIVE_INFINITY]);
  }
  const inside = (r: Run) =>
    !named.has(r) && [...named.values()].some(([from, to]) => r.items[0]!.at > from && r.items[0]!.at < to);
  return { named: new Set(named.keys()), inside };
}

/** An item's name: its label without an article, a gloss in parentheses or what follows a dash or colon. */
function itemName(label: string): string {
  return label
    .replace(/[(（][^)）]*[)）]/gu, ' ')
    .split(/\s[—–-]\s|[:：]/u)[0]!
    .toLowerCase()
    .replace(/^(?:the|a|an)\s+/, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * How rare a term is among the lines of an entry: 0 for a term on most of its lines (the entry's
 * topic), up to ~1 for a term on few.
 */
function localWeights(text: string): (term: string) => number {
  const lines = text.split('\n').filter((l) => l.trim());
  const df = new Map<string, number>();
  for (const l of lines) for (const t of new Set(searchTerms(l).map(baseForm))) df.set(t, (df.get(t) ?? 0) + 1);
  const n = Math.max(lines.length, 1);
  return (t) => Math.max(0, Math.log(n / (df.get(t) ?? 1)) / Math.log(n + 1));
}

/** Whether key a comes before key b: compared term by term. */
function before(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
}
