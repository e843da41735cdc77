import { describe, expect, it } from 'vitest';
import { headingOutline, outlineHeadings, outlineSections, sectionsNaming } from './outline.js';

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

describe('outlineSections', () => {
  it('splits a text at its outline and finds the sections that name something', () => {
    const md =
      '# T\n\nIntro on Rebasing.\n\n## One\n\nrebasing here\n\n## Two\n\nnothing\n\n### Three\n\nmore rebasing\n\n## Four\n\nend\n';
    const sections = outlineSections(md);
    expect(sections).toHaveLength(5);
    expect(sectionsNaming(sections, ['Rebasing'])).toEqual([0, 1, 3]);
  });

  it('gives nothing for a text of too few sections to align', () => {
    expect(outlineSections('## One\n\na\n\n## Two\n\nb\n')).toEqual([]);
  });
});
