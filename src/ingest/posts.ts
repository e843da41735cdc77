import { cleanTitle } from '../entry/names.js';
import { detectLang } from '../text/script.js';
import type { RawDocument, RawPath } from '../types.js';

/** One work inside a file that holds several (a feed export, an RSS/Atom file, an mbox, several dated `# ` documents). */
export interface Post {
  title: string;
  markdown: string;
  date?: string;
  /** The feed item's guid or link, the message's id: kept in meta. */
  guid?: string;
  url?: string;
  author?: string;
  /** Lines of the document above the post's markdown (its chunks cite lines of the whole document). */
  line: number;
}

/** What feed and mail converters record of each `## ` section, in order, so that it can be split again. */
export interface PostMeta {
  title: string;
  date?: string;
  guid?: string;
  link?: string;
  author?: string;
}

const WEEKDAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
/** A line that is only a date: RFC 822 (feeds), ISO 8601, or 2026年3月24日. */
const DATE_LINE = new RegExp(
  [
    `${WEEKDAY}, \\d{1,2} ${MONTH} \\d{4}(?: \\d\\d:\\d\\d(?::\\d\\d)?(?: [+-]\\d{4}| GMT| UTC)?)?`,
    '\\d{4}-\\d{2}-\\d{2}(?:[ T]\\d\\d:\\d\\d(?::\\d\\d)?(?:\\.\\d+)?(?:Z|[+-]\\d\\d:?\\d\\d)?)?',
    '\\d{4}年\\d{1,2}月\\d{1,2}日',
  ]
    .map((s) => `(?:${s})`)
    .join('|'),
);
const ONLY_DATE = new RegExp(`^[*_\\s]*(?:${DATE_LINE.source})[*_\\s]*$`);
/** `Date: 2026-03-24`, `发布时间：2026年3月24日`, `*Published 2026-03-24*`. */
const LABELLED_DATE = new RegExp(
  `^[*_\\s>-]*(?:date|published|posted|updated|日期|发布时间|发布日期|發佈時間|时间)[*_\\s]*[:：]?[*_\\s]*(${DATE_LINE.source})`,
  'i',
);
const MAX_POST_TITLE = 160;

/** The raw file a document came from (a post's document is `file#anchor`). */
export function fileOf(doc: Pick<RawDocument, 'path' | 'post'>): RawPath {
  return doc.post?.file ?? doc.path;
}

/**
 * The works a document holds, each its own document `raw/path#anchor`, or the document alone.
 * Conservative: a text file splits only on a title line followed by a line that is only a date,
 * twice or more; Markdown only when every `# ` section opens with a date; feeds and mailboxes on
 * the items their converter recorded.
 */
export function splitPosts(doc: RawDocument): RawDocument[] {
  const posts = findPosts(doc);
  if (!posts || posts.length < 2) return [doc];
  const anchors = anchorsFor(posts);
  const { posts: _drop, ...meta } = doc.meta;
  return posts.map((p, i) => {
    const anchor = anchors[i]!;
    const out: RawDocument = {
      ...doc,
      path: `${doc.path}#${anchor}` as RawPath,
      title: cleanTitle(p.title) || doc.title,
      markdown: `${p.markdown.replace(/\s+$/, '')}\n`,
      meta: {
        ...meta,
        collection: doc.title,
        ...(p.date ? { published: p.date } : {}),
        ...(p.author ? { author: p.author } : {}),
        ...(p.guid ? { guid: p.guid } : {}),
      },
      lang: detectLang(p.markdown),
      post: { file: doc.path, anchor, index: i + 1, of: posts.length, line: p.line },
    };
    if (p.url) out.url = p.url;
    return out;
  });
}

function findPosts(doc: RawDocument): Post[] | undefined {
  if (doc.type === 'feed' || doc.type === 'mail') return recordedPosts(doc);
  if (doc.type === 'text') return textFeedPosts(doc.markdown);
  if (doc.type === 'markdown') return datedDocuments(doc.markdown);
  return undefined;
}

/** Feed items and mbox messages: the `## ` sections their converter wrote, with what it recorded. */
function recordedPosts(doc: RawDocument): Post[] | undefined {
  const recorded = doc.meta['posts'];
  if (!Array.isArray(recorded) || recorded.length < 2) return undefined;
  const sections = sectionsAt(doc.markdown.split('\n'), (l) => l.startsWith('## '));
  if (sections.length !== recorded.length) return undefined;
  return sections.map(({ lines, start }, i) => {
    const m = recorded[i] as PostMeta;
    return {
      title: m.title,
      markdown: lines.slice(1).join('\n'),
      line: start + 1,
      ...opt('date', m.date),
      ...opt('guid', m.guid),
      ...opt('url', m.link),
      ...opt('author', m.author),
    };
  });
}

/** A blog's text export: a feed name, then for each post a title line, a date line and the text. */
function textFeedPosts(text: string): Post[] | undefined {
  const lines = text.split('\n');
  const starts: { title: number; date: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!ONLY_DATE.test(lines[i]!.trim())) continue;
    let j = i - 1;
    while (j >= 0 && !lines[j]!.trim()) j--;
    if (j < 0 || i - j > 3) continue;
    const title = lines[j]!.trim();
    if (!title || [...title].length > MAX_POST_TITLE || ONLY_DATE.test(title)) continue;
    // A title line starts a block: the file's start or a blank line above it.
    if (j > 0 && lines[j - 1]!.trim()) continue;
    if (starts.length && j <= starts[starts.length - 1]!.date) continue;
    starts.push({ title: j, date: i });
  }
  if (starts.length < 2) return undefined;
  return starts.map((s, k) => {
    const end = starts[k + 1]?.title ?? lines.length;
    return {
      title: lines[s.title]!.trim(),
      date: isoDate(lines[s.date]!.trim()),
      markdown: lines.slice(s.date + 1, end).join('\n'),
      line: s.date + 1,
    };
  });
}

/** Several documents in one Markdown file: every `# ` section (two or more) opens with its own date. */
function datedDocuments(markdown: string): Post[] | undefined {
  const lines = markdown.split('\n');
  let fence = false;
  const isH1 = (l: string) => {
    if (/^\s{0,3}(```|~~~)/.test(l)) fence = !fence;
    return !fence && /^# \S/.test(l);
  };
  const firstH1 = lines.findIndex((l) => /^# \S/.test(l));
  if (firstH1 < 0 || lines.slice(0, firstH1).some((l) => l.trim())) return undefined;
  const sections = sectionsAt(lines, isH1);
  if (sections.length < 2) return undefined;
  const posts: Post[] = [];
  for (const { lines: sec, start } of sections) {
    const head = sec
      .slice(1)
      .map((l, i) => ({ l: l.trim(), i: i + 1 }))
      .filter((x) => x.l)
      .slice(0, 3);
    const dated = head.find((x) => ONLY_DATE.test(x.l) || LABELLED_DATE.test(x.l));
    if (!dated) return undefined;
    const found = DATE_LINE.exec(dated.l)![0];
    // The date line stays in the text, so that its lines are the file's lines.
    posts.push({
      title: sec[0]!
        .replace(/^#\s+/, '')
        .replace(/\s+#+\s*$/, '')
        .trim(),
      date: isoDate(found),
      markdown: sec.slice(1).join('\n'),
      line: start + 1,
    });
  }
  return posts;
}

/** Lines cut into sections, each starting at a line `isStart` accepts; what comes before the first is dropped. */
function sectionsAt(lines: string[], isStart: (l: string) => boolean): { lines: string[]; start: number }[] {
  const out: { lines: string[]; start: number }[] = [];
  lines.forEach((l, i) => {
    if (isStart(l)) out.push({ lines: [l], start: i });
    else out[out.length - 1]?.lines.push(l);
  });
  return out;
}

/**
 * Anchors from each post's own title (then its date), never from its position, so that a post keeps
 * its anchor — and its entry — when others are added, removed or reordered around it.
 */
export function anchorsFor(posts: readonly Pick<Post, 'title' | 'date' | 'guid'>[]): string[] {
  const count = new Map<string, number>();
  const base = posts.map((p) => anchorSlug(p.title));
  for (const b of base) count.set(b, (count.get(b) ?? 0) + 1);
  const used = new Set<string>();
  return posts.map((p, i) => {
    let a = base[i]!;
    if (count.get(a)! > 1 && p.date) a = `${a}-${anchorSlug(p.date)}`;
    let n = a;
    for (let k = 2; used.has(n); k++) n = `${a}-${k}`;
    used.add(n);
    return n;
  });
}

function anchorSlug(s: string): string {
  const slug = s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  const chars = Array.from(slug || 'post');
  return chars.slice(0, 60).join('').replace(/-+$/, '');
}

/** `Tue, 24 Mar 2026 00:00:00 +0000` / `2026年3月24日` → `2026-03-24`; otherwise as written. */
export function isoDate(s: string): string {
  const zh = /(\d{4})年(\d{1,2})月(\d{1,2})日/.exec(s);
  if (zh) return `${zh[1]}-${zh[2]!.padStart(2, '0')}-${zh[3]!.padStart(2, '0')}`;
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return s;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? s : d.toISOString().slice(0, 10);
}

function opt<K extends string>(key: K, v: string | undefined): { [P in K]?: string } {
  return (v ? { [key]: v } : {}) as { [P in K]?: string };
}
