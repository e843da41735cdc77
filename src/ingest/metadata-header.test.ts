import { describe, expect, it } from 'vitest';
import { convertMarkdown, metadataHeader } from './markdown.js';

describe('metadataHeader: a MultiMarkdown / Pelican header', () => {
  it.each([
    [
      'Title: This Week in Example 12\nNumber: 12\nDate: 2026-06-17\nCategory: Weekly\n\nHello.',
      'This Week in Example 12',
    ],
    ['title: Notes on caching\ndate: 2024-01-02\n\n# Caching\n', 'Notes on caching'],
    ['Title: 向量数据库笔记\nAuthor: 某人\nTags: 检索\n\n正文。', '向量数据库笔记'],
  ])('reads %j', (text, title) => {
    expect(metadataHeader(text)?.meta['title']).toBe(title);
    expect(convertMarkdown(text, 'raw/x.md', 'x').converted.title).toBe(title);
    expect(convertMarkdown(text, 'raw/x.md', 'x').converted.markdown).not.toMatch(/^Title:/im);
  });

  it.each([
    'Note: this is prose that opens with a label.\nIt goes on.\n\nMore.',
    'Title: only a title line\n\nBody.',
    'Title: a title\nThen a sentence that is no key line.\n\nBody.',
    '# Heading\nTitle: x\nDate: y\n\nBody.',
    'Summary: a summary\nDate: 2024-01-01\n\nBody without a title key.',
  ])('leaves %j alone', (text) => {
    expect(metadataHeader(text)).toBeUndefined();
  });
});
