import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeKb, openKb, type KbContext } from '../kb/context.js';
import { LocalEmbedder } from '../embed/index.js';
import { bodyHash, stringifyEntry } from '../entry/frontmatter.js';
import type { EntryFrontmatter, EntryId } from '../types.js';
import { reindexEntry } from './reindex.js';

let ctx: KbContext | undefined;
afterEach(() => {
  if (ctx) closeKb(ctx);
  ctx = undefined;
});

function entry(
  id: string,
  kind: 'source' | 'concept' | 'answer',
  title: string,
  body: string,
  hash = bodyHash(body),
): string {
  const fm: EntryFrontmatter = {
    id: id as EntryId,
    kind,
    title,
    aliases: [],
    summary: `About ${title}.`,
    source_ref: [],
    entities: [],
    backlinks: [],
    version: 1,
    last_heal_timestamp: '',
    content_hash: hash,
  };
  return stringifyEntry(fm, body);
}

describe('reindexEntry', () => {
  it("indexes a hand-written answer and a person's edit without touching the files; repeated events cost nothing", async () => {
    const root = mkdtempSync(join(tmpdir(), 'kb-reindex-'));
    mkdirSync(join(root, 'wiki/answers'), { recursive: true });
    mkdirSync(join(root, 'wiki/concepts'), { recursive: true });
    ctx = openKb(root, { embedder: new LocalEmbedder(64) });
    const seen = new Map<string, string>();

    const conceptBody = '# Vector Database\n\nStores embeddings.\n';
    writeFileSync(
      join(root, 'wiki/concepts/Vector Database.md'),
      entry('concept/vector-database', 'concept', 'Vector Database', conceptBody),
    );
    expect(await reindexEntry(ctx, 'concepts/Vector Database.md', seen)).toMatchObject({
      status: 'indexed',
      humanEdited: false,
    });

    const answerPath = join(root, 'wiki/answers/Note.md');
    const text = entry(
      'answer/note',
      'answer',
      'Note',
      '# Note\n\nPangolin facts, see [[Vector Database]].\n',
      'not-the-hash',
    );
    writeFileSync(answerPath, text);
    expect(await reindexEntry(ctx, 'answers/Note.md', seen)).toMatchObject({
      status: 'indexed',
      id: 'answer/note',
      humanEdited: true,
    });
    expect(readFileSync(answerPath, 'utf8')).toBe(text);
    expect(ctx.store.linksFrom('answer/note')).toEqual(['concept/vector-database']);
    expect(ctx.store.getEntry('answer/note')).toMatchObject({
      human_edited: true,
      content_hash: 'not-the-hash',
      path: 'answers/Note.md',
    });
    expect(
      ctx.store
        .chunksOfEntry('answer/note')
        .map((c) => c.text)
        .join(' '),
    ).toContain('Pangolin');
    expect(await reindexEntry(ctx, 'answers/Note.md', seen)).toEqual({ status: 'unchanged', id: 'answer/note' });

    writeFileSync(join(root, 'wiki/answers/Plain.md'), '# Just a page\n');
    expect(await reindexEntry(ctx, 'answers/Plain.md', seen)).toMatchObject({ status: 'ignored' });

    rmSync(answerPath);
    expect(await reindexEntry(ctx, 'answers/Note.md', seen)).toEqual({ status: 'removed', id: 'answer/note' });
    expect(ctx.store.getEntry('answer/note')).toBeUndefined();
    rmSync(join(root, 'wiki/concepts/Vector Database.md'));
    expect(await reindexEntry(ctx, 'concepts/Vector Database.md', seen)).toMatchObject({ status: 'kept' });
    expect(await reindexEntry(ctx, 'answers/Never There.md', seen)).toEqual({ status: 'gone' });
  });
});
