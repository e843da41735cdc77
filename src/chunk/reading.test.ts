import { describe, expect, it } from 'vitest';
import { continues, readBlocks, rowText, unwrapParagraphs } from './reading.js';

describe('continues: a wrapped line goes on with the sentence before it', () => {
  it.each([
    ['To build your code with the race detector enabled, just add the', '`-race` flag to the command line:'],
    ['A stack is a collection that keeps values in the order it gets them', 'and removes them in the opposite order.'],
    ['这是一段很长很长的中文文字，作者在这里换行了但是我们不知道这是', '不是同一段的意思'],
    ['The race detector is based on the C/C++ runtime library of the', '[ThreadSanitizer] project.'],
    ['A module is a collection of', '[Go packages](/ref/spec#Packages)'],
  ])('joins %j + %j', (prev, next) => expect(continues(prev, next)).toBe(true));
  it.each([
    ['Short line', 'goes on'],
    ['This line is long enough to be a wrapped line of prose text.', 'then another sentence starts.'],
    ['Attendees: Ana, Bo, Chen and Dmitri from the platform team', 'Next meeting: 2026-03-17'],
    ['The options we weighed for the storage layer are listed here', '- sqlite'],
    ['Overview general lint policy for the next edition (15 minutes)', 'revisit it later'],
    ['├── index.json # 检索索引，放在这个目录里面的文件', '└── embeddings.db'],
    ['A line that ends with a hard break in Markdown text  ', 'goes on below'],
    ['Notes from the call with', 'Next: the budget'],
    ['See [the guide](/guide)', 'then the reference.'],
  ])('keeps %j and %j apart', (prev, next) => expect(continues(prev, next)).toBe(false));
});

describe('readBlocks', () => {
  it('reads a hard-wrapped paragraph as one line, each list item as one, a table row with its header', () => {
    const md = [
      '## Using it',
      '',
      'To build your code with the race detector enabled, just add the',
      '`-race` flag to the command line:',
      '',
      '\t$ go test -race mypkg',
      '',
      '- first item that is long enough to wrap onto the next line of',
      '  the list',
      '\t- a nested item',
      '',
      '| name | Edition N | Edition N+1 |',
      '| --- | --- | --- |',
      '| hard deprecations | warn then deny | deny |',
      '',
      '> quoted words',
    ].join('\n');
    expect(readBlocks(md)).toEqual([
      { kind: 'heading', lines: ['Using it'] },
      {
        kind: 'paragraph',
        lines: ['To build your code with the race detector enabled, just add the `-race` flag to the command line:'],
      },
      {
        kind: 'item',
        lines: ['first item that is long enough to wrap onto the next line of the list', 'a nested item'],
        depths: [0, 4],
      },
      { kind: 'row', lines: ['hard deprecations — Edition N: warn then deny; Edition N+1: deny'] },
      { kind: 'paragraph', lines: ['quoted words'] },
    ]);
  });
  it('reads rows typed with tabs under the first line as their header', () => {
    expect(readBlocks('模块\t功能\nLint\t定期遍历')).toEqual([{ kind: 'row', lines: ['Lint——功能：定期遍历'] }]);
  });
  it('reads a row without a header as its cells', () => {
    expect(rowText(undefined, ['a', 'b', 'c'])).toBe('a — b; c');
  });
});

describe('unwrapParagraphs: hard-wrapped Latin prose joined, everything else as written', () => {
  it.each([
    [
      'This kind of eviction, which frees the pages the readers touched least recently\nwhile the disk is idle, is called _background page cache\neviction_.',
      'This kind of eviction, which frees the pages the readers touched least recently while the disk is idle, is called _background page cache eviction_.',
    ],
    [
      '# Title\n\nA stack is a data structure that keeps the values in the order\nit gets them.\n\n- an item\n- another item',
      '# Title\n\nA stack is a data structure that keeps the values in the order it gets them.\n\n- an item\n- another item',
    ],
    [
      // One clause a line: a line that stops at "of" goes on, and so does the lowercase clause after the link.
      'A module is a collection of\n[Go packages](/ref/spec#Packages)\nstored in a file tree with a `go.mod` file at its root.\nThe `go.mod` file defines the module path.',
      'A module is a collection of [Go packages](/ref/spec#Packages) stored in a file tree with a `go.mod` file at its root.\nThe `go.mod` file defines the module path.',
    ],
  ])('joins %j', (text, want) => {
    expect(unwrapParagraphs(text)).toBe(want);
  });

  it.each([
    // Chinese is not wrapped by hand: short lines without a mark are items of their own.
    '本地优先：所有数据先存到IndexedDB，即使离线也能用\n访客模式：不登录也能使用，数据只存本地',
    // A line that ends a sentence, a short line, a field.
    'The first line closes its sentence here, as it should.\nthe next one opens another.',
    'Short line\nanother short line',
    'Attendees were there for the whole meeting of the language team\nDate: 2020-01-06',
    // Code written without a fence, and rows set apart by tabs.
    'async function downloadVideo(url: string, options: Options) {\n  const response = await fetch(url);',
    'name\tmeaning of the name in the text\tvalue\nHeal\twhat it does when it detects a conflict\tkeeps it',
  ])('leaves %j as written', (text) => {
    expect(unwrapParagraphs(text)).toBe(text);
  });
});
