import { isLinksLine } from '../text/layout.js';
import matter from 'gray-matter';
import yaml from 'js-yaml';
import { message, type KbMessage } from '../diagnostics/message.js';
import type { Converted } from './types.js';
import { withoutAttributes } from '../text/layout.js';

/**
 * YAML with the JSON schema only: dates stay strings, and no `!!js/function` tags. The JavaScript
 * engine is replaced because gray-matter would `eval` a `---js` block: text from sources is data.
 */
const ENGINES = {
  yaml: (s: string): object => yaml.load(s, { schema: yaml.JSON_SCHEMA }) as object,
  json: (s: string): object => JSON.parse(s) as object,
  javascript: (): object => {
    throw new Error('JavaScript frontmatter is not run by kb');
  },
};

/** `---` (optionally `---yaml`) on the first line, and a closing `---` line. */
const OPEN = /^---([A-Za-z]*)[ \t]*\n/;
const CLOSE = /\n---[ \t]*(?:\n|$)/;

export function convertMarkdown(
  text: string,
  file: string,
  fallbackTitle: string,
): { converted: Converted; messages: KbMessage[] } {
  const messages: KbMessage[] = [];
  let meta: Record<string, unknown> = {};
  let body = text;

  const open = OPEN.exec(text);
  const close = open ? CLOSE.exec(text.slice(open[0].length - 1)) : null;
  if (open && close) {
    const afterBlock = text.slice(open[0].length - 1 + close.index + close[0].length);
    try {
      const parsed = matter(text, { engines: ENGINES });
      if (isPlainObject(parsed.data)) {
        meta = toJsonSafe(parsed.data) as Record<string, unknown>;
        body = parsed.content;
      } else {
        body = afterBlock;
        messages.push(
          message(
            file,
            'ingest-frontmatter',
            `Unexpected frontmatter of type ${typeName(parsed.data)}, expected a YAML mapping (\`key: value\` lines)`,
            {
              place: { line: 1, column: 1 },
              note: 'kb reads the body and ignores the frontmatter',
            },
          ),
        );
      }
    } catch (err) {
      body = afterBlock;
      messages.push(frontmatterError(file, err));
    }
  }

  if (!open || !close) {
    const header = metadataHeader(text);
    if (header) {
      meta = header.meta;
      body = header.body;
    }
  }

  const converted: Converted = {
    title: metaTitle(meta) ?? firstHeading(body) ?? fallbackTitle,
    markdown: body,
    meta,
  };
  const url = metaUrl(meta);
  if (url) converted.url = url;
  return { converted, messages };
}

/** A MultiMarkdown / Pelican metadata line: `Title: …`, `Date: …`, `Tags: …`. */
const META_LINE = /^([A-Za-z][A-Za-z_-]{0,24})[ \t]*:[ \t]+(\S.*)$/;
/** Keys such a header holds: a title and another of them, so prose that opens with `Note: …` is no header. */
const META_KEYS = new Set(['title', 'date', 'author', 'authors', 'tags', 'category', 'slug', 'summary', 'modified']);

/**
 * The metadata block a MultiMarkdown or Pelican text opens with instead of YAML frontmatter: two or
 * more `Key: value` lines from the first line to a blank line, one of them a title. Keys lowercased.
 */
export function metadataHeader(text: string): { meta: Record<string, unknown>; body: string } | undefined {
  const end = text.search(/\n[ \t]*(?:\n|$)/);
  if (end < 0 || end > 4000) return undefined;
  const lines = text.slice(0, end).split('\n');
  if (lines.length < 2) return undefined;
  const meta: Record<string, unknown> = {};
  for (const line of lines) {
    const m = META_LINE.exec(line.replace(/\r$/, ''));
    if (!m) return undefined;
    meta[m[1]!.toLowerCase()] = m[2]!.trim();
  }
  if (typeof meta['title'] !== 'string' || Object.keys(meta).filter((k) => META_KEYS.has(k)).length < 2)
    return undefined;
  return { meta, body: text.slice(end).replace(/^\s*\n/, '') };
}

function frontmatterError(file: string, err: unknown): KbMessage {
  const e = err as { reason?: unknown; mark?: { line?: unknown; column?: unknown }; message?: unknown };
  const reason = typeof e.reason === 'string' ? e.reason : typeof e.message === 'string' ? e.message : String(err);
  const line = typeof e.mark?.line === 'number' ? e.mark.line + 1 : 1;
  const column = typeof e.mark?.column === 'number' ? e.mark.column + 1 : 1;
  return message(
    file,
    'ingest-frontmatter',
    `Unexpected broken frontmatter (${reason}), expected valid YAML between \`---\` lines`,
    {
      place: { line, column },
      note: 'kb reads the body and ignores the frontmatter; fix the YAML to keep its fields',
    },
  );
}

function metaTitle(meta: Record<string, unknown>): string | undefined {
  const t = meta.title;
  if (typeof t === 'string' && t.trim()) return t.trim();
  if (typeof t === 'number') return String(t);
  return undefined;
}

function metaUrl(meta: Record<string, unknown>): string | undefined {
  for (const key of ['source', 'url', 'link', 'canonical', 'source_url']) {
    const v = meta[key];
    if (typeof v === 'string' && /^https?:\/\/\S+$/i.test(v.trim())) return v.trim();
  }
  return undefined;
}

/**
 * Text of the first level-1 heading (ATX `# x` or setext `x\n===`) outside code fences; in a text
 * with none that opens with a heading of another level (`## Title`), of that heading.
 */
export function firstHeading(markdown: string, opts: { levelOne?: boolean } = {}): string | undefined {
  const lines = markdown.split('\n', 2000);
  let fence: string | undefined;
  let other: string | undefined;
  // A level-one heading with a section number: the text's title unless another one follows it.
  let numbered: string | undefined;
  let opened = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    // A line of links alone (a language switch, badges) is the page's navigation: the text has not begun.
    const first = !opened && /\S/.test(line) && !isLinksLine(line);
    if (first) opened = true;
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      const marks = f[1] as string;
      if (!fence) fence = marks;
      else if (marks[0] === fence[0] && marks.length >= fence.length && line.trim() === marks) fence = undefined;
      continue;
    }
    if (fence) continue;
    const atx = /^ {0,3}(#{1,6})[ \t]+(\S.*)$/.exec(line);
    const next = lines[i + 1] ?? '';
    const setext = !atx && /^ {0,3}(?:=+|-{2,})[ \t]*$/.test(next) && /\S/.test(line) && !/^ {0,3}[-*>#|]/.test(line);
    const raw = atx ? withoutClosingHashes(atx[2] as string) : setext ? line : undefined;
    if (!raw) continue;
    const title = plainInline(withoutAttributes(raw));
    if (!title) continue;
    const levelOne = (atx && atx[1] === '#') || (setext && next.trim().startsWith('='));
    if (numbered !== undefined) {
      // "# 一、基础" … "# 二、创建表": level one numbers the text's sections; none of them names the text.
      if (atx && levelOne && SECTION_NUMBER.test(title)) return undefined;
      continue;
    }
    if (levelOne) {
      if (!SECTION_NUMBER.test(title)) return title;
      numbered = title;
      continue;
    }
    if (first) other = title;
  }
  return numbered ?? (opts.levelOne ? undefined : other);
}

/** A heading's section number: 一、 二、, 1. 2., 第一章, Chapter 1. */
const SECTION_NUMBER =
  /^(?:[一二三四五六七八九十百]+[、.．]|\d+(?:\.\d+)*[.、)．]\s*\S|第[一二三四五六七八九十百\d]+[章节篇部课讲]|(?:chapter|part|section)\s+\d+)/i;

/**
 * An ATX heading's text without its closing sequence (`# Title ##` → `Title`; `# C#` keeps its #).
 * By hand: a pattern with a lazy text and optional trailing runs is quadratic on a long line of spaces.
 */
export function withoutClosingHashes(text: string): string {
  let t = text.trimEnd();
  let k = t.length;
  while (k > 0 && t[k - 1] === '#') k--;
  if (k < t.length && (k === 0 || t[k - 1] === ' ' || t[k - 1] === '\t')) t = t.slice(0, k).trimEnd();
  return t;
}

/** Inline Markdown to plain text, enough for a title: links, images, code spans, emphasis. */
export function plainInline(s: string): string {
  const linked = s
    .replace(/!?\[\[([^[\]|]+)\|([^[\]]+)\]\]/g, '$2')
    .replace(/!?\[\[([^[\]]+)\]\]/g, '$1')
    .replace(/!?\[([^[\]]*)\]\((?:[^()\n]|\([^()\n]*\))*\)/g, '$1');
  // Code is kept as written: its underscores and stars are no emphasis (`__init__`, `**kwargs`).
  return linked
    .split(/(`[^`]+`)/)
    .map((part, i) =>
      i % 2
        ? part.slice(1, -1)
        : part.replace(/(\*\*|__)(.+?)\1/g, '$2').replace(/(^|[^\w*])[*_]([^*_\s][^*_]*?)[*_](?=[^\w*]|$)/g, '$1$2'),
    )
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function typeName(v: unknown): string {
  if (Array.isArray(v)) return 'list';
  if (v === null) return 'null';
  return typeof v;
}

/**
 * A copy with only JSON values. YAML aliases can make a small text into a huge tree (each alias
 * is a shared reference), so the copy stops after `budget` values.
 */
export function toJsonSafe(value: unknown, budget = { left: 10_000 }): unknown {
  if (--budget.left < 0) return null;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Array.isArray(value)) return value.map((v) => toJsonSafe(v, budget));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === '__proto__' || v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      out[k] = toJsonSafe(v, budget);
    }
    return out;
  }
  return null;
}
