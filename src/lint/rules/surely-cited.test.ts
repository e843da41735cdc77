import { describe, expect, it } from 'vitest';
import { extractWikiLinks } from '../../parse/links.js';
import { uncitedParagraphs } from './missing-citation.js';
import { surelyCited } from './surely-cited.js';

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

const isSource = (t: string) => t === 'Src' || t === '来源';
const LONG = 'a sentence long enough to count as a paragraph of its own';
const LINES = [
  '# Title',
  '## What the sources say',
  '',
  '',
  '- short',
  '- 短句',
  `- ${LONG}`,
  `- ${LONG} — [[Src]]`,
  '- 一段足够长的中文句子，用来检验一段没有引用的文字是否会被发现，而且它还要更长一些才行 — [[来源]]',
  `- ${LONG} — [[Other]]`,
  `- ${LONG} — [[Src|shown]]`,
  `- ${LONG} — [[Src#Part]]`,
  `- ${LONG} — [[ Src ]]`,
  `- ${LONG} — [[Src.md]]`,
  `- ${LONG} — \`[[Src]]\``,
  `- ${LONG} — ![[Src]]`,
  `${LONG} [[Src]]`,
  LONG,
  'short',
  '> quoted',
  `> ${LONG} [[Src]]`,
  '```',
  '~~~',
  '    indented code',
  '  - nested',
  '---',
  '===',
  '* * *',
  '<!-- kb:generated -->',
  '<div>',
  '1. numbered',
  `1. ${LONG}`,
  '-',
  '| a | b |',
  `- [x](https://example.com) ${LONG}`,
  `- https://example.com ${LONG}`,
  `**${LONG}** [[Src]]`,
  '\\[[Src]]',
];

describe('surelyCited', () => {
  it('never calls an entry clean that remark finds an uncited paragraph in', () => {
    const next = rng(7);
    let proved = 0;
    for (let n = 0; n < 2000; n++) {
      const count = 1 + Math.floor(next() * 10);
      const lines = Array.from({ length: count }, () => LINES[Math.floor(next() * LINES.length)]!);
      const body = `${lines.join('\n')}\n`;
      if (!surelyCited(body, extractWikiLinks(body), isSource, 40)) continue;
      proved++;
      expect(uncitedParagraphs(body, isSource, 40), body).toEqual([]);
    }
    // The scan must also prove something, or it saves nothing.
    expect(proved).toBeGreaterThan(100);
  });

  it('proves a concept entry as kb writes it clean without parsing', () => {
    const body = [
      '# BART',
      '',
      'Dense retriever ([[DPR]]) over a Wikipedia index + BART generator, trained end to end.',
      '',
      '## What the sources say',
      '',
      `- ${LONG} — [[Src]]`,
      '- 检索增强生成（RAG）这个名字就出自这篇论文：稠密检索器（DPR）+ BART 生成器。 — [[来源]]',
      '',
      '## Related',
      '',
      '- [[DPR]]',
      '',
      '## Sources',
      '',
      '- [[Src]] (1 mention)',
      '- [[来源]] (1 mention)',
      '',
    ].join('\n');
    expect(surelyCited(body, extractWikiLinks(body), isSource, 40)).toBe(true);
  });

  it('leaves an uncited long paragraph, or one continued on the next line, to the parser', () => {
    for (const body of [
      `# T\n\nSummary.\n\n${LONG}\n`,
      '# T\n\nSummary.\n\n- short line\nthat goes on and on and on for a while\n',
    ]) {
      expect(surelyCited(body, extractWikiLinks(body), isSource, 40)).toBe(false);
      expect(uncitedParagraphs(body, isSource, 40)).toHaveLength(1);
    }
  });
});
