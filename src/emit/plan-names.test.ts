import { describe, expect, it } from 'vitest';
import type { LoadedEntry, WikiScan } from '../entry/wiki.js';
import type { EntryFrontmatter, EntryId, EntryKind, WikiPath } from '../types.js';
import { buildLinkTable } from './link-table.js';
import { planNames } from './plan-names.js';
import type { ConceptPlan, SourcePlan } from './types.js';

const id = (s: string) => s as EntryId;

function entry(
  kind: EntryKind,
  eid: string,
  title: string,
  path: string,
  opts: { humanEdited?: boolean; aliases?: string[] } = {},
): LoadedEntry {
  const fm: EntryFrontmatter = {
    id: id(eid),
    kind,
    title,
    aliases: opts.aliases ?? [],
    summary: '',
    source_ref: [],
    entities: [],
    backlinks: [],
    version: 1,
    last_heal_timestamp: '',
    content_hash: '',
  };
  return { path: path as WikiPath, fm, body: '', humanEdited: Boolean(opts.humanEdited), text: '' };
}

function scanOf(entries: LoadedEntry[], otherFiles: string[] = []): WikiScan {
  return { entries, foreign: [], files: [...entries.map((e) => e.path as string), ...otherFiles] };
}

function source(eid: string, title: string, draftTitle?: string): SourcePlan {
  const draft =
    draftTitle === undefined
      ? undefined
      : { title: draftTitle, aliases: [], summary: '', body: '', compiledBy: 'offline' };
  return { id: id(eid), title, rawPath: `${eid}.md`, rawHash: 'h', draft, changed: draft !== undefined };
}

function concept(eid: string, title: string, aliases: string[] = []): ConceptPlan {
  return { key: title.toLowerCase(), keys: [title.toLowerCase()], title, aliases, id: id(eid), mentions: [] };
}

describe('planNames: one file name per entry, unique across the vault case-insensitively', () => {
  const cases: {
    name: string;
    sources?: SourcePlan[];
    concepts?: ConceptPlan[];
    entries?: LoadedEntry[];
    files?: string[];
    attachments?: string[];
    want: Record<string, string>;
  }[] = [
    {
      name: 'a new entry is named after its title, in its kind folder',
      sources: [source('source/a', 'Vector Databases', 'Vector Databases')],
      concepts: [concept('concept/rag', 'RAG')],
      want: { 'source/a': 'sources/Vector Databases.md', 'concept/rag': 'concepts/RAG.md' },
    },
    {
      name: 'a name taken by another kind gets the kind, then a number',
      sources: [source('source/a', 'RAG', 'RAG'), source('source/b', 'rag', 'rag')],
      concepts: [concept('concept/rag', 'RAG')],
      want: {
        'source/a': 'sources/RAG.md',
        'source/b': 'sources/rag (source).md',
        'concept/rag': 'concepts/RAG (concept).md',
      },
    },
    {
      name: 'characters a file name cannot hold become spaces; Chinese stays',
      sources: [source('source/a', 'x', 'A/B: 向量数据库?')],
      want: { 'source/a': 'sources/A B 向量数据库.md' },
    },
    {
      name: 'an entry keeps its file while its title still fits it',
      sources: [source('source/a', 'Tides', 'Tides')],
      entries: [entry('source', 'source/a', 'Tides', 'sources/Tides (source).md')],
      want: { 'source/a': 'sources/Tides (source).md' },
    },
    {
      name: 'an entry whose title changed moves to the new name',
      sources: [source('source/a', 'Tides', 'Ocean Tides')],
      entries: [entry('source', 'source/a', 'Tides', 'sources/Tides.md')],
      want: { 'source/a': 'sources/Ocean Tides.md' },
    },
    {
      name: 'an entry a person edited keeps its file whatever its title, and holds the name against others',
      sources: [source('source/a', 'Renamed', 'Renamed'), source('source/b', 'Mine', 'Mine')],
      entries: [entry('source', 'source/a', 'Mine', 'sources/Mine.md', { humanEdited: true })],
      want: { 'source/a': 'sources/Mine.md', 'source/b': 'sources/Mine (source).md' },
    },
    {
      name: 'a filed answer holds its name; a concept of the same title gets the kind',
      concepts: [concept('concept/tides', 'Tides')],
      entries: [entry('answer', 'answer/tides', 'Tides', 'answers/Tides.md')],
      want: { 'answer/tides': 'answers/Tides.md', 'concept/tides': 'concepts/Tides (concept).md' },
    },
    {
      name: 'an attachment copied into the vault holds its file name',
      sources: [source('source/png', 'diagram.png', 'diagram.png')],
      attachments: ['figs/diagram.png'],
      want: { 'source/png': 'sources/diagram.png (source).md' },
    },
    {
      name: 'a file in the vault that is no entry holds its name (case-insensitive)',
      sources: [source('source/a', 'notes', 'notes')],
      files: ['Notes.md'],
      want: { 'source/a': 'sources/notes (source).md' },
    },
  ];
  for (const c of cases) {
    it('names a translation titled as its original by its language, and anything else taken by a number', () => {
      const en = {
        ...source('source/seo', 'SEO'),
        language: 'English',
        versions: [id('source/seo-2'), id('source/seo-3')],
      };
      const zh = {
        ...source('source/seo-2', 'SEO'),
        language: '中文',
        versions: [id('source/seo'), id('source/seo-3')],
      };
      const tw = {
        ...source('source/seo-3', 'SEO'),
        language: '繁體中文',
        versions: [id('source/seo'), id('source/seo-2')],
      };
      const other = { ...source('source/seo-4', 'SEO'), language: '中文' };
      const { pathOf } = planNames({ sources: [en, zh, tw, other], concepts: [], scan: scanOf([]), attachments: [] });
      expect([...pathOf.values()]).toEqual([
        'sources/SEO.md',
        'sources/SEO (中文).md',
        'sources/SEO (繁體中文).md',
        'sources/SEO (source).md',
      ]);
    });

    it(c.name, () => {
      const names = planNames({
        sources: c.sources ?? [],
        concepts: c.concepts ?? [],
        scan: scanOf(c.entries ?? [], c.files),
        attachments: c.attachments ?? [],
      });
      expect(Object.fromEntries([...names.pathOf].filter(([k]) => k in c.want))).toEqual(c.want);
      const bases = [...names.pathOf.values()].map((p) => p.split('/').pop()!.toLowerCase());
      expect(new Set(bases).size).toBe(bases.length);
    });
  }

  it('titles: the draft title of a changed source, the planned title otherwise', () => {
    const names = planNames({
      sources: [source('source/a', 'Old', 'New'), source('source/b', 'Kept')],
      concepts: [],
      scan: scanOf([]),
      attachments: [],
    });
    expect(names.titleOf.get(id('source/a'))).toBe('New');
    expect(names.titleOf.get(id('source/b'))).toBe('Kept');
  });
});

describe('buildLinkTable: the names a [[link]] may use', () => {
  const sources = [
    source('source/a', 'Lilu (mythology)', 'Lilu (mythology)'),
    source('source/b', '检索增强生成', '检索增强生成'),
  ];
  const concepts = [concept('concept/rag', 'Retrieval-Augmented Generation', ['RAG'])];
  const moved = entry('source', 'source/b', '检索增强生成', 'sources/Old Name.md');
  const answer = entry('answer', 'answer/x', 'Why tides', 'answers/Why tides.md', { aliases: ['tides question'] });
  const scan = scanOf([moved, answer], ['attachments/pic.png']);
  const names = planNames({ sources, concepts, scan, attachments: ['raw/diagram.png'] });
  const links = buildLinkTable({ concepts, scan, attachments: ['raw/diagram.png'] }, names);
  const cases: [target: string, want: string | undefined][] = [
    ['Lilu (mythology)', 'source/a'],
    ['lilu', 'source/a'],
    ['检索增强生成', 'source/b'],
    ['Old Name', 'source/b'],
    ['rag', 'concept/rag'],
    ['RETRIEVAL-AUGMENTED GENERATION', 'concept/rag'],
    ['Tides Question', 'answer/x'],
    ['Why tides', 'answer/x'],
    ['nothing here', undefined],
  ];
  for (const [target, want] of cases) {
    it(`[[${target}]] → ${want ?? 'no entry'}`, () => {
      expect(links.lookup(target)?.id).toBe(want);
    });
  }

  it('attachments in the vault and those copied this run are known by file name', () => {
    expect(links.attachments.has('pic.png')).toBe(true);
    expect(links.attachments.has('diagram.png')).toBe(true);
    expect(links.attachments.has('other.png')).toBe(false);
  });
});
