import { describe, expect, it } from 'vitest';
import { cleanEntry, cleanLinks, cleanName, echoedTemplate, withoutBodyYaml } from './clean.js';

const entry = (over: Partial<Parameters<typeof cleanEntry>[0]> = {}) => ({
  title: 'Title',
  aliases: [],
  summary: 'What it says.',
  entities: [],
  body: '## Key points\n\n- A point.',
  ...over,
});

describe('cleanName: a name as a model may wrap it', () => {
  const must: [string, string][] = [
    ['检索增强生成入门。', '检索增强生成入门'],
    ['「A Primer on RAG」', 'A Primer on RAG'],
    ['【向量数据库】', '向量数据库'],
    ['《卡片盒笔记法》，', '卡片盒笔记法'],
    ['“Context window”', 'Context window'],
    ['**RAG**', 'RAG'],
    ['ＲＡＧ ２０２４', 'RAG 2024'],
    ['  Vector search;  ', 'Vector search'],
  ];
  const mustNot = [
    'Node.js',
    'U.S.',
    'Do we need provenance?',
    '什么是 RAG？',
    'C++',
    "O'Reilly's guide",
    '上下文焦虑',
  ];
  it.each(must)('cleans %s', (input, want) => expect(cleanName(input)).toBe(want));
  it.each(mustNot)('keeps %s', (name) => expect(cleanName(name)).toBe(name));
});

describe('cleanLinks, withoutBodyYaml', () => {
  it('cleans link targets and keeps labels, headings and embeds', () => {
    expect(cleanLinks('见 [[检索增强生成入门。]] 与 [[「A Primer」|the primer]]，![[图.png]] [[RAG#How]]')).toBe(
      '见 [[检索增强生成入门]] 与 [[A Primer|the primer]]，![[图.png]] [[RAG#How]]',
    );
  });
  it('drops a YAML block opening the body, not a thematic break before text', () => {
    expect(withoutBodyYaml('---\ntitle: X\ntags:\n  - a\n---\n## Key points\n')).toBe('## Key points\n');
    const ruled = '---\nA paragraph after a rule.\n---\n';
    expect(withoutBodyYaml(ruled)).toBe(ruled);
  });
});

describe("echoedTemplate: a reply that repeats the template's example", () => {
  it.each([["The work's own title"], ["The work's own title (source 3)"], ['the concept title exactly as given']])(
    'refuses the title %s',
    (title) => expect(echoedTemplate(entry({ title }))).toMatch(/template's example/),
  );
  it('refuses an example alias or body, accepts a real entry', () => {
    expect(echoedTemplate(entry({ aliases: ['other name'] }))).toMatch(/alias/);
    expect(echoedTemplate(entry({ body: 'Markdown content' }))).toMatch(/template's example/);
    expect(echoedTemplate(entry({ title: 'Own title' }))).toBeUndefined();
  });
  it('cleanEntry cleans the names of the entry and its entities', () => {
    const e = cleanEntry(
      entry({
        title: '《检索增强生成笔记》',
        aliases: ['【RAG】', 'RAG'],
        entities: [{ name: '「向量数据库」', kind: 'concept', aliases: ['vector database。'] }],
      }),
    );
    expect(e.title).toBe('检索增强生成笔记');
    expect(e.aliases).toEqual(['RAG']);
    expect(e.entities[0]).toEqual({ name: '向量数据库', kind: 'concept', aliases: ['vector database'] });
  });
});
