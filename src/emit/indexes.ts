import { appendFileSync, closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeChunksAtomicIfChanged, writeFileAtomic } from '../util/atomic.js';
import { linkMarkup } from '../entry/links.js';
import { fileBaseName } from '../entry/names.js';
import { indexTopics } from './topics.js';
import { byCodePoint } from '../util/order.js';

export interface IndexItem {
  id: string;
  kind: string;
  title: string;
  path: string;
  summary: string;
  source_ref: string[];
  links: string[];
}

const HEADINGS: Record<string, string> = { source: 'Sources', concept: 'Concepts', answer: 'Answers' };

function firstSentence(s: string): string {
  const m = /^(.{20,220}?[.!?。！？])(\s|$)/u.exec(s);
  const one = (m?.[1] ?? s).replace(/\s+/g, ' ').trim();
  return Array.from(one).length > 220 ? `${Array.from(one).slice(0, 219).join('')}…` : one;
}

function writeIfChanged(path: string, text: string): void {
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return;
  writeFileAtomic(path, text);
}

/** wiki/index.md (the vault's home page: concepts by topic, then one line per source and answer) and wiki/index.json. */
export function writeIndexes(wikiDir: string, items: IndexItem[]): void {
  // Two entries of one title by id: the files must not hang on the order this run met them in.
  const sorted = [...items].sort(
    (a, b) => a.kind.localeCompare(b.kind) || a.title.localeCompare(b.title) || byCodePoint(a.id, b.id),
  );
  const lines = [
    '# Index',
    '',
    `${items.length} entries, compiled by kb from \`raw/\`. Concepts are ideas that several sources share; answers were filed back by \`kb ask --save\`.`,
    '',
  ];
  const byId = new Map(items.map((i) => [i.id, i]));
  const line = (i: IndexItem) =>
    `- ${linkMarkup(fileBaseName(i.path), i.title)} — ${firstSentence(i.summary).replace(/\[\[|\]\]/g, '')}`;
  for (const kind of ['concept', 'source', 'answer']) {
    const group = sorted.filter((i) => i.kind === kind);
    if (!group.length) continue;
    lines.push(`## ${HEADINGS[kind]} (${group.length})`, '');
    if (kind === 'concept') {
      lines.push(...topicLines(indexTopics(items), byId, line));
      continue;
    }
    for (const i of group) lines.push(line(i));
    lines.push('');
  }
  writeIfChanged(join(wikiDir, 'index.md'), `${lines.join('\n').trimEnd()}\n`);
  writeChunksAtomicIfChanged(join(wikiDir, 'index.json'), jsonChunks(sorted));
}

/**
 * index.json as `JSON.stringify(list, null, 2)` writes it, an entry at a time: at 10,000 entries the
 * whole text is tens of megabytes, and the file it replaces as much again.
 */
function* jsonChunks(sorted: readonly IndexItem[]): Generator<string> {
  if (!sorted.length) {
    yield '[]\n';
    return;
  }
  yield '[\n';
  for (const [n, i] of sorted.entries()) {
    const one = JSON.stringify(
      {
        id: i.id,
        title: i.title,
        kind: i.kind,
        path: i.path,
        summary: i.summary,
        source_ref: i.source_ref,
        links: [...i.links].sort(),
      },
      null,
      2,
    );
    // An entry one level into the list: each of its lines indented once more (strings hold no newline).
    yield `${n ? ',\n' : ''}  ${one.replaceAll('\n', '\n  ')}`;
  }
  yield '\n]\n';
}

/** The concepts by topic (topics.ts): a heading per topic, its concepts with their glosses, the sources that feed it. */
function topicLines(
  { topics, rest }: ReturnType<typeof indexTopics>,
  byId: Map<string, IndexItem>,
  line: (i: IndexItem) => string,
): string[] {
  const out: string[] = [];
  const link = (id: string) => {
    const i = byId.get(id)!;
    return linkMarkup(fileBaseName(i.path), i.title);
  };
  for (const t of topics) {
    const n = t.sources.length;
    const k = t.concepts.length;
    out.push(
      `### ${byId.get(t.head)!.title} (${k} concept${k === 1 ? '' : 's'}, ${n} source${n === 1 ? '' : 's'})`,
      '',
    );
    for (const c of t.concepts) out.push(line(byId.get(c)!));
    if (n) out.push(`- Sources: ${t.sources.map(link).join(' · ')}`);
    out.push('');
  }
  if (rest.length) {
    if (topics.length) out.push('### Other concepts', '');
    for (const c of rest) out.push(line(byId.get(c)!));
    out.push('');
  }
  return out;
}

const LOG_HEAD = '# Log\n\nWhat kb did to this wiki, newest last.\n\n';

/** Generated files of a compiled wiki that are missing (a person or a tool deleted them). */
export function missingIndexes(wikiDir: string): string[] {
  return ['index.md', 'index.json'].filter(
    (f) => !existsSync(join(wikiDir, f)) || (f === 'index.json' && !wholeJson(join(wikiDir, f))),
  );
}

/**
 * index.json is parsed whole below this size; above it, read by its first and last characters (a
 * cut file ends early): a no-op compile of 10,000 entries must not spend 0.1 s parsing it.
 */
const JSON_PARSE_BYTES = 256 * 1024;

/** The first and last non-blank characters of a large file are `[` and `]`, read without reading the rest. */
function edgesOfList(path: string, size: number): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(64);
    const tail = Buffer.alloc(64);
    readSync(fd, head, 0, 64, 0);
    readSync(fd, tail, 0, 64, Math.max(0, size - 64));
    return /^\s*\[/.test(head.toString('utf8')) && /\]\s*$/.test(tail.toString('utf8'));
  } finally {
    closeSync(fd);
  }
}

/** Whether index.json is whole: JSON that parses (a large one: that opens and closes a list). */
function wholeJson(path: string): boolean {
  try {
    const size = statSync(path).size;
    if (size > JSON_PARSE_BYTES) return edgesOfList(path, size);
    const text = readFileSync(path, 'utf8');
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Start wiki/log.md again if it is gone; true when it was. */
export function restoreLog(wikiDir: string): boolean {
  const path = join(wikiDir, 'log.md');
  if (existsSync(path)) return false;
  writeFileAtomic(path, `${LOG_HEAD}## [${stampNow()}] compile | log.md was missing; started again\n\n`);
  return true;
}

function stampNow(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Append a line to wiki/log.md: `## [YYYY-MM-DD HH:MM] compile | 3 new, 1 updated`. */
export function appendLog(wikiDir: string, command: string, summary: string, details: string[] = []): void {
  const path = join(wikiDir, 'log.md');
  const stamp = stampNow();
  const head = existsSync(path) ? '' : LOG_HEAD;
  const body = details.length ? `\n${details.map((l) => `- ${l}`).join('\n')}\n` : '';
  appendFileSync(path, `${head}## [${stamp}] ${command} | ${summary}\n${body}\n`);
}
