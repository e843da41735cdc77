import { describe, expect, it } from 'vitest';
import { extractWikiLinks, parsedWikiLinks } from './links.js';
import { plainWikiLinks } from './plain-links.js';

/** Deterministic pseudo-random numbers (mulberry32), so a failure can be replayed. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  '[[Alpha]]',
  '[[Beta|the beta]]',
  '[[知识库]]',
  '[[Gamma#Part two]]',
  '[[ spaced ]]',
  '[[a|b|c]]',
  '[[ |x]]',
  '[[x| ]]',
  '[[]]',
  '[[a]b]]',
  '[[a [[b]]',
  '![[Embed]]',
  '[label](url)',
  '[x]',
  ']',
  '[',
  '`code`',
  '`[[In code]]`',
  '``a`b``',
  '`open',
  '<!-- kb:backlinks -->',
  '<b>',
  '\\[[Esc]]',
  '&amp;',
  '*',
  '_',
  '**bold [[Delta]]**',
  '😀',
  '中文',
  ' ',
  '  ',
  '    ',
  '\t',
  'text',
  'more words',
  '|',
  '#',
  '!',
  '~~~',
  '```',
  '> ',
  '- ',
  '1. ',
  '## ',
  '[[Epsilon.md]]',
  '[[x]]]',
  '[[[y]]',
];
const STARTS = [
  '',
  '',
  '',
  '- ',
  '  - ',
  '    ',
  '# ',
  '> ',
  '```',
  '<!-- kb:concepts -->',
  '1. ',
  '   ',
  '- ~~~',
  '- > ',
  '-     ',
  '* ',
  '2) ',
  '- - ',
];

function randomDoc(next: () => number): string {
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]!;
  const lines: string[] = [];
  const n = 1 + Math.floor(next() * 8);
  for (let i = 0; i < n; i++) {
    const start = pick(STARTS);
    if (start.startsWith('<!--')) {
      lines.push(start);
      continue;
    }
    let line = start;
    const parts = Math.floor(next() * 6);
    for (let k = 0; k < parts; k++) line += pick(PIECES) + (next() < 0.5 ? ' ' : '');
    lines.push(line);
    if (next() < 0.3) lines.push('');
  }
  return lines.join('\n');
}

describe('plainWikiLinks', () => {
  it('finds the same links as remark on thousands of generated documents, or defers to it', () => {
    const next = rng(15);
    let handled = 0;
    for (let i = 0; i < 4000; i++) {
      const doc = randomDoc(next);
      const fast = plainWikiLinks(doc);
      if (fast === undefined) continue;
      handled++;
      expect(fast, JSON.stringify(doc)).toEqual(parsedWikiLinks(doc));
    }
    // The fast path must actually cover a good share (else this test would prove nothing).
    expect(handled).toBeGreaterThan(400);
  });

  it('reads a concept entry as kb writes it, Chinese and code spans included', () => {
    const doc = [
      '# 知识库',
      '',
      'A [[Personal Knowledge Base|PKB]] keeps notes; 见 [[知识管理#方法]] and `raw/a [[b]].md`.',
      '',
      '## Sources',
      '',
      '- [[Notes on HNSW 646]] (10 mentions) 😀 [[Émile]]',
      '- File: `raw/en/1/doc-0101.md` (markdown, 5.3 KB)',
      '',
      '<!-- kb:backlinks -->',
      '## Backlinks',
      '',
      '- [[answer combines]]',
      '<!-- /kb:backlinks -->',
      '',
    ].join('\n');
    const fast = plainWikiLinks(doc);
    expect(fast).toBeDefined();
    expect(fast).toEqual(parsedWikiLinks(doc));
    expect(fast!.map((l) => l.target)).toEqual([
      'Personal Knowledge Base',
      '知识管理',
      'Notes on HNSW 646',
      'Émile',
      'answer combines',
    ]);
  });

  it('defers to remark where `[[` may mean something else', () => {
    for (const doc of [
      '```\n[[a]]\n```',
      '    [[a]]',
      'x `open\n[[a]] close`',
      '<div>\n[[a]]\n</div>',
      '\\[[a]]',
      '> [[a]]',
      '![[a]]',
    ]) {
      expect(plainWikiLinks(doc), doc).toBeUndefined();
      expect(extractWikiLinks(doc)).toEqual(parsedWikiLinks(doc));
    }
  });
});
