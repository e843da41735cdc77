import { describe, expect, it } from 'vitest';
import { mayLink } from './plan-named.js';

describe('mayLink', () => {
  it.each([
    ['go build compiles packages', 'go', true],
    ['going further', 'go', false],
    ['a go-to tool', 'go', true],
    ['the ai engineer', 'ai', true],
    ['a chain of thought', 'ai', false],
    ['用go写', 'go', true],
    ['the zettelkasten method', 'zettelkasten', true],
    ['zettelkastens', 'zettelkasten', false],
    ['模仿维基百科逻辑', '维基百科', true],
    ['倒排索引（inverted index）', 'inverted index', true],
    ['c++ and rust', 'c++', true],
    ['nothing here', 'rust', false],
  ])('%s / %s: %s', (text, key, want) => {
    expect(mayLink(text, key)).toBe(want);
  });
});
