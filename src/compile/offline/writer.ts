import type { KbMessage } from '../../diagnostics/message.js';
import type { RawDocument } from '../../types.js';
import type { Catalog, ConceptDraft, ConceptGroup, EntryWriter, SourceDraft } from '../types.js';
import { extractEntities, type FoundEntity } from './entities.js';
import { snippetHeading } from '../types.js';
import { clip, extractSummary, leans } from './summary.js';
import { PLACE_HEADING, readsText } from '../../ingest/detect.js';
import { withoutClosingHashes } from '../../ingest/markdown.js';
import { withoutAttributes } from '../../text/layout.js';
import * as EN from '../../text/lang/en.js';
import * as ZH from '../../text/lang/zh.js';
import { anyOf } from '../../text/lang/words.js';
import { genusSentence } from '../../text/genus.js';

/**
 * The offline compiler's name, stored with every document it compiled. Bump it when what it
 * extracts or writes changes: compile then redoes the documents an older one compiled (their
 * entities are kept per document and would otherwise stay as the older code found them).
 */
export const OFFLINE_COMPILER = 'offline-v62';

/** A concept entry quotes at most this many sources (a page of 1,000 quotes helps nobody). */
const MAX_STATED_SOURCES = 40;

function describeSource(doc: RawDocument): string[] {
  const lines = doc.post
    ? [
        `- File: \`raw/${doc.post.file}\` (${doc.type}, post ${doc.post.index} of ${doc.post.of}${typeof doc.meta['collection'] === 'string' ? ` in “${doc.meta['collection']}”` : ''})`,
      ]
    : [
        `- File: \`raw/${doc.path}\` (${doc.type}${doc.language ? `, ${doc.language}` : ''}${doc.mime ? `, ${doc.mime}` : ''}, ${formatBytes(doc.size)})`,
      ];
  // The original is copied into the vault's attachments/ folder (a plain link: Obsidian opens it, no viewer is embedded).
  if (doc.type === 'document')
    lines.push(
      `- Original: [${doc.path.split('/').pop()}](<../attachments/${doc.path.split('/').pop()}>)${typeof doc.meta['pages'] === 'number' ? `, ${doc.meta['pages']} pages` : ''}`,
    );
  if (doc.url) lines.push(`- URL: <${doc.url}>`);
  const m = doc.meta;
  if (typeof m['author'] === 'string') lines.push(`- Author: ${m['author']}`);
  for (const k of ['published', 'date', 'created']) {
    if (typeof m[k] === 'string' || typeof m[k] === 'number') {
      lines.push(`- ${k[0]!.toUpperCase()}${k.slice(1)}: ${String(m[k])}`);
      break;
    }
  }
  return lines;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function outline(markdown: string): string[] {
  const heads: string[] = [];
  let fence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const m = /^(#{2,3})[ \t]+(\S.*)$/.exec(line);
    const text = m ? withoutAttributes(withoutClosingHashes(m[2]!)) : '';
    if (text && !PLACE_HEADING.test(text))
      heads.push(`${m![1]!.length === 3 ? '  ' : ''}- ${clip(text.replace(/[[\]]/g, ''), 200)}`);
  }
  return heads.slice(0, 20);
}

/**
 * The offline compiler: extractive summaries, key points and heuristic entities. It never calls
 * a model; `kb compile` uses it without an API key and as the fallback when model output fails.
 */
export class OfflineWriter implements EntryWriter {
  readonly name = OFFLINE_COMPILER;

  async writeSource(doc: RawDocument): Promise<{ draft: SourceDraft; messages: KbMessage[] }> {
    return { draft: offlineSource(doc), messages: [] };
  }

  async writeConcept(group: ConceptGroup, _catalog: Catalog): Promise<{ draft: ConceptDraft; messages: KbMessage[] }> {
    return { draft: offlineConcept(group), messages: [] };
  }
}

export function offlineSource(doc: RawDocument): SourceDraft {
  return withOfflineText(doc, offlineEntities(doc));
}

/** The names the offline reading finds in a work, as its draft carries them (none in a file read as no text). */
export function offlineEntities(doc: RawDocument): SourceDraft['entities'] {
  return draftEntities(readsText(doc) ? extractEntities(doc.markdown, doc.title) : []);
}

/**
 * The offline draft of a work around the names already found in it (offlineEntities): its summary,
 * key points, outline and source. The two halves are apart so that a worker thread can find the
 * names (which need the language models) while the main thread writes the rest.
 */
export function withOfflineText(doc: RawDocument, entities: SourceDraft['entities']): SourceDraft {
  const sections: string[] = [];
  let summary: string;
  let keyPoints: string[] = [];
  if (doc.type === 'attachment') {
    const dims =
      typeof doc.meta['width'] === 'number'
        ? `, ${String(doc.meta['width'])}×${String(doc.meta['height'])} pixels`
        : '';
    summary = `${doc.mime?.startsWith('image/') ? 'Image' : 'Attachment'} \`${doc.title}\` (${doc.mime ?? 'binary'}${dims}) kept in raw/${doc.path.includes('/') ? doc.path.slice(0, doc.path.lastIndexOf('/') + 1) : ''}.`;
    if (doc.mime?.startsWith('image/')) sections.push(`![[${doc.path.split('/').pop()}]]`);
    // Text OCR found in the image: what it says leads, the file details follow.
    const read = readsText(doc) ? doc.markdown.split('\n## Text in the image\n')[1]?.trim() : undefined;
    if (read) {
      const ex = extractSummary(read);
      // Labels of a diagram are no sentence: the summary says what the image shows them as.
      const lines = read
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
      summary = /[.!?。！？]/u.test(ex.summary)
        ? ex.summary
        : `${doc.mime?.startsWith('image/') ? 'Image' : 'Attachment'} \`${doc.title}\` whose text reads “${clip(lines.join(' · '), 240)}”.`;
      keyPoints = ex.keyPoints;
      sections.push(`## Text in the image\n\n${read}`);
    }
  } else if (doc.type === 'url') {
    summary = `Web link to ${doc.url ?? 'a page'}, saved as a shortcut.`;
  } else {
    const ex = extractSummary(doc.markdown, { title: doc.title });
    summary = ex.summary || doc.title;
    keyPoints = ex.keyPoints;
    if (doc.type === 'code') {
      const defs = codeDefinitions(doc.markdown);
      if (defs.length) sections.push(`## Definitions\n\n${defs.map((d) => `- \`${d}\``).join('\n')}`);
    }
  }
  if (keyPoints.length) sections.unshift(`## Key points\n\n${keyPoints.map((k) => `- ${k}`).join('\n')}`);
  const images = embeddedImages(doc.markdown);
  if (images.length) sections.push(`## Images\n\n${images.map((i) => `![[${i}]]`).join('\n')}`);
  const heads = outline(doc.markdown);
  if (heads.length > 1) sections.push(`## Outline\n\n${heads.join('\n')}`);
  sections.push(`## Source\n\n${describeSource(doc).join('\n')}`);
  return {
    title: doc.title,
    aliases: [],
    summary,
    body: sections.join('\n\n'),
    entities,
    compiledBy: OFFLINE_COMPILER,
  };
}

/** The entities the offline reading found, as a source draft carries them. */
export function draftEntities(found: readonly FoundEntity[]): SourceDraft['entities'] {
  return found.map((e) => ({
    name: e.surface,
    aliases: e.aliases,
    count: e.count,
    snippets: e.snippets,
    salient: e.salient,
    ...(e.subject ? { subject: true } : {}),
    ...(e.weak ? { weak: true } : {}),
    ...(e.sections ? { sections: e.sections } : {}),
    ...(e.places ? { places: e.places } : {}),
  }));
}

function codeDefinitions(markdown: string): string[] {
  const out: string[] = [];
  // [ \t], not \s: \s would let every line start rescan the blank lines after it.
  const re =
    /^[ \t]*(?:export[ \t]+)?(?:async[ \t]+)?(?:def|class|function|func|fn|interface|type|struct|enum)[ \t]+([A-Za-z_][\w]*)/gm;
  for (const m of markdown.matchAll(re)) if (!out.includes(m[1]!)) out.push(m[1]!);
  return out.slice(0, 30);
}

export function offlineConcept(group: ConceptGroup): ConceptDraft {
  const summarySentence = definingSentence(group) ?? plainSummary(group);
  const lines: string[] = ['## What the sources say', ''];
  // The sources that say most about it; all of them are listed under Sources.
  for (const m of group.mentions.slice(0, MAX_STATED_SOURCES)) {
    const said = m.snippets.slice(0, 2);
    if (said.length === 0) {
      lines.push(`- [[${m.sourceTitle}]] mentions ${group.title}.`);
      continue;
    }
    for (const s of said) {
      const heading = snippetHeading(s);
      lines.push(heading ? `- [[${m.sourceTitle}]] has a section “${heading}”.` : `- ${s} — [[${m.sourceTitle}]]`);
    }
  }
  if (group.mentions.length > MAX_STATED_SOURCES)
    lines.push(`- …and ${group.mentions.length - MAX_STATED_SOURCES} more sources below.`);
  lines.push(
    '',
    '## Sources',
    '',
    ...group.mentions.map((m) => `- [[${m.sourceTitle}]] (${m.count} mention${m.count === 1 ? '' : 's'})`),
  );
  return {
    title: group.title,
    aliases: group.aliases,
    summary: `${summarySentence}`,
    body: lines.join('\n'),
    compiledBy: OFFLINE_COMPILER,
  };
}

/**
 * When no source has a sentence on it: the line that leads into an account of it (a definition, a
 * list: "编译条目的标准 Schema 定义：") says what it is; else where it is discussed. In the sources' language.
 */
function plainSummary(group: ConceptGroup): string {
  const first = group.mentions[0]?.sourceTitle ?? '';
  const more = group.mentions.length - 1;
  const zh = /[\u3400-\u9fff]/.test(group.title + first);
  const lead = group.mentions
    .flatMap((m) => m.snippets)
    .map((l) => l.trim())
    .find((l) => /[:：]$/.test(l) && l.length >= 8 && !TABLE_OR_DRAWING.test(l));
  if (lead)
    return /[\u3400-\u9fff]/.test(lead)
      ? `${group.title}：${lead.slice(0, -1)}。`
      : `${group.title}: ${lead.slice(0, -1)}.`;
  // A heading that names it with more words ("数据流架构：从 raw/ 到 wiki/ 的编译管线") says which part of
  // the source is about it, and in the source's words what it is.
  const heading = headingNaming(group);
  if (heading)
    return zh
      ? `${group.title}：见于《${heading.source}》一节「${heading.line}」。`
      : `${group.title} is discussed in “${heading.source}”, under “${heading.line}”.`;
  if (zh) return `${group.title}：见于《${first}》${more > 0 ? `等 ${group.mentions.length} 篇来源` : ''}。`;
  return `${group.title} is discussed in “${first}”${more > 0 ? ` and ${more} more source${more > 1 ? 's' : ''}` : ''}.`;
}

/** A title as a reader compares it: letters and digits only, lowercased. */
function bare(s: string): string {
  return s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** The longest a heading may be to stand in a summary. */
const MAX_HEADING_CHARS = 60;

/** The first snippet that is a heading naming the concept with words of its own, and its source's title. */
function headingNaming(group: ConceptGroup): { source: string; line: string } | undefined {
  const names = [group.title, ...group.aliases].map((n) => n.toLowerCase());
  for (const m of group.mentions)
    for (const s of m.snippets) {
      const line = snippetHeading(s);
      if (line === undefined) continue;
      const l = line.toLowerCase();
      // The source's own title says no more than "discussed in" does.
      if (bare(line) === bare(m.sourceTitle) || line.length > MAX_HEADING_CHARS || !names.some((n) => l.includes(n)))
        continue;
      return { source: m.sourceTitle, line };
    }
  return undefined;
}

const TABLE_OR_DRAWING = /^[;|]|\s[;|]\s.*\s[;|]\s|[\u2500-\u257f]/;

/**
 * A line that is no sentence and cannot stand as a summary: a table row, a line of a drawing, a list's
 * lead-in (ends in a colon), or a heading (short, with no sentence punctuation at all).
 */
function notASentence(s: string): boolean {
  const t = s.trim();
  if (TABLE_OR_DRAWING.test(t)) return true;
  if (/[:：]$/.test(t)) return true;
  return !/[。！？.!?；;，,]/.test(t.replace(/[:：]/, '')) && t.length <= 80;
}

/** The sentence that best says what a concept is: it opens with the name and defines it, in the title's script. */
function definingSentence(group: ConceptGroup): string | undefined {
  const names = [group.title, ...group.aliases].map((n) => n.toLowerCase());
  const latinTitle = /^[A-Za-z]/.test(group.title);
  const genus = genusSentence(names);
  let best: { s: string; score: number } | undefined;
  for (const [rank, m] of group.mentions.entries()) {
    // A later source's sentence loses a tenth a rank: once even the best a sentence can score
    // (MAX_SENTENCE_SCORE) cannot beat the best so far, no later one can (a concept of thousands of
    // sources reads a few hundred).
    if (best && MAX_SENTENCE_SCORE - rank * 0.1 <= best.score) break;
    for (const s of m.snippets) {
      if (notASentence(s) || snippetHeading(s) !== undefined) continue;
      const l = s.toLowerCase();
      let score = -rank * 0.1;
      const at = Math.min(...names.map((n) => (l.includes(n) ? l.indexOf(n) : 999)));
      // 由于评估器是…, "Because the evaluator is…": the name stands in a clause that opens the sentence
      // (before its first comma), not in the sentence's own (为了测试…，我生成了一个数字音频工作站（DAW），这是…).
      const comma = s.search(/[,，；;]/);
      const clause = CLAUSE_OPENER.test(s) && (comma < 0 || at < comma);
      if (at < 3 && !clause) score += SENTENCE_BONUS.opensWithName;
      else if (at < 40) score += 1;
      // A sentence that names it otherwise or not at all (a source's everyday word for it) says
      // what the source says, not what it is.
      else if (at === 999) score -= 3;
      // "A module is a collection of…", 向量数据库是一种…: it says what kind of thing it is.
      if (!clause && genus.test(s)) score += SENTENCE_BONUS.genus;
      // The copula of a clause of reason or condition says what the name does there, not what it is.
      if (!clause && /\b(is|are|refers to|means|was)\b/.test(l.slice(0, 160))) score += SENTENCE_BONUS.copula;
      if (!clause && /是|指|即|称为/.test(s.slice(0, 60))) score += SENTENCE_BONUS.zhCopula;
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included
      if (latinTitle === /^[\x00-\x7f“”’‘—–-]*$/.test(s.slice(0, 40))) score += SENTENCE_BONUS.titleScript;
      if (s.length < 40 || s.length > 320) score -= 1.5;
      if (/^[-*>|]|\?$|？$/.test(s)) score -= 2;
      // A dated line that ends in no sentence mark is a log entry (`2025-12-03 《书名》（作者）`), and a
      // line of more symbols than letters a formula.
      if (/^\d{4}[-/.年]\d{1,2}/u.test(s) && !/[。！？.!?…][”"’'）)\]]*$/u.test(s.trim())) score -= 2;
      if ((s.match(/\p{L}/gu)?.length ?? 0) * 2 < s.replace(/\s/g, '').length) score -= 4;
      // `description: Generates reports in Markdown.` is a line of a configuration file, not prose.
      if (/^[a-z][\w-]*:\s/.test(s)) score -= 3;
      // 于是，ClipGenius就这样诞生了。/ This is why…: it reads only after the sentence before it.
      if (leans(s)) score -= 2;
      if (!best || score > best.score) best = { s, score };
    }
  }
  return best?.s;
}

/**
 * What definingSentence adds to a sentence that opens with the name, has a copula (each language's),
 * is in the title's script, and says what kind of thing the name is (genus).
 */
const SENTENCE_BONUS = { opensWithName: 3, copula: 2, zhCopula: 2, titleScript: 1.5, genus: 2 };

/** A sentence that opens with a clause of reason, purpose, condition or time (each language's words). */
const CLAUSE_OPENER = new RegExp(
  `^[\\s\\p{P}]*(?:(?:${anyOf(ZH.CLAUSE_OPENERS)})|(?:${anyOf(EN.CLAUSE_OPENERS)})\\b)`,
  'iu',
);

/** The most definingSentence adds to any sentence. */
const MAX_SENTENCE_SCORE = Object.values(SENTENCE_BONUS).reduce((a, b) => a + b, 0);

/** Local images a document embeds (`![[diagram.png]]`, `![alt](../images/diagram.png)`), by file name. */
function embeddedImages(markdown: string): string[] {
  const out = new Set<string>();
  for (const m of markdown.matchAll(/!\[\[([^[\]|#\n]+\.(?:png|jpe?g|gif|webp|svg|bmp|avif))(?:\|[^[\]\n]*)?\]\]/gi))
    out.add(m[1]!.split('/').pop()!.trim());
  for (const m of markdown.matchAll(
    /!\[[^[\]\n]*\]\(<?([^()\s<>]+\.(?:png|jpe?g|gif|webp|svg|bmp|avif))>?(?:[ \t]+"[^"\n]*")?\)/gi,
  )) {
    if (/^[a-z]+:/i.test(m[1]!)) continue; // remote images stay in the raw document
    out.add(decodeURIComponent(m[1]!.split('/').pop()!));
  }
  return [...out];
}
