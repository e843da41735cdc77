import { describe, expect, it } from 'vitest';
import { headingOutline, outlineHeadings } from './outline.js';

describe('headingOutline', () => {
  it('lists section headings with their depth, read without anchors and marks', () => {
    const md =
      '# Title\n\n## Topic Branches {#topic}\n\ntext\n\n### The `HEAD` ###\n\n#### Initial render {/*initial-render*/}\n\n##### too deep\n\n```\n## not a heading\n```\n';
    expect(outlineHeadings(headingOutline(md))).toEqual([
      [2, 'Topic Branches'],
      [3, 'The HEAD'],
      [4, 'Initial render'],
    ]);
  });

  it('is empty for a text without sections', () => {
    expect(headingOutline('# Title\n\nJust text.\n')).toBe('');
  });
});
