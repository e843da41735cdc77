import { describe, expect, it } from 'vitest';
import { extractSummary } from './summary.js';

describe('extractSummary', () => {
  it('keeps generics and tags inside inline code as written', () => {
    const text =
      'The smart pointer `Rc<T>` counts the references to a value, and `<script setup>` declares a component. A <b>bold</b> tag is markup.\n';
    const { summary } = extractSummary(text, { title: 'Smart pointers' });
    expect(summary).toContain('`Rc<T>`');
    expect(summary).toContain('`<script setup>`');
    expect(summary).not.toContain('<b>');
  });

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

  it('takes no row of a tab-separated table into the summary', () => {
    const text = [
      '卡帕西提出了一种基于AI的个人知识库构建方法，知识库能够自我更新和优化。',
      '能力\t说明\t价值',
      'Backlinks 优化\t模仿维基百科逻辑，AI 自动在不同概念间建立双向链接，强化知识库的连接密度\t提升检索时的路径联想能力',
      'Heal 自我修复\t当检测到知识库信息缺失或冲突时，自动补齐数据并重写冲突条目\t保持知识库的实时性',
      '知识库每次查询的结果都会被归档回知识库，形成知识积累的正向循环。',
    ].join('\n');
    const { summary } = extractSummary(text, { title: '知识库方法' });
    expect(summary).toContain('卡帕西提出了');
    expect(summary).not.toMatch(/Backlinks|Heal|双向链接/);
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

  it('ends a sentence that opens a list where it is, never glued to a later sentence', () => {
    const zh = [
      'Andrej Karpathy（卡帕西）提出了一种基于AI的个人知识库构建方法，其核心创新在于：',
      '',
      '自动维护与更新：知识库能够自我更新和优化',
      '循环增强机制：每次查询的结果都会被归档回知识库',
      '',
      '通过构建一个自动维护、自我愈合的结构化知识层，我们实际上是在为未来的全自动 Agent 预留一个高阶操作接口。',
    ].join('\n');
    const a = extractSummary(zh).summary;
    expect(a).toMatch(/^Andrej Karpathy（卡帕西）提出了一种基于AI的个人知识库构建方法。/);
    expect(a).not.toMatch(/[:：](?!\s*$)/);
    const en = [
      'When it comes to SKILL.md, developers tend to fixate on the format and the spec.',
      'This article covers each one with working ADK code:',
      '',
      'Tool Wrapper: Make your agent an instant expert on any library',
      '',
      'By implementing explicit gate conditions, the Pipeline ensures an agent cannot bypass a complex task.',
    ].join('\n');
    const b = extractSummary(en).summary;
    expect(b).not.toContain('code: By');
    expect(b).not.toMatch(/:\s+[A-Z]/);
  });

  it('keeps a question quoted inside a sentence in that sentence', () => {
    const text =
      '受到生成对抗网络的启发，我设计了一个包含生成器和评估器智能体的多智能体结构。构建一个能够可靠地对输出进行评分的评估器，意味着首先需要开发一套标准，能够将“这个设计好吗？”等主观判断转化为具体的、可评分的条款。评估器按照这套标准给每一轮设计打分，生成器根据分数继续改进设计。\n';
    for (const maxChars of [80, 90, 100, 120]) {
      const { summary, keyPoints } = extractSummary(text, { maxChars });
      for (const piece of [summary, ...keyPoints]) {
        expect(piece).not.toMatch(/好吗？”$/);
        expect(piece).not.toMatch(/^等主观/);
        expect(piece).not.toContain('好吗？”评估器');
      }
    }
    // A reply quoted after a colon still ends its sentence.
    const reply = extractSummary('他问评估器：“这个设计好吗？”评估器给出了一个分数和三条具体的修改意见。\n');
    expect([reply.summary, ...reply.keyPoints].join('\n')).not.toContain('好吗？”评估器');
  });

  it('gives an opening quote to the sentence it opens', () => {
    const text =
      '嵌入模型经过训练，让意思相近的文本在向量空间里彼此靠近。"怎么给 PDF 旋转页面"和"把 PDF 文档的页面横过来"几乎没有相同的词，但它们的嵌入向量很接近。\n';
    const { summary, keyPoints } = extractSummary(text);
    const all = [summary, ...keyPoints].join('\n');
    expect(all).not.toMatch(/靠近。"(\s|$)/m);
    expect(all).toMatch(/(^|。)"怎么给 PDF 旋转页面"和/m);
  });

  it('reads comment lines wrapped before a capitalised word as one sentence', () => {
    const text = [
      'Merges several ranked result lists — typically one from BM25 keyword search',
      'and one from a vector database — into a single ranking. Introduced by',
      'Cormack, Clarke and Büttcher at SIGIR 2009.',
      '',
      'The constant k = 60 comes from the original paper and is the usual default.',
    ].join('\n');
    const { summary, keyPoints } = extractSummary(text);
    const all = [summary, ...keyPoints];
    expect(all.join('\n')).toContain('Introduced by Cormack, Clarke and Büttcher at SIGIR 2009.');
    expect(all.some((s) => s.startsWith('Cormack'))).toBe(false);
    // A heading-like line above a paragraph is not run into it.
    const md =
      'Five Agent Skill Design Patterns Every Developer Should Know\nWhen it comes to skills, the format matters least.\n';
    expect(extractSummary(md).summary).not.toContain('Know When');
  });

  it('does not open with the scene a story starts from', () => {
    const text = [
      '2026年的某一天，Windows自动升级后，我的电脑被锁了。',
      '我开源这个项目，主要是想分享一个思路：如何用AI辅助开发剪贴板工具，并把剪贴板、AI和云同步结合起来。',
      'ClipGenius 是一个带 AI 分类和云同步的 Linux 剪贴板管理器。',
    ].join('\n');
    expect(extractSummary(text).summary).not.toMatch(/^2026年的某一天/);
    const en =
      'One day last spring, my laptop refused to boot after an update.\nThis post explains how I built a clipboard manager for Linux with AI tagging and sync.\n';
    expect(extractSummary(en).summary).toMatch(/^This post explains/);
  });
});

describe('extractSummary: stories, pointers and code', () => {
  it('opens the summary of a story with what the title speaks of, not its scene', () => {
    const text = [
      '2026年的某一天，Windows自动升级后，我的电脑被锁了。',
      '不是病毒，不是硬件故障，而是微软的激活机制出了问题。',
      '折腾了几天，各种方法都试过，最后还是没能解决问题，只好换了系统。',
      '在Linux上，好用的剪贴板工具太少，于是我自己做了一个开源的剪贴板工具，叫ClipGenius。',
      'ClipGenius 用 AI 给剪贴板内容分类，并在设备之间同步剪贴板历史。',
    ].join('\n\n');
    const { summary } = extractSummary(text, { title: '找不到好用的Linux剪贴板，我做了个开源版本' });
    expect(summary).not.toMatch(/^(2026年|不是病毒)/);
    expect(summary).toMatch(/^(在Linux上|ClipGenius)/);
  });

  it('keeps a sentence whose subject points back only right after the sentence it points to', () => {
    const text = [
      '支架设计（Harness design）是提升智能体编程性能的关键，本文讲规划器、生成器和评估器三个智能体如何分工。',
      '规划器把一句话的需求扩展成完整的产品规格，生成器按冲刺逐个实现功能，评估器用浏览器测试每个功能。',
      '评估器的评分标准把主观的设计质量变成可以打分的条款，这让生成器的输出不断改进。',
      '中间隔着一段关于成本的讨论，说明每次运行要花几个小时和几百美元，模型的能力决定了哪些部件还有必要。',
      '因为我曾要求规划器加入 AI 功能，该应用程序还让规划器、生成器和评估器这三个智能体通过提示生成功能。',
    ].join('\n\n');
    const { summary } = extractSummary(text, { title: 'Harness 设计' });
    expect(summary).not.toContain('该应用程序');
  });

  it('keeps inline code as code, so link syntax in it is never read as a link', () => {
    const text =
      '在 Obsidian 这样的软件里，卢曼手写的编号变成了维基链接，写作 `[[倒数排名融合]]`，字段名写作 `source_ref`，都由软件自动解析。';
    const { summary } = extractSummary(text, { title: '卡片盒笔记法' });
    expect(summary).toContain('`[[倒数排名融合]]`');
    expect(summary).toContain('`source_ref`');
  });
});

describe("extractSummary: a docs toolchain's markup and a clause that points to a list", () => {
  it('reads what a container holds without its fence, and ends a clause that pointed to a list where the list began', () => {
    const md = [
      '# Server-Side Rendering',
      '',
      ':::tip Note',
      'SSR specifically refers to front-end frameworks that run the same application in Node.js and hydrate it on the client.',
      ':::',
      '',
      'This guide aims to help you identify and fix common rendering issues, such as:',
      '',
      '- slow server starts',
      '- large pages',
      '',
      '[guide]: https://example.com/guide',
    ].join('\n');
    const { summary } = extractSummary(md, { title: 'Server-Side Rendering' });
    expect(summary).not.toContain(':::');
    expect(summary).toContain('common rendering issues.');
    expect(summary).not.toMatch(/such as/);
    expect(summary).not.toContain('https://example.com/guide');
  });
});
