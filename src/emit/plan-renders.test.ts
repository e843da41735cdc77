import { describe, expect, it } from 'vitest';
import type { LoadedEntry } from '../entry/wiki.js';
import { entityKey } from '../entry/names.js';
import type { EntityRow } from '../store/store.js';
import type { EntryFrontmatter, EntryId, EntryKind, WikiPath } from '../types.js';
import { planRenders } from './plan-renders.js';
import type { ConceptPlan, NamePlan, SourcePlan } from './types.js';

const id = (s: string) => s as EntryId;

function entry(
  kind: EntryKind,
  eid: string,
  title: string,
  path: string,
  more: Partial<EntryFrontmatter> & { humanEdited?: boolean } = {},
): LoadedEntry {
  const { humanEdited, ...fm } = more;
  return {
    path: path as WikiPath,
    fm: {
      id: id(eid),
      kind,
      title,
      aliases: [],
      summary: '',
      source_ref: [],
      entities: [],
      backlinks: [],
      version: 1,
      last_heal_timestamp: '',
      content_hash: '',
      ...fm,
    },
    body: '',
    humanEdited: Boolean(humanEdited),
    text: '',
  };
}

const src = (eid: string, rawPath: string, changed = false): SourcePlan => ({
  id: id(eid),
  title: eid,
  rawPath,
  rawHash: 'h',
  draft: undefined,
  changed,
});
const concept = (eid: string, title: string, rawPaths: string[], aliases: string[] = []): ConceptPlan => ({
  key: entityKey(title),
  keys: [entityKey(title), ...aliases.map(entityKey)],
  title,
  aliases,
  id: id(eid),
  mentions: rawPaths.map((rawPath) => ({ rawPath, sourceId: id(`source/${rawPath}`), count: 1, snippets: [] })),
});
const ent = (rawPath: string, name: string): EntityRow => ({
  raw_path: rawPath,
  key: entityKey(name),
  surface: name,
  aliases: [],
  count: 1,
  snippets: [],
});

// Two documents already compiled: a.md mentions "Vector Database", b.md mentions "检索".
const A = entry('source', 'source/a', 'a', 'sources/a.md', { source_ref: ['raw/a.md'] });
const B = entry('source', 'source/b', 'b', 'sources/b.md', { source_ref: ['raw/b.md'] });
const VDB = entry('concept', 'concept/vdb', 'Vector Database', 'concepts/Vector Database.md', {
  source_ref: ['raw/a.md', 'raw/b.md'],
});
const entities = [ent('a.md', 'vector databases'), ent('b.md', 'Vector Database'), ent('b.md', '检索增强')];
const names = (extra: Record<string, string> = {}): NamePlan => ({
  pathOf: new Map(
    Object.entries({
      'source/a': 'sources/a.md',
      'source/b': 'sources/b.md',
      'concept/vdb': 'concepts/Vector Database.md',
      ...extra,
    }),
  ),
  titleOf: new Map(),
});

describe('planRenders: what compile renders again', () => {
  const cases: {
    name: string;
    sources: SourcePlan[];
    concepts: ConceptPlan[];
    entries?: LoadedEntry[];
    names?: NamePlan;
    force?: boolean;
    rows?: EntityRow[];
    want: { sources: string[]; concepts: string[]; heldBack?: string[] };
  }[] = [
    {
      name: 'nothing changed: nothing is rendered',
      sources: [src('source/a', 'a.md'), src('source/b', 'b.md')],
      concepts: [concept('concept/vdb', 'Vector Database', ['a.md', 'b.md'])],
      want: { sources: [], concepts: [] },
    },
    {
      name: 'a changed document: its source entry and the concepts it mentions',
      sources: [src('source/a', 'a.md', true), src('source/b', 'b.md')],
      concepts: [concept('concept/vdb', 'Vector Database', ['a.md', 'b.md'])],
      want: { sources: ['source/a'], concepts: ['concept/vdb'] },
    },
    {
      name: 'an entry that moves to another file is rendered there',
      sources: [src('source/a', 'a.md'), src('source/b', 'b.md')],
      concepts: [concept('concept/vdb', 'Vector Database', ['a.md', 'b.md'])],
      names: names({ 'source/b': 'sources/b (source).md' }),
      want: { sources: ['source/b'], concepts: [] },
    },
    {
      name: 'a concept whose sources changed is rendered',
      sources: [src('source/a', 'a.md'), src('source/b', 'b.md')],
      concepts: [concept('concept/vdb', 'Vector Database', ['a.md'])],
      want: { sources: [], concepts: ['concept/vdb'] },
    },
    {
      name: 'a new concept: it and the sources that mention it (their links change)',
      sources: [src('source/a', 'a.md'), src('source/b', 'b.md')],
      concepts: [
        concept('concept/vdb', 'Vector Database', ['a.md', 'b.md']),
        concept('concept/rag', '检索增强', ['b.md']),
      ],
      want: { sources: ['source/b'], concepts: ['concept/rag'] },
    },
    {
      name: 'a new concept a document names only by an alias: that document (its links change), no other',
      sources: [src('source/a', 'a.md'), src('source/b', 'b.md')],
      concepts: [concept('concept/vdb', 'Vector Database', ['a.md', 'b.md']), concept('concept/rag', 'RAG', ['b.md'])],
      rows: [...entities, { ...ent('a.md', 'Retrieval-Augmented Generation'), aliases: ['RAG'] }],
      want: { sources: ['source/a'], concepts: ['concept/rag'] },
    },
    {
      name: 'a concept that goes: the sources that mentioned it',
      sources: [src('source/a', 'a.md'), src('source/b', 'b.md')],
      concepts: [],
      want: { sources: ['source/a', 'source/b'], concepts: [] },
    },
    {
      name: 'a new alias shifts the names that link',
      sources: [src('source/a', 'a.md'), src('source/b', 'b.md')],
      concepts: [concept('concept/vdb', 'Vector Database', ['a.md', 'b.md'], ['VDB'])],
      want: { sources: ['source/a', 'source/b'], concepts: ['concept/vdb'] },
    },
    {
      name: '--force renders every concept (sources only when changed, as compile marks them)',
      sources: [src('source/a', 'a.md'), src('source/b', 'b.md')],
      concepts: [concept('concept/vdb', 'Vector Database', ['a.md', 'b.md'])],
      force: true,
      want: { sources: [], concepts: ['concept/vdb'] },
    },
    {
      name: 'an entry a person edited is held back, never rendered',
      sources: [src('source/a', 'a.md', true), src('source/b', 'b.md')],
      concepts: [concept('concept/vdb', 'Vector Database', ['a.md', 'b.md'])],
      entries: [{ ...A, humanEdited: true }, B, VDB],
      want: { sources: [], concepts: ['concept/vdb'], heldBack: ['source/a'] },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const entries = c.entries ?? [A, B, VDB];
      const scan = { entries, foreign: [], files: entries.map((e) => e.path as string) };
      const plan = planRenders(
        { sources: c.sources, concepts: c.concepts, scan, entities: c.rows ?? entities, force: Boolean(c.force) },
        c.names ?? names(),
      );
      expect([...plan.sources].sort()).toEqual(c.want.sources);
      expect([...plan.concepts].sort()).toEqual(c.want.concepts);
      expect([...plan.heldBack].sort()).toEqual(c.want.heldBack ?? []);
    });
  }
});
