import { describe, expect, it } from 'vitest';
import { linkMarkup, linkResolver, linkTable, resolveLink } from './links.js';
import { entityKey, fileBaseName, linkKey } from './names.js';
import {
  mapOutsideBacklinks,
  renderBacklinks,
  setBacklinks,
  setBacklinksVerbatim,
  withoutBacklinks,
} from './backlinks.js';

const VAULT = [
  'sources/Alpha.md',
  'concepts/Retrieval-Augmented Generation.md',
  'concepts/Café.md',
  'concepts/检索增强生成.md',
  'sources/Twin.md',
  'answers/Twin.md',
  'attachments/diagram.png',
  'concepts/diagram.png.md',
  'index.md',
];

describe('resolveLink (Obsidian: base name or vault path, case-insensitive, .md optional)', () => {
  const table = linkTable(VAULT);
  const cases: [string, string, string[]][] = [
    ['base name', 'Alpha', ['sources/Alpha.md']],
    ['base name in another case', 'alpha', ['sources/Alpha.md']],
    ['with .md', 'Alpha.md', ['sources/Alpha.md']],
    ['with .MD', 'Alpha.MD', ['sources/Alpha.md']],
    ['vault path', 'sources/Alpha', ['sources/Alpha.md']],
    ['vault path in another case', 'SOURCES/alpha', ['sources/Alpha.md']],
    ['spaces around', '  Alpha  ', ['sources/Alpha.md']],
    ['NFD spelling of an NFC name', 'Cafe\u0301', ['concepts/Café.md']],
    ['Chinese name', '检索增强生成', ['concepts/检索增强生成.md']],
    ['two files share a base name', 'Twin', ['sources/Twin.md', 'answers/Twin.md']],
    ['a path picks one of them', 'answers/Twin', ['answers/Twin.md']],
    ['attachment by name with its extension', 'diagram.png', ['attachments/diagram.png', 'concepts/diagram.png.md']],
    ['a generated file', 'index', ['index.md']],
    ['nothing by that name', 'Gamma', []],
    ['a partial path is not a path', 'ources/Alpha', []],
    ['empty target', '', []],
    ['only spaces', '   ', []],
  ];
  it.each(cases)('%s: [[%s]]', (_case, target, expected) => {
    expect(resolveLink(target, table).sort()).toEqual([...expected].sort());
  });
});

describe('linkResolver', () => {
  const entries = [
    { id: 'source/alpha', path: 'sources/Alpha.md', title: 'Alpha', aliases: ['A1'] },
    {
      id: 'concept/rag',
      path: 'concepts/Retrieval-Augmented Generation.md',
      title: 'Retrieval-Augmented Generation',
      aliases: ['RAG', '检索增强生成'],
    },
    { id: 'source/twin', path: 'sources/Twin.md', title: 'Twin', aliases: ['Shared'] },
    { id: 'answer/twin', path: 'answers/Twin.md', title: 'Twin answer', aliases: ['Shared'] },
    { id: 'concept/diagram', path: 'concepts/diagram.png.md', title: 'Diagram', aliases: [] },
  ];
  const r = linkResolver(entries, (e) => e.path, { files: VAULT, namesOf: (e) => [e.title, ...e.aliases] });
  const cases: [string, string, string | undefined, string | undefined, boolean][] = [
    // case, target, entry(target), named(target), exists(target)
    ['file name', 'Alpha', 'source/alpha', 'source/alpha', true],
    ['vault path', 'concepts/Retrieval-Augmented Generation', 'concept/rag', undefined, true],
    ['alias is not a file', 'RAG', undefined, 'concept/rag', false],
    ['Chinese alias', '检索增强生成', undefined, 'concept/rag', true],
    ['ambiguous file name', 'Twin', undefined, 'source/twin', true],
    ['ambiguous alias', 'Shared', undefined, undefined, false],
    ['an entry wins over an attachment of its name', 'diagram.png', 'concept/diagram', undefined, true],
    ['a file that is no entry', 'index', undefined, undefined, true],
    ['nothing', 'Gamma', undefined, undefined, false],
  ];
  it.each(cases)('%s: [[%s]]', (_case, target, entry, named, exists) => {
    expect(r.entry(target)?.id).toBe(entry);
    expect(r.named(target)?.id).toBe(named);
    expect(r.exists(target)).toBe(exists);
  });

  it('without files, the entries alone are the vault', () => {
    const only = linkResolver(entries, (e) => e.path);
    expect(only.entry('Alpha')?.id).toBe('source/alpha');
    expect(only.exists('index')).toBe(false);
    expect(only.named('Alpha')).toBeUndefined();
  });
});

describe('names', () => {
  const bases: [string, string][] = [
    ['sources/Alpha.md', 'Alpha'],
    ['concepts/Retrieval-Augmented Generation.md', 'Retrieval-Augmented Generation'],
    ['answers/What is RAG (answer 2).md', 'What is RAG (answer 2)'],
    ['concepts/检索增强生成.md', '检索增强生成'],
    ['Top.md', 'Top'],
    ['attachments/diagram.png', 'diagram.png'],
    ['concepts/notes.md.md', 'notes.md'],
  ];
  it.each(bases)('fileBaseName(%s) = %s', (path, base) => {
    expect(fileBaseName(path)).toBe(base);
  });

  const keys: [string, string][] = [
    ['Alpha', 'alpha'],
    ['  Alpha ', 'alpha'],
    ['Cafe\u0301', 'café'],
    ['检索增强生成', '检索增强生成'],
  ];
  it.each(keys)('linkKey(%s) = %s', (name, key) => {
    expect(linkKey(name)).toBe(key);
  });

  const entities: [string, string][] = [
    ['Vector Databases', 'vector database'],
    ['vector database', 'vector database'],
    ['vector_database', 'vector database'],
    ['Retrieval-Augmented Generation', 'retrieval augmented generation'],
    ['Ontologies', 'ontology'],
    ['RAG', 'rag'],
    ['gas', 'gas'],
    ['ＲＡＧ', 'rag'],
    ['向量数据库', '向量数据库'],
    ['local branches', 'local branch'],
    ['CPU caches', 'cpu cache'],
    ['git status', 'git status'],
    ['Data Analysis', 'data analysis'],
    ['SHA-1 hashes', 'sha 1 hash'],
    ['embeddings', 'embedding'],
    // An abbreviation's plural meets its singular…
    ['APIs', 'api'],
    ['Tracking Issues & PRs', 'tracking issues & pr'],
    // …but an s of a word written with capitals inside is its own (HTTPS is no plural of HTTP).
    ['HTTPS', 'https'],
    ['macOS', 'macos'],
    ['CSS', 'css'],
    ['SaaS', 'saas'],
  ];
  it.each(entities)('entityKey(%s) = %s', (name, key) => {
    expect(entityKey(name)).toBe(key);
  });

  const markup: [string, string, string][] = [
    ['Alpha', 'Alpha', '[[Alpha]]'],
    ['Alpha', 'alpha', '[[Alpha|alpha]]'],
    ['Lilu (mythology)', 'Lilu', '[[Lilu (mythology)|Lilu]]'],
    // Brackets and bars keep their meaning in full-width form instead of breaking the link or the row.
    ['A', 'x [y] | z', '[[A|x ［y］ ｜ z]]'],
    ['译 长时间运行的应用开发', '[译] 长时间运行的应用开发', '[[译 长时间运行的应用开发|［译］ 长时间运行的应用开发]]'],
  ];
  it.each(markup)('linkMarkup(%s, %s) = %s', (file, shown, out) => {
    expect(linkMarkup(file, shown)).toBe(out);
  });
});

describe('backlinks section', () => {
  const items = [
    { path: 'sources/Beta.md', title: 'Beta' },
    { path: 'concepts/RAG (concept).md', title: 'RAG' },
  ];
  const section = '<!-- kb:backlinks -->\n## Backlinks\n\n- [[Beta]]\n- [[RAG (concept)|RAG]]\n<!-- /kb:backlinks -->';

  it('renders one link per entry, or nothing', () => {
    expect(renderBacklinks(items)).toBe('## Backlinks\n\n- [[Beta]]\n- [[RAG (concept)|RAG]]');
    expect(renderBacklinks([])).toBeNull();
  });

  it('is added, replaced and removed', () => {
    const added = setBacklinks('# A\n\nText.\n', items);
    expect(added).toBe(`# A\n\nText.\n\n${section}\n`);
    expect(setBacklinks(added, items.slice(0, 1))).toBe(
      '# A\n\nText.\n\n<!-- kb:backlinks -->\n## Backlinks\n\n- [[Beta]]\n<!-- /kb:backlinks -->\n',
    );
    expect(setBacklinks(added, [])).toBe('# A\n\nText.\n');
    expect(withoutBacklinks(added)).toBe('# A\n\nText.\n');
  });

  it("keeps every byte of a person's text around it", () => {
    const edited = `# A\n\nMy text  \n\n${section}\n\nMore of mine.\n\n\n`;
    expect(setBacklinksVerbatim(edited, items.slice(1))).toBe(
      '# A\n\nMy text  \n\n<!-- kb:backlinks -->\n## Backlinks\n\n- [[RAG (concept)|RAG]]\n<!-- /kb:backlinks -->\n\nMore of mine.\n\n\n',
    );
    expect(setBacklinksVerbatim('# A\n\nMine.', items.slice(0, 1))).toBe(
      '# A\n\nMine.\n\n<!-- kb:backlinks -->\n## Backlinks\n\n- [[Beta]]\n<!-- /kb:backlinks -->\n',
    );
  });

  it('a change outside the section leaves the section as it is; a marker in code is no section', () => {
    const upper = (t: string) => t.toUpperCase();
    expect(mapOutsideBacklinks(`a [[x]]\n\n${section}\n\nb`, upper)).toBe(`A [[X]]\n\n${section}\n\nB`);
    const fenced = '```\n<!-- kb:backlinks -->\n[[y]]\n<!-- /kb:backlinks -->\n```\n';
    expect(mapOutsideBacklinks(fenced, upper)).toBe(fenced.toUpperCase());
  });
});
