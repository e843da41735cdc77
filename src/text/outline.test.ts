import { describe, expect, it } from 'vitest';
import {
  alignOutlines,
  headingOutline,
  outlineHeadings,
  outlineParagraphs,
  outlineSections,
  paragraphCounts,
  placesNaming,
  sectionsNaming,
} from './outline.js';

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

describe('outlineParagraphs and placesNaming', () => {
  const md =
    '# T\n\nIntro on tags.\n\n## One\n\nA tag here.\n\nThe stage, not a tag name.\n\n## Two\n\n标签在这里。\n\n## Three\n\nstaged\n\n## Four\n\nend\n';
  const paragraphs = outlineParagraphs(outlineSections(md));

  it("counts each section's paragraphs, its heading first", () => {
    expect(paragraphCounts(md)).toBe('2 3 2 2 2');
    expect(paragraphCounts('## One\n\na\n')).toBe('');
  });

  it('places a Latin name where it stands as a word, plural or not, and a Chinese one anywhere', () => {
    // Must: "tags" and "tag"; must not: the "tag" inside "stage" or "staged".
    expect(placesNaming(paragraphs, ['tag'])).toEqual(['0.1', '1.1', '1.2']);
    expect(placesNaming(paragraphs, ['stage'])).toEqual(['1.2']);
    expect(placesNaming(paragraphs, ['标签'])).toEqual(['2.1']);
  });

  it('reads "es" as a plural ending only after s, x, z, ch and sh', () => {
    const plural = outlineParagraphs(
      outlineSections('# T\n\n## A\n\nTwo branches.\n\n## B\n\nThe stages.\n\n## C\n\nboxes\n\n## D\n\nend\n'),
    );
    expect(placesNaming(plural, ['branch'])).toEqual(['1.1']);
    expect(placesNaming(plural, ['box'])).toEqual(['3.1']);
    // Must not: "stag" in "stages".
    expect(placesNaming(plural, ['stag'])).toEqual([]);
    expect(placesNaming(plural, ['stage'])).toEqual(['2.1']);
  });
});

describe('alignOutlines', () => {
  const outline = (depths: string) => [...depths].map((d, i): [number, string] => [Number(d), `h${i}`]);
  it('pairs every heading of two outlines with the same sections', () => {
    expect(alignOutlines(outline('2332'), outline('2332'))).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
  });
  it('leaves unpaired a run where a translation left out one subsection, and pairs the rest', () => {
    // a: 2 3 3 3 2 3 ; b: 2 3 3 2 3 — one of the three subsections is missing, which one cannot be told.
    expect(alignOutlines(outline('233323'), outline('23323'))).toEqual([
      [0, 0],
      [4, 3],
      [5, 4],
    ]);
  });
  it('pairs around a section only one version has, where it stands alone', () => {
    expect(alignOutlines(outline('23242'), outline('2322'))).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
      [4, 3],
    ]);
  });
  it('does not pair outlines that differ in more than a few headings', () => {
    expect(alignOutlines(outline('2222'), outline('3333'))).toBeUndefined();
    expect(alignOutlines(outline('2'.repeat(10)), outline('2'.repeat(4)))).toBeUndefined();
  });
});
