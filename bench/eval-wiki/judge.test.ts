import { describe, expect, it } from 'vitest';
import { judgeWiki, type WikiPage } from './judge.js';
import type { CorpusLabels } from './labels.js';

const labels: CorpusLabels = {
  name: 't',
  genre: 'test',
  languages: ['en', 'zh', 'zh-TW'],
  sources: [
    { path: 'raw/en/a.md', lang: 'en', title: 'Branches in a Nutshell', work: 'a', about: ['branch'] },
    { path: 'raw/zh/a.md', lang: 'zh', title: '分支简介', work: 'a', about: ['分支'] },
    { path: 'raw/zh-tw/a.md', lang: 'zh-TW', title: '分支簡介', work: 'a', about: ['分支'] },
    { path: 'raw/en/b.md', lang: 'en', title: 'Rebasing', about: ['rebase'] },
  ],
  concepts: [
    { id: 'branch', central: true, names: { en: ['branch'], zh: ['分支'], 'zh-TW': ['分支'] } },
    { id: 'rebase', central: true, names: { en: ['rebase', 'rebasing'], zh: ['变基'] } },
    { id: 'commit', central: false, names: { en: ['commit'], zh: ['提交'] } },
    { id: 'merge', central: true, names: { en: ['merge'] } },
  ],
  judged: { HEAD: 'ok', Filename: 'noise' },
};

const page = (p: Partial<WikiPage> & Pick<WikiPage, 'id' | 'title'>): WikiPage => ({
  kind: 'concept',
  aliases: [],
  summary: '',
  sourceRef: [],
  links: [],
  ...p,
});

describe('judgeWiki', () => {
  const pages: WikiPage[] = [
    page({
      id: 'c/branch',
      title: 'Branches',
      aliases: ['分支'],
      sourceRef: ['raw/en/a.md', 'raw/zh/a.md', 'raw/zh-tw/a.md'],
    }),
    page({ id: 'c/rebase', title: 'rebase', sourceRef: ['raw/en/b.md'] }),
    page({ id: 'c/变基', title: '變基', sourceRef: ['raw/zh/a.md'] }),
    page({ id: 'c/head', title: 'HEAD' }),
    page({ id: 'c/filename', title: 'Filename' }),
    page({ id: 'c/past', title: 'past week' }),
    page({
      id: 's/a',
      kind: 'source',
      title: 'Branches in a Nutshell {#ch03}',
      summary: 'Git branches are pointers to commits.',
      sourceRef: ['raw/en/a.md'],
      links: ['c/branch', 'c/past', 'c/filename'],
    }),
    page({
      id: 's/b',
      kind: 'source',
      title: '分支简介',
      summary: '分支是指向提交的指针。',
      sourceRef: ['raw/zh/a.md'],
    }),
    page({ id: 's/c', kind: 'source', title: 'a', summary: 'https://example.com/x', sourceRef: ['raw/zh-tw/a.md'] }),
    page({
      id: 's/d',
      kind: 'source',
      title: 'Rebasing',
      summary: 'Rebasing replays commits.',
      sourceRef: ['raw/en/b.md#post'],
    }),
  ];
  const s = judgeWiki(labels, pages);

  it('counts pages named by labels, judged pages, and noise', () => {
    expect(s.conceptPages).toBe(6);
    expect(s.labelledPages).toBe(3);
    expect(s.judgedOk).toBe(1);
    expect(s.noise).toBe(2);
    expect(s.unjudged).toBe(1);
    expect(s.missing.unjudged).toEqual(['past week']);
  });

  it('finds central concepts with a page, across script and plural', () => {
    expect(s.central).toBe(3);
    expect(s.centralWithPage).toBe(2);
    expect(s.missing.central).toEqual(['merge']);
  });

  it('takes a note titled by a concept for its page', () => {
    const note = page({
      id: 's/m',
      kind: 'source',
      title: 'Merge',
      summary: 'Merging joins two branches.',
      sourceRef: [],
    });
    const withNote = judgeWiki(labels, [...pages, note]);
    expect(withNote.centralWithPage).toBe(3);
    expect(withNote.missing.central).toEqual([]);
    expect(withNote.conceptPages).toBe(6);
  });

  it('counts a concept split over two pages as a duplicate and an unmerged pair', () => {
    expect(s.duplicates).toBe(1);
    expect(s.namedPairs).toBe(2);
    expect(s.namedPairsMerged).toBe(1);
    expect(s.missing.splitPairs[0]).toContain('rebase');
  });

  it('counts a pair only where the corpus names the concept in both languages', () => {
    const raw = new Map([
      ['raw/en/a.md', 'A branch points at a commit.'],
      ['raw/zh/a.md', '分支指向提交。'],
      ['raw/zh-tw/a.md', '分支指向提交。'],
      ['raw/en/b.md', 'Rebasing replays commits.'],
    ]);
    // 变基 is written by no Chinese source here: rebase cannot be a pair on one page.
    const named = judgeWiki(labels, pages, raw);
    expect(named.namedPairs).toBe(1);
    expect(named.namedPairsMerged).toBe(1);
  });

  it('finds a translated work whose main concept page cites every version', () => {
    expect(s.translatedWorks).toBe(1);
    expect(s.translatedWorksOnOnePage).toBe(1);
  });

  it("counts the versions a work's entries list, and a listed entry of another work as wrong", () => {
    // Work a has three versions (six ordered pairs); b is a work of its own.
    expect(s.versionPairs).toBe(6);
    expect(s.versionPairsLinked).toBe(0);
    const listed = pages.map((p) =>
      p.id === 's/a' ? { ...p, versions: ['s/b', 's/c'] } : p.id === 's/b' ? { ...p, versions: ['s/a', 's/d'] } : p,
    );
    const v = judgeWiki(labels, listed);
    expect(v.versionPairsLinked).toBe(3);
    expect(v.wrongVersions).toBe(1);
  });

  it('judges titles and summaries as a reader would', () => {
    expect(s.titlesRight).toBe(2);
    expect(s.missing.titles.map((t) => t.path)).toEqual(['raw/en/a.md', 'raw/zh-tw/a.md']);
    expect(s.summariesRight).toBe(3);
    expect(s.missing.summaries.map((x) => x.path)).toEqual(['raw/zh-tw/a.md']);
  });

  it('counts links into noise pages', () => {
    expect(s.linksToConcepts).toBe(3);
    expect(s.linksToNoise).toBe(2);
  });
});
