import { describe, expect, it } from 'vitest';
import { extractSummary } from './summary.js';

describe('extractSummary', () => {
  it('never glues the title or a header line to the first sentence', () => {
    const text = [
      '官方文章 · 发布日期：2026年3月24日',
      'src: https://www.anthropic.com/engineering/harness(Harness design)',
      '作者： Prithvi Rajasekaran，Labs 团队成员',
      '导语',
      '支架设计（Harness design）是提升智能体编程前沿性能的关键。',
      '在过去的几个月里，我一直致力于解决两个相互关联的问题：让 Claude 生成高质量的前端设计，以及让它构建完整的应用程序。',
    ].join('\n');
    const { summary } = extractSummary(text, { title: 'Harness design' });
    expect(summary.startsWith('支架设计（Harness design）是提升智能体编程前沿性能的关键。')).toBe(true);
    for (const bad of ['发布日期', 'src:', '作者', '导语']) expect(summary).not.toContain(bad);
  });

  it('leaves out the title line of a plain-text post and sentences that lean on the one before', () => {
    const text =
      '技术 on Wodaixin\n\n然后，我将这些技术应用于长期自主编码，并借鉴了早期的经验。\n\nHarness 设计决定了智能体能否连续工作数小时并交付完整应用。\n';
    const { summary } = extractSummary(text, { title: '技术 on Wodaixin' });
    expect(summary.startsWith('Harness 设计决定了')).toBe(true);
    expect(summary).not.toContain('技术 on Wodaixin');
  });

  it('joins English sentences with a space and end marks', () => {
    const text =
      'Source: Example Blog\n\nThis post explains how hybrid search fuses BM25 with vectors for better recall.\nHybrid search wins on both short and long queries in every test we ran.\n';
    const { summary } = extractSummary(text);
    expect(summary).not.toContain('Source:');
    expect(summary).toMatch(/^This post explains how hybrid search fuses BM25 with vectors for better recall\./);
    expect(summary).not.toMatch(/\.[A-Z]/);
  });

  it('reads a hard-wrapped sentence as one sentence', () => {
    const text =
      'Retrieval-Augmented Generation (RAG) combines a search step with a language model. The retriever finds\npassages and the model answers from them, which keeps answers grounded.\n';
    const { summary, keyPoints } = extractSummary(text);
    expect([summary, ...keyPoints].join(' ')).toContain(
      'The retriever finds passages and the model answers from them, which keeps answers grounded.',
    );
  });
});
