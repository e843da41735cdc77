import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentsToCompile } from '../src/compile/model/plan.js';
import { InterruptedError } from '../src/diagnostics/errors.js';
import { LocalEmbedder } from '../src/embed/index.js';
import { closeKb, openKb } from '../src/kb/context.js';
import { sha256 } from '../src/util/hash.js';
import { fixture } from './helpers.js';
import { makePdf } from './pdf-fixtures.js';

describe('the model compile reads the changed files on the main thread', () => {
  it('stops on a signal in the middle of a long PDF, and keeps nothing of that reading', async () => {
    // 1,200 pages take pdf.js many seconds even on an idle machine: the signal comes first.
    const pages = Array.from(
      { length: 1200 },
      (_, i) => `Chapter ${i}\n${'The capybara is the largest rodent and lives near water. '.repeat(30)}`,
    );
    const pdf = await makePdf(pages, { title: 'Capybara Almanac' });
    const root = fixture({ 'raw/a.md': '# A\n\nA note.\n', 'raw/capybara.pdf': pdf });
    const ctx = openKb(root, { embedder: new LocalEmbedder(64) });
    try {
      const stop = new AbortController();
      const reading = documentsToCompile(ctx, 'model:test', false, stop.signal);
      setTimeout(() => stop.abort(), 500);
      await expect(reading).rejects.toBeInstanceOf(InterruptedError);
      const cache = ctx.paths.ingestCache;
      const kept = existsSync(cache)
        ? readdirSync(cache, { recursive: true })
            .map(String)
            .filter((f) => f.includes(sha256(pdf)))
        : [];
      expect(kept).toEqual([]);
      // Not stopped, the same call reads both files.
      const docs = await documentsToCompile(ctx, 'model:test', false);
      expect(docs.map((d) => d.title).sort()).toEqual(['A', 'Capybara Almanac']);
      expect(
        readdirSync(join(cache), { recursive: true })
          .map(String)
          .some((f) => f.includes(sha256(pdf))),
      ).toBe(true);
    } finally {
      closeKb(ctx);
    }
  }, 240_000);
});
