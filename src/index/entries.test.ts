import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setFrontmatterKey } from '../entry/frontmatter.js';
import { compile } from '../compile/compile.js';
import { saveAnswer } from '../ask/save.js';
import { fixture } from '../../test/helpers.js';
import { testContext } from '../../test/ask-helpers.js';
import { indexEntries, summaryText, type IndexEntry } from './entries.js';

function entry(over: Partial<IndexEntry> & { id: string; kind: string; title: string }): IndexEntry {
  return {
    path: `${over.kind}s/${over.title}.md`,
    aliases: [],
    summary: `${over.title} in one line.`,
    source_ref: [],
    content_hash: 'h',
    human_edited: false,
    updated: 1,
    links: [],
    body: () => `# ${over.title}\n\nBody of ${over.title}.\n`,
    ...over,
  };
}

const same = (a: Float32Array | undefined, b: Float32Array | undefined) =>
  Boolean(a && b && a.length === b.length && a.every((x, i) => x === b[i]));

describe('indexEntries', () => {
  it('writes rows, links, summary vectors and the chunks of concepts, not of sources; removes in the same run', async () => {
    const ctx = testContext(fixture());
    const concept = entry({
      id: 'concept/rag',
      kind: 'concept',
      title: 'RAG',
      aliases: ['检索增强生成'],
      links: ['source/a'],
      body: () =>
        '# RAG\n\nRetrieval then generation.\n\n<!-- kb:backlinks -->\n## Backlinks\n\n- [[A]]\n<!-- /kb:backlinks -->\n',
    });
    const source = entry({
      id: 'source/a',
      kind: 'source',
      title: 'A',
      links: ['concept/rag'],
      body: () => {
        throw new Error('a source body is never read');
      },
    });
    await indexEntries(ctx, [concept, source]);

    expect(ctx.store.getEntry('concept/rag')).toMatchObject({
      kind: 'concept',
      aliases: ['检索增强生成'],
      summary: 'RAG in one line.',
    });
    expect(ctx.store.linksFrom('concept/rag')).toEqual(['source/a']);
    expect(ctx.store.linksTo('concept/rag')).toEqual(['source/a']);
    const [want] = await ctx.embedder.embed([
      summaryText({ title: 'RAG', aliases: ['检索增强生成'], summary: 'RAG in one line.' }),
    ]);
    expect(same(ctx.store.entryVector('concept/rag'), want)).toBe(true);
    const chunks = ctx.store.chunksOfEntry('concept/rag');
    expect(chunks.map((c) => c.text).join('\n')).toContain('Retrieval then generation.');
    expect(chunks.map((c) => c.text).join('\n')).not.toContain('Backlinks');
    expect(ctx.store.chunksOfEntry('source/a')).toEqual([]);

    await indexEntries(ctx, [], { remove: ['concept/rag'] });
    expect(ctx.store.getEntry('concept/rag')).toBeUndefined();
    expect(ctx.store.chunksOfEntry('concept/rag')).toEqual([]);
    expect(ctx.store.getEntry('source/a')).toBeDefined();
    ctx.store.close();
  });

  it('an answer filed by `kb ask --save` gets its summary vector from the same text compile uses', async () => {
    const root = fixture({
      'raw/tides.md': '# Tides\n\nTides are the rise and fall of sea levels caused by the Moon and the Sun.\n',
    });
    const ctx = testContext(root);
    await compile(ctx);
    const tides = ctx.store.allEntries().find((e) => e.title === 'Tides')!;
    const [compiled] = await ctx.embedder.embed([summaryText(tides)]);
    expect(same(ctx.store.entryVector(tides.id), compiled)).toBe(true);

    const input = {
      question: 'What causes tides?',
      answer: 'The Moon pulls the sea [[Tides]].',
      citations: [{ id: tides.id, title: 'Tides', file: 'Tides' }],
      by: 'offline',
    };
    const first = await saveAnswer(ctx, input);
    // A person gives the answer other names; filing it again keeps them, and its vector carries them.
    const file = join(root, 'wiki', first.path);
    writeFileSync(file, setFrontmatterKey(readFileSync(file, 'utf8'), 'aliases', ['潮汐', 'tide cause'])!);
    const saved = await saveAnswer(ctx, input);
    const row = ctx.store.getEntry(saved.id)!;
    expect(row.aliases).toEqual(['潮汐', 'tide cause']);
    const [want] = await ctx.embedder.embed([summaryText(row)]);
    expect(same(ctx.store.entryVector(saved.id), want)).toBe(true);
    ctx.store.close();
  });
});
