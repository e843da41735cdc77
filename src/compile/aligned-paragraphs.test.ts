import { describe, expect, it } from 'vitest';
import type { DocumentRow, EntityRow } from '../store/store.js';
import { alignedByParagraphs, type VersionSides } from './aligned-paragraphs.js';

/** A version with five sections of the same outline, each holding `counts` paragraphs. */
function doc(path: string, lang: string, counts = '4 4 4 4 4'): DocumentRow {
  return {
    raw_path: path,
    hash: path,
    type: 'markdown',
    title: path,
    entry_id: `source/${path}`,
    size: 1,
    mtime_ms: 0,
    lang,
    status: 'ok',
    error: null,
    compiled_at: 0,
    compiler: 'offline',
    headings: '2 A\n2 B\n2 C\n2 D',
    paragraphs: counts,
  };
}

const row = (path: string, key: string, places: string, weak = false): EntityRow => ({
  raw_path: path,
  key,
  surface: key,
  aliases: [],
  count: places.split(' ').length,
  snippets: [],
  places,
  ...(weak ? { weak: true } : {}),
});

const en = doc('en/a.md', 'en');
const zh = doc('zh-tw/a.md', 'zh-TW');
const sides: VersionSides[] = [
  [
    [en, false],
    [zh, true],
  ],
];

describe('alignedByParagraphs', () => {
  const cases: { why: string; rows: EntityRow[]; counts?: string; pairs: [string, string][] }[] = [
    {
      why: 'must: a name and its translation in the same paragraphs of aligned sections',
      rows: [row('en/a.md', 'checksum', '1.1 2.3 4.2'), row('zh-tw/a.md', '杂凑值', '1.1 2.3 4.2')],
      pairs: [['checksum', '杂凑值']],
    },
    {
      why: 'must: nearly the same paragraphs (a translator who left one mention out)',
      rows: [row('en/a.md', 'master branch', '0.1 1.2 2.1 3.3'), row('zh-tw/a.md', 'master 分支', '0.1 1.2 3.3')],
      pairs: [['master branch', 'master 分支']],
    },
    {
      why: 'must not: the same sections but other paragraphs',
      rows: [row('en/a.md', 'checksum', '1.1 2.3 4.2'), row('zh-tw/a.md', '杂凑值', '1.2 2.1 4.3')],
      pairs: [],
    },
    {
      why: 'must not: sections that hold another number of paragraphs in the translation',
      rows: [row('en/a.md', 'checksum', '1.1 2.3 4.2'), row('zh-tw/a.md', '杂凑值', '1.1 2.3 4.2')],
      counts: '4 5 5 4 5',
      pairs: [],
    },
    {
      why: 'must not: an everyday word, however well it stands',
      rows: [row('en/a.md', 'html', '1.1 2.3 4.2'), row('zh-tw/a.md', '标签', '1.1 2.3 4.2', true)],
      pairs: [],
    },
    {
      why: 'must not: a name in most paragraphs stands everywhere',
      rows: [
        row('en/a.md', 'git', '0.0 0.1 0.2 1.0 1.1 1.2 2.0 2.1 2.2 3.0 3.1 4.1'),
        row('zh-tw/a.md', '读者', '0.0 0.1 0.2 1.0 1.1 1.2 2.0 2.1 2.2 3.0 3.1 4.1'),
      ],
      pairs: [],
    },
    {
      why: 'must not: two names of the other version that match one equally well',
      rows: [
        row('en/a.md', 'checksum', '1.1 2.3 4.2'),
        row('zh-tw/a.md', '杂凑值', '1.1 2.3 4.2'),
        row('zh-tw/a.md', '校验和', '1.1 2.3 4.2'),
      ],
      pairs: [],
    },
  ];
  for (const c of cases)
    it(c.why, () => {
      const versions: VersionSides[] = c.counts
        ? [
            [
              [en, false],
              [doc('zh-tw/a.md', 'zh-TW', c.counts), true],
            ],
          ]
        : sides;
      const placesOf = (path: string) =>
        new Map(c.rows.filter((r) => r.raw_path === path).map((r) => [r.key, r.places!]));
      expect(alignedByParagraphs(c.rows, versions, placesOf)).toEqual(c.pairs);
    });
});
