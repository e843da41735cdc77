import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KbContext } from '../kb/context.js';
import { setFrontmatterKey } from '../entry/frontmatter.js';
import { compile } from '../compile/compile.js';
import { saveAnswer } from '../ask/save.js';
import { fixture, REPO } from '../../test/helpers.js';
import { testContext } from '../../test/ask-helpers.js';
import { entryChunkText, indexEntries, summaryKey, summaryText, type IndexEntry } from './entries.js';

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

/** Every text the context's embedder is given from now on. */
function recordEmbeds(ctx: KbContext): string[] {
  const embedded: string[] = [];
  const fake = ctx.embedder;
  ctx.embedder = {
    ...fake,
    embed: (texts, signal) => {
      embedded.push(...texts);
      return fake.embed(texts, signal);
    },
  };
  return embedded;
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

  it('an entry rewritten only for its Backlinks section keeps its chunks and vectors: nothing embedded again', async () => {
    const ctx = testContext(fixture());
    const embedded = recordEmbeds(ctx);
    const body = (backlinks: string, extra = '') =>
      `# RAG\n\nRetrieval then generation.${extra}\n\n<!-- kb:backlinks -->\n## Backlinks\n\n${backlinks}\n<!-- /kb:backlinks -->\n`;
    const rag = (text: string) => entry({ id: 'concept/rag', kind: 'concept', title: 'RAG', body: () => text });
    await indexEntries(ctx, [rag(body('- [[A]]\n- [[B]]'))]);
    const before = ctx.store.chunksOfEntry('concept/rag');
    embedded.length = 0;

    await indexEntries(ctx, [rag(body('- [[A]]'))]);
    expect(embedded).toEqual([]);
    expect(ctx.store.chunksOfEntry('concept/rag')).toEqual(before);

    // Its own text changed: its chunks are made again, the summary vector (same summary) is kept.
    await indexEntries(ctx, [rag(body('- [[A]]', ' Then citation.'))]);
    const after = ctx.store.chunksOfEntry('concept/rag');
    expect(after.map((c) => c.text).join('\n')).toContain('Then citation.');
    expect(embedded).toEqual(after.map((c) => entryChunkText('RAG', c.text)));
    ctx.store.close();
  });

  it('a compile after a delete embeds again only what changed, not entries rewritten for their backlinks', async () => {
    const sample = [
      'articles/retrieval-augmented-generation-primer.md',
      'articles/embeddings-and-vector-databases.md',
      'clips/Hybrid Search with Reciprocal Rank Fusion.md',
      'notes/sqlite-fts5-and-sqlite-vec.md',
      'zh/混合检索与倒数排名融合.md',
      'zh/中文分词与全文检索.md',
    ];
    const root = fixture(Object.fromEntries(sample.map((f) => [`raw/${f}`, readFileSync(join(REPO, 'raw', f))])));
    const ctx = testContext(root);
    const embedded = recordEmbeds(ctx);
    await compile(ctx);
    const state = () =>
      new Map(
        ctx.store.allEntries().map((e) => [
          e.id,
          {
            file: readFileSync(join(root, 'wiki', e.path), 'utf8'),
            summary: summaryText(e),
            title: e.title,
            chunks: ctx.store.chunksOfEntry(e.id),
          },
        ]),
      );
    const before = state();
    embedded.length = 0;

    rmSync(join(root, 'raw', sample[2]!));
    await compile(ctx);
    const after = state();
    const rewritten = [...after].filter(([id, a]) => before.has(id) && before.get(id)!.file !== a.file);
    const sameSummary = rewritten.filter(([id, a]) => before.get(id)!.summary === a.summary);
    // Passages of rewritten concepts that were there before, as they were: same row, not embedded again.
    const kept = rewritten.flatMap(([id, a]) =>
      a.chunks
        .filter((c) => before.get(id)!.chunks.some((o) => o.heading === c.heading && o.text === c.text))
        .map((c) => ({ id, title: a.title, c, was: before.get(id)!.chunks.find((o) => o.text === c.text)! })),
    );
    expect(sameSummary.length).toBeGreaterThan(0);
    expect(kept.length).toBeGreaterThan(0);
    for (const [id, a] of sameSummary) expect(embedded, id).not.toContain(a.summary);
    for (const k of kept) {
      expect(k.c.id, k.id).toBe(k.was.id);
      expect(embedded, k.id).not.toContain(entryChunkText(k.title, k.c.text));
    }
    ctx.store.close();
  });
  it('a summary vector made ahead of its entry (compile, while ingesting) is used, not embedded again; one under another embedder is not', async () => {
    const ctx = testContext(fixture());
    const embedded = recordEmbeds(ctx);
    const a = entry({ id: 'source/a', kind: 'source', title: 'A' });
    const b = entry({ id: 'source/b', kind: 'source', title: 'B' });
    const ahead = new Float32Array(ctx.embedder.dims);
    ahead[3] = 1;
    ctx.store.putPendingVector(summaryKey(ctx.embedder.fingerprint, summaryText(a)), ahead);
    ctx.store.putPendingVector(summaryKey('another:embedder', summaryText(b)), ahead);
    await indexEntries(ctx, [a, b]);
    expect(same(ctx.store.entryVector('source/a'), ahead)).toBe(true);
    expect(embedded).toEqual([summaryText(b)]);
    expect(same(ctx.store.entryVector('source/b'), ahead)).toBe(false);
    ctx.store.clearPendingDrafts();
    expect(ctx.store.pendingVector(summaryKey(ctx.embedder.fingerprint, summaryText(a)))).toBeUndefined();
    ctx.store.close();
  });

  it("compile embeds each source entry's summary once, while ingesting, as the text its entry is indexed by", async () => {
    const sample = ['articles/retrieval-augmented-generation-primer.md', 'zh/中文分词与全文检索.md'];
    const root = fixture(Object.fromEntries(sample.map((f) => [`raw/${f}`, readFileSync(join(REPO, 'raw', f))])));
    const ctx = testContext(root);
    const batches: string[][] = [];
    const fake = ctx.embedder;
    ctx.embedder = {
      ...fake,
      embed: (texts, signal) => {
        batches.push(texts);
        return fake.embed(texts, signal);
      },
    };
    await compile(ctx);
    const sources = ctx.store.allEntries().filter((e) => e.kind === 'source');
    expect(sources).toHaveLength(2);
    for (const e of sources) {
      const withIt = batches.filter((b) => b.includes(summaryText(e)));
      expect(withIt.flat().filter((t) => t === summaryText(e))).toHaveLength(1);
      // In the call that embeds its document's passages (this embedder is no local one: no thread embeds them).
      expect(withIt[0]!.some((t) => t !== summaryText(e) && t.startsWith(`${e.title}\n`))).toBe(true);
      const [want] = await ctx.embedder.embed([summaryText(e)]);
      expect(same(ctx.store.entryVector(e.id), want), e.id).toBe(true);
    }
    // Emptied once the run has written the wiki.
    for (const e of sources)
      expect(ctx.store.pendingVector(summaryKey(ctx.embedder.fingerprint, summaryText(e)))).toBeUndefined();
    ctx.store.close();
  });
});
