import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeKb, openKb, storeOnDisk, type KbContext } from '../kb/context.js';
import { LocalEmbedder } from '../embed/index.js';
import { defaultConfigText } from '../init/init.js';
import { findEntry, saveTool, searchTool, statusTool } from './tools.js';

let ctx: KbContext | undefined;
afterEach(() => {
  if (ctx) closeKb(ctx);
  ctx = undefined;
});

describe('findEntry', () => {
  it('finds an entry by id, title, file name, wiki path, [[link]] or alias, case-insensitively', () => {
    const root = mkdtempSync(join(tmpdir(), 'kb-mcp-unit-'));
    ctx = openKb(root, { embedder: new LocalEmbedder(64) });
    const row = { kind: 'concept', summary: '', source_ref: [], content_hash: 'h', human_edited: false, updated: 0 };
    ctx.store.putEntry(
      {
        ...row,
        id: 'concept/rag',
        title: 'Retrieval-Augmented Generation',
        path: 'concepts/Retrieval-Augmented Generation.md',
        aliases: ['RAG', '检索增强生成'],
      },
      [],
    );
    ctx.store.putEntry(
      { ...row, id: 'concept/x', title: 'X: a title', path: 'concepts/X a title.md', aliases: [] },
      [],
    );
    const table: [string, string | undefined][] = [
      ['concept/rag', 'concept/rag'],
      ['retrieval-augmented generation', 'concept/rag'],
      ['[[Retrieval-Augmented Generation]]', 'concept/rag'],
      ['wiki/concepts/Retrieval-Augmented Generation.md', 'concept/rag'],
      ['rag', 'concept/rag'],
      ['检索增强生成', 'concept/rag'],
      ['X: a title', 'concept/x'],
      ['X a title', 'concept/x'],
      ['nothing', undefined],
    ];
    for (const [name, id] of table) expect([name, findEntry(ctx, name)?.id]).toEqual([name, id]);
  });
});

describe('a server opened read-only', () => {
  it('makes no store while it only reads; the first save makes it, and a store made meanwhile is read', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kb-mcp-ro-'));
    mkdirSync(join(root, 'raw'));
    writeFileSync(join(root, 'kb.config.json'), defaultConfigText());
    const db = join(root, 'wiki', 'embeddings.db');
    ctx = openKb(root, { embedder: new LocalEmbedder(64), readOnly: true });
    const other = openKb(root, { embedder: new LocalEmbedder(64), readOnly: true });
    expect((await searchTool(ctx, { query: 'anything' })).entries).toEqual([]);
    expect(statusTool(ctx).entries.total).toBe(0);
    expect(existsSync(join(root, 'wiki'))).toBe(false);

    const saved = await saveTool(ctx, { title: 'What is kept?', content: 'What a person saves.' });
    expect(saved.path).toBe('wiki/answers/What is kept.md');
    expect(existsSync(db)).toBe(true);
    expect(ctx.store.getEntry(saved.id)?.title).toBe('What is kept?');

    // Another reader, opened before the store existed, reads it once it is there.
    expect(other.store.ephemeral).toBe(true);
    expect(storeOnDisk(other).getEntry(saved.id)?.title).toBe('What is kept?');
    closeKb(other);
  });
});
