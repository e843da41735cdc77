import { WEIGHTS } from './weights.js';
import { HAN } from '../../text/script.js';
import { foldText } from '../../text/fold.js';
import { isCodeLine } from './en-terms.js';
import { isHeadingLine } from '../../text/layout.js';
import { isCommonCompound, isCommonZh, tokenizeZh } from './zh-terms.js';
import * as ZH from '../../text/lang/zh.js';

/** A name a document stresses by the way it is laid out, not by how often it is written. */
export interface StressedName {
  name: string;
  /** Mentions the layout stands for (a section on it, fields of it discussed). */
  weight: number;
  /** Sentences about it when none names it. */
  context: string[];
}

const HEADING_NOUN = new Set(['n', 'nz', 'l', 'j']);
const NOUN_PART = new Set(['n', 'nz', 'nt', 'ns', 'l', 'j', 'vn', 'an']);
const HAN_RUN = /^[\u3400-\u9fff]+$/;

/** The text without its headings, Markdown's and plain text's: what a document says is in its sentences. */
export function withoutHeadings(markdown: string): string {
  const lines = markdown.split('\n');
  const trimmed = lines.map((l) => l.trim());
  return lines.map((l, i) => (trimmed[i] && isHeadingLine(trimmed, i) ? '' : l)).join('\n');
}

/**
 * The term a Chinese heading ends in, after its topic ("数据流架构：从 raw/ 到 wiki/ 的编译管线",
 * "技术增强：… - XML 标签隔离法"): two to four words ending in a noun, not an everyday compound
 * (性能优化) nor a stop word (导入数据). Its section, when it runs on, is an account of it: that is as
 * good as three mentions, which a term in a heading often has not (编译管线 is named there only).
 */
export function headingTerms(markdown: string): StressedName[] {
  const lines = markdown.split('\n').map((l) => l.trim());
  const heads = lines.map((_l, i) => i).filter((i) => lines[i] && isHeadingLine(lines, i));
  const out: StressedName[] = [];
  heads.forEach((at, h) => {
    const body = lines.slice(at + 1, heads[h + 1] ?? lines.length);
    if (body.join('').length < WEIGHTS.MIN_SECTION) return;
    // "主题：术语": a term after the heading's topic; a bare heading (迭代框架) is a step of the story.
    const parts = lines[at]!.replace(/^#+\s*/, '').split(/[：:]|\s[-–—]\s|的/);
    if (parts.length < 2) return;
    const tail = parts.pop()!.trim();
    const term = headingTerm(tail);
    if (!term) return;
    const prose = body.filter((l) => HAN.test(l) && /[。！？]$/.test(l) && !isCodeLine(l));
    out.push({ name: term, weight: 2, context: prose.slice(0, 2) });
  });
  return out;
}

function headingTerm(tail: string): string | undefined {
  if (!HAN.test(tail) || /[\p{P}\p{S}]/u.test(tail.replace(/[-]/g, ''))) return undefined;
  const tokens = tokenizeZh(tail).filter((t) => t.word.trim());
  if (tokens.length < 2 || tokens.length > 4) return undefined;
  const last = tokens[tokens.length - 1]!;
  const han = (tail.match(/[\u3400-\u9fff]/g) ?? []).length;
  if (!HEADING_NOUN.has(last.tag) || ZH.STOP.has(foldText(last.word)) || han < 3) return undefined;
  // Nouns and names; a verb only before a single noun (编译/管线), never as a clause (移除/冲刺/结构).
  const nounish = (t: { tag: string; word: string }) =>
    t.tag === 'eng' || (NOUN_PART.has(t.tag) && HAN_RUN.test(t.word));
  const verbFirst = tokens.length === 2 && tokens[0]!.tag === 'v' && HAN_RUN.test(tokens[0]!.word);
  if (!tokens.every((t, i) => nounish(t) || (i === 0 && verbFirst))) return undefined;
  const plain = tail.replace(/\s+/g, '');
  if (isCommonCompound(plain) || isCommonZh(plain)) return undefined;
  return tail;
}

// Blanks within a line only ([ \t], never \s): `^\s*` would run over every following empty line.
const TYPE_DEF =
  /^[ \t]*(?:export[ \t]+)?(?:interface|class|struct|type|record)[ \t]+([A-Z][A-Za-z0-9]{2,40})\b[^\n]*?(?:\{|=)[ \t]*$/;
/** Types looked at in one document: a file of hundreds is a code listing, not a text. */
const MAX_TYPES = 20;
const FIELD = /^\s*([a-z][A-Za-z0-9]*(?:_[a-z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]+)+)\??\s*:/;

/**
 * A data type the text defines in code and then discusses in its prose by its fields (`interface
 * WikiEntry { … source_ref … }` and "通过 source_ref 回到原始资料"): a schema the text explains, though
 * its own name is written once. Only fields that are identifiers (snake_case, camelCase) count: "id"
 * or "title" in the prose says nothing. Two fields discussed make it stressed.
 */
export function definedTypes(markdown: string): StressedName[] {
  const lines = markdown.split('\n');
  const out: StressedName[] = [];
  const defs: [number, string][] = [];
  lines.forEach((l, i) => {
    const name = defs.length < MAX_TYPES && l.length < 200 ? TYPE_DEF.exec(l)?.[1] : undefined;
    if (name) defs.push([i + 1, name]);
  });
  if (!defs.length) return out;
  const prose = lines.filter((l) => !isCodeLine(l) && !FIELD.test(l));
  for (const [from, name] of defs) {
    const fields: string[] = [];
    for (const l of lines.slice(from, from + 60)) {
      if (/^\s*[}\]]/.test(l)) break;
      const f = FIELD.exec(l)?.[1];
      if (f) fields.push(f);
    }
    if (fields.length < 2) continue;
    const named = new RegExp(`(?<!\\w)(?:${fields.slice(0, 30).join('|')})(?!\\w)`);
    const said = prose.filter((l) => named.test(l));
    const discussed = fields.filter((f) => said.some((l) => l.includes(f)));
    if (discussed.length < 2) continue;
    // The line that introduces the definition ("编译条目的标准 Schema 定义：") says what it is.
    const intro = lines
      .slice(Math.max(0, from - 30), from - 1)
      .reverse()
      .find((l) => /[\u3400-\u9fff]{2}|[A-Za-z]{3,}\s+[A-Za-z]{3,}/.test(l) && !isCodeLine(l));
    const context = [...(intro ? [intro] : []), ...said].map((l) => l.replace(/`/g, '').trim());
    out.push({ name, weight: discussed.length, context: context.slice(0, 3) });
  }
  return out;
}
