import { describe, expect, it } from 'vitest';
import { extractEntities } from './entities.js';

const names = (md: string) => extractEntities(md, 'Untitled').map((e) => e.surface);
const keys = (md: string) => extractEntities(md, 'Untitled').map((e) => e.key);

describe('extractEntities: noise words', () => {
  it('takes no labels, log levels, literals, verbs or UI text for concepts', () => {
    const md = [
      'Chapter 3 explains the setup. Chapter 4 explains the rest. See Listing 2 and Listing 5.',
      'Click Create to start. Click Create again to add another vector database.',
      'The function returns None when nothing matches; None is also the default.',
      'Each finding has a level: error, info or warning. An error must be fixed, info can be ignored.',
      'The vector database provides fast search. The vector database provides filters too.',
    ].join('\n\n');
    const found = names(md).map((n) => n.toLowerCase());
    for (const noise of ['chapter', 'listing', 'click create', 'none', 'error', 'info', 'warning', 'provides', 'click'])
      expect(found).not.toContain(noise);
    expect(found).toContain('vector database');
  });

  it('keeps an abbreviation in capitals mentioned once, not a capitalised word or a two-letter one', () => {
    const md =
      'A vector database indexes embeddings with HNSW. RAG systems query the vector database first. An AI helps.';
    const found = names(md);
    expect(found).toContain('RAG');
    expect(found).toContain('HNSW');
    expect(found).not.toContain('AI');
    expect(found).not.toContain('An');
  });

  it('keeps Chinese nouns and runs of nouns, never a verb, a particle or a piece of a word', () => {
    const md = [
      '我们用工具生成文档字符串。生成文档字符串的代码很短，文档字符串中的代码示例也要检查。',
      '随着模型变强，这意味着向量数据库更重要。向量数据库中的代码索引意味着更快的检索。',
      '上下文焦虑会让模型提前收尾。上下文焦虑在长任务中很常见。',
    ].join('\n\n');
    const found = names(md);
    for (const noise of ['文档字符', '档字符串', '中的代码', '随着模型', '意味着', '会发生'])
      expect(found).not.toContain(noise);
    expect(found).toContain('文档字符串');
    expect(found).toContain('向量数据库');
    expect(found).toContain('上下文焦虑');
  });

  it('takes the term before a translation in parentheses, without the verb in front of it', () => {
    const md =
      '这篇论文受到生成对抗网络（GANs）的启发。生成对抗网络在图像领域很常见。\n\n问题分级：必须修复（error）和可以考虑（info）。';
    const found = extractEntities(md, 'x');
    const gan = found.find((e) => e.surface === '生成对抗网络');
    expect(gan?.aliases).toContain('GANs');
    expect(found.map((e) => e.surface)).not.toContain('受到生成对抗网络');
    expect(found.map((e) => e.surface)).not.toContain('必须修复');
  });

  it('finds English noun phrases and proper names with the tagger', () => {
    const md =
      'Context anxiety appears late in a session. Models show context anxiety near the limit. ClipGenius keeps a clipboard history, and ClipGenius syncs it.';
    const found = keys(md);
    expect(found).toContain('context anxiety');
    expect(names(md)).toContain('ClipGenius');
  });

  it('counts a short name only as a whole word', () => {
    const md =
      'A critical review (CR) found two issues. The CR was short. It is critical that circles around a Round table stay round.';
    const cr = extractEntities(md, 'x').find((e) => e.key === 'critical review' || e.key === 'cr');
    expect(cr).toBeDefined();
    // "critical" does not count as a mention of CR, and a snippet about CR mentions CR.
    for (const s of cr!.snippets) expect(/\bCR\b|critical review/i.test(s)).toBe(true);
    expect(cr!.snippets.some((s) => s.startsWith('It is critical'))).toBe(false);
  });

  it('reads Traditional Chinese with the Simplified dictionary and keys both spellings alike', () => {
    const trad = extractEntities('所有權規則決定誰能修改。所有權規則寫在設定檔裡。', 'x');
    const simp = extractEntities('所有权规则决定谁能修改。所有权规则写在配置文件里。', 'x');
    const t = trad.find((e) => e.surface === '所有權規則');
    expect(t).toBeDefined();
    expect(simp.find((e) => e.surface === '所有权规则')?.key).toBe(t!.key);
  });
});
