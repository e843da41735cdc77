import { describe, expect, it } from 'vitest';
import { continues, readBlocks, rowText } from './reading.js';

describe('continues: a wrapped line goes on with the sentence before it', () => {
  it.each([
    ['To build your code with the race detector enabled, just add the', '`-race` flag to the command line:'],
    ['A stack is a collection that keeps values in the order it gets them', 'and removes them in the opposite order.'],
    ['这是一段很长很长的中文文字，作者在这里换行了但是我们不知道这是', '不是同一段的意思'],
    ['The race detector is based on the C/C++ runtime library of the', '[ThreadSanitizer] project.'],
  ])('joins %j + %j', (prev, next) => expect(continues(prev, next)).toBe(true));
  it.each([
    ['Short line', 'goes on'],
    ['This line is long enough to be a wrapped line of prose text.', 'then another sentence starts.'],
    ['Attendees: Ana, Bo, Chen and Dmitri from the platform team', 'Next meeting: 2026-03-17'],
    ['The options we weighed for the storage layer are listed here', '- sqlite'],
    ['Overview general lint policy for the next edition (15 minutes)', 'revisit it later'],
    ['├── index.json # 检索索引，放在这个目录里面的文件', '└── embeddings.db'],
    ['A line that ends with a hard break in Markdown text  ', 'goes on below'],
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
