import { mendQuotes } from '../../text/quotes.js';
import { HAN } from '../../text/script.js';
import { isLinksLine } from '../../text/layout.js';
import { sentences } from '../../text/segment.js';
import { cutZh } from '../../text/jieba.js';
import { stripMarkdown } from './entities.js';
import { openCode, sealCode, sealNamedTags } from '../../text/code-spans.js';
import { anyOf } from '../../text/lang/words.js';
import * as EN from '../../text/lang/en.js';
import * as ZH from '../../text/lang/zh.js';

export interface Extract {
  summary: string;
  keyPoints: string[];
}

const WORDLIKE = /[\p{L}\p{N}]/u;

function contentTerms(sentence: string): string[] {
  const lower = sentence.toLowerCase();
  // Han text is cut by jieba (three times as fast as ICU's dictionary here); Latin words split on their own.
  const ws = HAN.test(lower) ? cutZh(lower).filter((w) => WORDLIKE.test(w)) : (lower.match(/[\p{L}\p{N}_'-]+/gu) ?? []);
  return ws.filter((w) => (HAN.test(w) ? !ZH.STOP.has(w) : w.length > 2 && !EN.STOP.has(w)));
}

/** How a sentence that states something ends (a line without it is a heading or a label in plain text). */
const STATEMENT_END = /[.!?。！？;；:：…"'”’」』]$/u;
/** A line that dates the work (`发布时间：2026年3月24日`, `Published: 2026-03-24`). */
const DATE_LINE = /(发布日期|发布时间|發佈日期|發佈時間|published|posted on|date)\s*[:：]\s*\S{0,4}\s*\d{4}/iu;
/** A header line: `作者：…`, `Source: …`, `原文链接：…` — who and where, not what the work says. */
const LABEL_LINE = /^[^\s:：]{1,12}(?:\s[^\s:：]{1,12}){0,2}\s*[:：]/u;
/** Sentences that open by leaning on the one before do not read alone. */
const LEANS_BACK = new RegExp(`^(?:${anyOf(ZH.CONNECTIVES)})|^(?:${anyOf(EN.CONNECTIVES)})\\b`, 'u');
/**
 * A sentence whose subject points back (该应用程序, 它, "This", "They"), also behind a leading
 * 因为/because clause: it reads only after the sentence it points to. The work itself (这篇文章,
 * 本文, this article) is no pointer.
 */
const POINTS_BACK =
  /^(?:(?:因为|由于|Because|Since)[^，。,.]{0,40}[，,]\s*)?(?:该(?!文)|此(?!文)|这(?!篇|本|份)|那(?!时)|它们?|其(?!实|他|中|次)|他们|她们|(?:This|These|Those|That|It|They|He|She)\b(?! (?:post|article|paper|essay|guide)\b))/u;

/** A sentence that sets the scene of a story ("2026年的某一天，…", "One day, …") is not what the work argues. */
const SCENE =
  /^(\d{4}\s*年的?某一?天|某一?天|有一天|那天|那时候?|当时|去年|前几天|One day|Last (week|month|year)|A few (days|weeks|months|years) ago|Years ago)/iu;
/** The end of a clause that points ahead to a list (en.POINTS_AHEAD, zh.POINTS_AHEAD). */
const POINTS_AHEAD = new RegExp(`(?:${anyOf([...EN.POINTS_AHEAD, ...ZH.POINTS_AHEAD])})$`, 'iu');
/** Words with which a work says what it is about. */
const THESIS_CUE =
  /本文|这篇文章|文章(介绍|讨论|探讨|分析)|核心(思想|创新|观点)|关键是|提出了|介绍了|探讨了|this (post|article|paper|essay|guide)|we (show|present|describe|argue|propose|explain)|the key (idea|insight)|is about|in this (post|article)/iu;

/**
 * A line that is a paragraph of its own (after a line with no word: a blank, an emoji), not an item
 * of a list: a link roundup's list of links is what the work says.
 */
function opensBlock(line: string, prev: string | undefined): boolean {
  return !/^\s*(?:[-*+]|\d+[.)])\s/.test(line) && !/[\p{L}\p{N}]/u.test(prev ?? '');
}

export function leans(s: string): boolean {
  return LEANS_BACK.test(s) || POINTS_BACK.test(s);
}

function usable(s: string, title: string): boolean {
  const han = HAN.test(s);
  const len = han ? Array.from(s).length : s.split(/\s+/).length;
  if (han ? len < 8 : len < 5) return false;
  if (/^[-=*_#|>\s]+$/.test(s)) return false;
  if (/^(https?:|www\.)/.test(s)) return false;
  if (/^\s*[;|]/.test(s)) return false;
  if (title && s.replace(/^#+\s*/, '') === title) return false;
  // A Latin line that starts in lower case continues one cut above it (a list, a formula).
  if (!han && /^[a-z]/.test(s)) return false;
  // A log line that opens with a date and ends without a stop is a heading of plain text.
  if (/^\d{4}-\d{2}-\d{2}\b/.test(s) && !/[.!?。！？]$/u.test(s)) return false;
  if (LABEL_LINE.test(s) && (Array.from(s).length < 80 || /https?:\/\//.test(s))) return false;
  if (DATE_LINE.test(s) && Array.from(s).length < 100) return false;
  // A line that does not end like a statement and is short is a heading of plain text.
  return STATEMENT_END.test(s) || (han ? len >= 40 : len >= 14);
}

/**
 * Extractive summary: sentences scored by how many of the document's frequent content terms they
 * carry (a cheap centrality), with a bonus for coming early; the best ones in document order.
 */
export function extractSummary(
  markdown: string,
  opts: { maxChars?: number; keyPoints?: number; title?: string } = {},
): Extract {
  // Headings name sections; they are not sentences of the summary, nor are the rows of a
  // tab-separated table (cells run together read as no sentence).
  // A hard-wrapped line runs on into the next one (which goes on in lower case).
  // Nor is a line of links alone (a language switch, badges): the page's navigation.
  const prose = markdown
    .replace(/^\s{0,3}#{1,6}\s.*$/gm, '')
    .replace(/^.*\S\t+\S.*$/gm, '')
    .split('\n')
    .map((line, i, lines) => (line.includes('](') && isLinksLine(line) && opensBlock(line, lines[i - 1]) ? '' : line))
    .join('\n');
  const text = stripMarkdown(sealNamedTags(sealCode(joinWrapped(prose)))).replace(
    /([^\s.!?:;。！？])[ \t]*\n(?=[a-z])/g,
    '$1 ',
  );
  const title = (opts.title ?? '').trim();
  // Each usable sentence with where it stands among all of them (what comes right after it in the text).
  const all = mendQuotes(sentences(text));
  const seen = new Set<string>();
  const at: number[] = [];
  const sents: string[] = [];
  all.forEach((s, k) => {
    if (seen.has(s) || !usable(s, title)) return;
    seen.add(s);
    sents.push(s);
    at.push(k);
  });
  if (sents.length === 0) {
    const fallback = text.replace(/\s+/g, ' ').trim().slice(0, 300);
    return { summary: openCode(fallback), keyPoints: [] };
  }
  const tf = new Map<string, number>();
  const terms = sents.map((s) => contentTerms(s));
  for (const ts of terms) for (const t of new Set(ts)) tf.set(t, (tf.get(t) ?? 0) + 1);
  const scored = sents.map((s, i) => {
    const ts = new Set(terms[i]);
    let score = 0;
    for (const t of ts) score += Math.log(1 + (tf.get(t) ?? 0));
    score /= Math.sqrt(ts.size + 4);
    score *= 1 + 0.6 / (1 + i * 0.5); // early sentences state the topic
    if (s.length > 500) score *= 0.5;
    if (THESIS_CUE.test(s)) score *= 1.6;
    if (leans(s) || /[?？]$/.test(s)) score *= 0.4;
    if (SCENE.test(s)) score *= 0.5;
    if (/[:：]$/.test(s) && !THESIS_CUE.test(s)) score *= 0.3; // it introduces a list that is not in the summary
    return { s, i, score };
  });
  const ranked = [...scored].sort((a, b) => b.score - a.score);
  const zh = HAN.test(text.slice(0, 2000));
  const maxChars = opts.maxChars ?? (zh ? 200 : 450);
  const picked: typeof scored = [];
  let chars = 0;
  // An early sentence that stands alone opens the summary: it usually says what the document is.
  // A work that opens with a scene (2026年的某一天…) tells a story first: its lead is then the best
  // sentence that speaks of what the title names, wherever it stands.
  const standsAlone = (x: { s: string }) => !leans(x.s) && !SCENE.test(x.s) && !/[?？:：]$/.test(x.s);
  const titleTerms = new Set(contentTerms(title));
  const story = all.slice(0, 4).some((s) => SCENE.test(s));
  const lead =
    scored.slice(0, 6).find((x) => THESIS_CUE.test(x.s) && !leans(x.s)) ??
    (story ? ranked.find((x) => standsAlone(x) && contentTerms(x.s).some((t) => titleTerms.has(t))) : undefined) ??
    scored.slice(0, 6).find(standsAlone) ??
    scored[0]!;
  picked.push(lead);
  chars += lead.s.length;
  for (const r of ranked) {
    if (picked.length >= 3) break;
    if (picked.includes(r)) continue;
    if (chars + r.s.length > maxChars) continue;
    // A sentence that leans on the one before reads only right after it.
    if (leans(r.s) && !picked.some((p) => p.i === r.i - 1)) continue;
    picked.push(r);
    chars += r.s.length;
  }
  // The lead stays first; the rest follow in the document's order.
  const rest = picked.slice(1).sort((a, b) => a.i - b.i);
  picked.splice(0, picked.length, lead, ...rest);
  // A sentence that opens a list ("…covers each one:") ends where it is, unless what follows is next to it.
  const said = picked.map((p, k) => {
    const next = picked[k + 1];
    return next && at[next.i] === at[p.i]! + 1 ? p.s : closeColon(p.s);
  });
  const summary = openCode(clip(joinSentences(said), maxChars * 1.5));
  const keyPoints = ranked
    .filter((r) => !picked.includes(r))
    .slice(0, opts.keyPoints ?? 5)
    .sort((a, b) => a.i - b.i)
    .map((r) => openCode(clip(r.s, 300)));
  return { summary, keyPoints };
}

/**
 * A hard-wrapped Latin line runs on into the next one when it cannot end there: it ends with a
 * comma, a dash or a function word ("Introduced by" / "Cormack, Clarke and…"). A list item, a
 * quote, a table row or indented code on the next line starts a block of its own.
 */
function joinWrapped(md: string): string {
  const lines = md.split('\n');
  let out = lines[0] ?? '';
  for (let k = 1; k < lines.length; k++) {
    const line = lines[k]!;
    // Only the end of the line above is looked at: linear on a line of any length.
    const end = /(?:^|[^A-Za-z'])([A-Za-z][A-Za-z']{0,15}|[,—–])[ \t]*$/.exec(lines[k - 1]!.slice(-24))?.[1];
    const wraps =
      end !== undefined &&
      (/^[,—–]$/.test(end) || EN.STOP.has(end.toLowerCase())) &&
      /^[ \t]*[A-Za-z0-9(“"]/.test(line) &&
      !/^[ \t]*(?:[-*+>|#]\s|\d+[.)]\s)|^\s{4}/.test(line);
    out += wraps ? ` ${line.trimStart()}` : `\n${line}`;
  }
  return out;
}

/**
 * A sentence that introduces what follows ("其核心创新在于：", "This article covers each one:")
 * standing alone: its last clause goes when it only points ahead ("其核心创新在于"), else the colon
 * becomes a full stop.
 */
function closeColon(s: string): string {
  if (!/[:：]$/.test(s)) return s;
  const han = HAN.test(s);
  const body = s.slice(0, -1).trimEnd();
  const comma = Math.max(body.lastIndexOf('，'), body.lastIndexOf(', '));
  const tail = comma >= 0 ? body.slice(comma + 1).trim() : '';
  if (comma > 0 && POINTS_AHEAD.test(tail)) return `${body.slice(0, comma)}${han ? '。' : '.'}`;
  return `${body}${han ? '。' : '.'}`;
}

/** Sentences run together as written: Chinese without a space, Latin with one; never glued without an end mark. */
function joinSentences(list: string[]): string {
  let out = '';
  for (const s of list) {
    if (!out) out = s;
    else if (/[。！？；：]$|[。！？][”」』）]$/u.test(out)) out += s;
    else if (/[\p{Script=Han}”」』）]$/u.test(out) && /^[\p{Script=Han}“「（《]/u.test(s)) out += `。${s}`;
    else out += /[.!?。！？;；:：…"'”’」』)）]$/u.test(out) ? ` ${s}` : `. ${s}`;
  }
  return out;
}

export function clip(s: string, max: number): string {
  const chars = Array.from(s);
  return chars.length > max
    ? `${chars
        .slice(0, Math.floor(max) - 1)
        .join('')
        .trimEnd()}…`
    : s;
}
