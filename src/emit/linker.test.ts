import { describe, expect, it } from 'vitest';
import { autolink, buildNameTable, type LinkName, resolveLinks } from './linker.js';

const table = (names: [string, string][]) =>
  buildNameTable(names.map(([name, file]): LinkName => ({ name, file, id: `concept/${file}` })));

describe('autolink: word boundaries in both languages', () => {
  it('links a short alias only as a whole word', () => {
    const t = table([
      ['CR', 'Code Review'],
      ['Round', 'Round'],
      ['TIP', 'Transaction Integrity Protocol'],
    ]);
    expect(autolink('A critical bug, around noon, in multiple places.', t, 'x')).toBe(
      'A critical bug, around noon, in multiple places.',
    );
    expect(autolink('Every CR needs two reviewers.', t, 'x')).toBe('Every [[Code Review|CR]] needs two reviewers.');
  });

  it('links no name that ends a hyphenated word, and a name a hyphenated word opens', () => {
    const t = table([
      ['embedding', 'embedding'],
      ['attention', 'attention'],
      ['RAG', 'RAG'],
    ]);
    // Must not match: the tail of a hyphenated word.
    expect(autolink('We used text-embedding-3-small with self-attention.', t, 'x')).toBe(
      'We used text-embedding-3-small with self-attention.',
    );
    // Must match: a name standing alone or opening a hyphenated word.
    expect(autolink('An embedding, then attention-based RAG-style search.', t, 'x')).toBe(
      'An [[embedding]], then [[attention]]-based [[RAG]]-style search.',
    );
  });

  it('never cuts a Chinese word in two', () => {
    const t = table([
      ['文档字符', '文档字符'],
      ['向量数据库', '向量数据库'],
    ]);
    expect(autolink('工具会生成文档字符串。', t, 'x')).toBe('工具会生成文档字符串。');
    expect(autolink('我们把向量存进向量数据库里。', t, 'x')).toBe('我们把向量存进[[向量数据库]]里。');
  });

  it('links a Latin name inside Chinese prose', () => {
    const t = table([['RAG', 'Retrieval-Augmented Generation']]);
    expect(autolink('我们使用RAG检索资料。', t, 'x')).toBe('我们使用[[Retrieval-Augmented Generation|RAG]]检索资料。');
  });

  it('does not link a verb or a common word to a capitalised page', () => {
    const t = table([
      ['Provides', 'Provides'],
      ['Pipeline', 'Pipeline'],
      ['which', 'Which'],
    ]);
    expect(autolink('The tool provides a pipeline, which runs daily.', t, 'x')).toBe(
      'The tool provides a pipeline, which runs daily.',
    );
    expect(autolink('The Pipeline pattern chains steps.', t, 'x')).toBe('The [[Pipeline]] pattern chains steps.');
  });
});

describe('autolink: many names sharing a first word', () => {
  it('links the longest name present, whichever of many names start alike', () => {
    const names: [string, string][] = Array.from({ length: 500 }, (_, i) => [`source ${i} notes`, `S${i}`]);
    names.push(['source', 'Source'], ['source code', 'Source code'], ['知识库', '知识库'], ['知识库编译器', 'KBC']);
    const t = table(names);
    expect(autolink('The source code of source 42 notes and sources.', t, 'x')).toBe(
      'The [[Source code|source code]] of [[S42|source 42 notes]] and sources.',
    );
    expect(autolink('一个知识库编译器和知识库。', t, 'x')).toBe('一个[[KBC|知识库编译器]]和[[知识库]]。');
    expect(autolink('source 4 notes, source 420 notes', t, 'x')).toBe(
      '[[S4|source 4 notes]], [[S420|source 420 notes]]',
    );
  });
});

describe('buildNameTable: a file name is its own entry', () => {
  it('resolves a file name even when another entry has the same title in other case', () => {
    const t = buildNameTable([
      { name: 'Harness Design for X', file: 'Harness Design for X', id: 'source/a' },
      { name: 'Harness design for X', file: 'Harness design for X (source)', id: 'source/b' },
      { name: 'Harness design for X (source)', file: 'Harness design for X (source)', id: 'source/b' },
    ]);
    expect(t.byKey.get('harness design for x')?.id).toBe('source/a');
    expect(t.byKey.get('harness design for x (source)')?.id).toBe('source/b');
  });

  it('still drops a title two entries share when neither file is named by it', () => {
    const t = buildNameTable([
      { name: 'Notes', file: 'Notes (source)', id: 'source/a' },
      { name: 'Notes', file: 'Notes (source 2)', id: 'source/b' },
    ]);
    expect(t.byKey.has('notes')).toBe(false);
  });
});

describe('autolink: brackets in the text', () => {
  it('does not link a name that a bracket opens or closes', () => {
    const t = table([['Opus', 'Opus']]);
    expect(autolink('From our blog: “[Opus 4.6] plans more carefully.”', t, 'x')).toBe(
      'From our blog: “[Opus 4.6] plans more carefully.”',
    );
    expect(autolink('We released Opus 4.6 then.', t, 'x')).toBe('We released [[Opus]] 4.6 then.');
  });
});

describe('autolink: links, code and addresses are read past', () => {
  it('links no name inside them, and a name just after one (no name starts in a link and runs out of it)', () => {
    const t = table([
      ['vector database', 'vector database'],
      ['database', 'database'],
      ['上下文窗口', '上下文窗口'],
    ]);
    // Must not match: names inside a link, inline code or an address.
    expect(autolink('- [[上下文窗口笔记 7171]] (16 mentions)\n- `vector database` is code.', t, 'x')).toBe(
      '- [[上下文窗口笔记 7171]] (16 mentions)\n- `vector database` is code.',
    );
    // Must match: the word after an address, which a name read from inside the address would swallow.
    expect(autolink('See https://example.org/vector database tuning.', t, 'x')).toBe(
      'See https://example.org/vector [[database]] tuning.',
    );
    expect(autolink('讲[[上下文窗口笔记 7171]]的上下文窗口。', t, 'x')).toBe(
      '讲[[上下文窗口笔记 7171]]的[[上下文窗口]]。',
    );
  });
});

describe('resolveLinks: code', () => {
  it('leaves a [[link]] written in code as it is and counts no link for it', () => {
    const lookup = (t: string) =>
      t === '倒数排名融合' ? { id: 'concept/rrf', file: 'Reciprocal Rank Fusion' } : undefined;
    const md = '写作 `[[倒数排名融合]]`，即 [[倒数排名融合]]。\n\n```\n[[倒数排名融合]]\n```';
    const { text, links } = resolveLinks(md, lookup as never);
    expect(text).toBe(
      '写作 `[[倒数排名融合]]`，即 [[Reciprocal Rank Fusion|倒数排名融合]]。\n\n```\n[[倒数排名融合]]\n```',
    );
    expect(links).toEqual(['concept/rrf']);
  });
});
