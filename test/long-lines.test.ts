import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { scanWiki } from '../src/entry/wiki.js';
import { entryValidator, schemaErrors } from '../src/entry/validate.js';
import { fixture, listTree, read, runKb, runKbIn } from './helpers.js';

/*
 * One long line must not stall a compile: every text pass is linear. These inputs each made some
 * pass quadratic (200,000 `x` took 64 s in the entity extractor; `[[[[…` minutes in the linker).
 * No timing is asserted: the per-test timeout is a generous guard, minutes below what they took.
 */
const N = 200_000;
const LINES: Record<string, string> = {
  letters: 'x'.repeat(N),
  capitals: 'X'.repeat(N),
  camelCase: 'aB'.repeat(N / 2),
  hyphenated: 'a-'.repeat(N / 2),
  latinAccents: 'éA'.repeat(N / 2),
  hanThenLatin: '中A'.repeat(N / 2),
  han: '检索增强生成向量数据库中文分词'.repeat(N / 15),
  stars: '*'.repeat(N),
  brackets: '['.repeat(N),
  wikilinkOpeners: '[['.repeat(N / 2),
  wikilinkPipes: '[[ab|'.repeat(N / 5),
  imageOpeners: '!['.repeat(N / 2),
  linkOpeners: '[a]('.repeat(N / 4),
  angleBrackets: '<'.repeat(N),
  commentOpeners: '<!--'.repeat(N / 4),
  underscores: '_'.repeat(N),
  punctuation: '*[(`<_'.repeat(N / 6),
  spacesInside: `a${' '.repeat(N)}b`,
  abbreviationAfterLetters: `检索（${'a'.repeat(N)}`,
  headingSpaces: `# a${' '.repeat(N)}b`,
  headingBrackets: `# ${'[['.repeat(N / 2)}`,
  headingUnderscores: `# ${'_'.repeat(N)}x`,
  subheadingSpaces: `# T\n\n## a${' '.repeat(N)}b\n\nText.`,
  blankLinesInCode: `x${'\n'.repeat(N)}y`,
};

/** The passes run in a worker: one that hangs is stopped when the test times out, and fails it. */
let worker: Worker | undefined;
afterAll(async () => {
  await worker?.terminate();
});

interface PassResult {
  results: { path: string; rules: string[]; title?: string; summary?: string; chunks?: number; vectors?: number }[];
  linked: number;
  resolved: number;
}

function runPasses(name: string, line: string, timeoutMs: number): Promise<PassResult> {
  worker ??= new Worker(new URL('./text-passes-worker.mjs', import.meta.url));
  const w = worker;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      worker = undefined;
      void w.terminate();
      reject(new Error(`${name}: the text passes took over ${timeoutMs / 1000} s on a ${line.length}-character line`));
    }, timeoutMs);
    // One listener of each at a time: a call's are removed when it ends, or the shared worker
    // gathers one per call (Node warns at eleven).
    const onMessage = (m: PassResult) => {
      clearTimeout(timer);
      w.off('error', onError);
      resolve(m);
    };
    const onError = (err: Error) => {
      clearTimeout(timer);
      w.off('message', onMessage);
      reject(err);
    };
    w.once('message', onMessage);
    w.once('error', onError);
    w.postMessage({ name, line });
  });
}

describe('a long line is compiled in linear time', () => {
  it.each(Object.entries(LINES))(
    '%s: ingest, offline entry, chunks, vectors, links',
    async (name, line) => {
      const { results, linked, resolved } = await runPasses(name, line, 60_000);
      for (const r of results) {
        // An HTML page that is all one unclosed comment has nothing to read, and says so.
        if (r.title === undefined) {
          expect(r.rules, r.path).toEqual(['ingest-empty']);
          continue;
        }
        expect(Array.from(r.title).length, r.path).toBeLessThanOrEqual(200);
        expect(r.summary!.length, r.path).toBeLessThan(2000);
        // A line of `*` is a thematic break: no chunk, and that is right.
        expect(r.vectors, r.path).toBe(r.chunks);
      }
      expect(linked).toBeGreaterThanOrEqual(line.length);
      expect(resolved).toBeLessThanOrEqual(line.length);
    },
    90_000,
  );
});

describe('kb compile with megabyte lines', () => {
  it('compiles a 3 MB line of letters, a long run of Han and of punctuation next to a normal note', async () => {
    const root = fixture({
      'raw/letters.md': 'x'.repeat(3 * 1024 * 1024),
      'raw/han.txt': '检索增强生成向量数据库中文分词知识库'.repeat(20_000),
      'raw/punctuation.md': '*[(<!--_`'.repeat(110_000),
      'raw/garden.md':
        '# Garden Notes\n\nTomatoes need sun and water every day. Retrieval Augmented Generation (RAG) helps nobody grow tomatoes.\n',
    });
    const r = await runKb(['compile'], { cwd: root, timeoutMs: 170_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/4 new, 0 updated/);
    const scan = scanWiki(join(root, 'wiki'));
    const validate = entryValidator(root);
    const sources = scan.entries.filter((e) => e.fm.kind === 'source');
    expect(sources.map((e) => (e.fm.source_ref ?? [])[0]).sort()).toEqual([
      'raw/garden.md',
      'raw/han.txt',
      'raw/letters.md',
      'raw/punctuation.md',
    ]);
    for (const e of scan.entries) {
      expect(schemaErrors(validate, e.fm), e.path).toEqual([]);
      expect(e.path.length, e.path).toBeLessThan(260);
      // An entry says what a source is; it does not copy a megabyte line.
      expect(Buffer.byteLength(read(root, `wiki/${e.path}`)), e.path).toBeLessThan(64 * 1024);
    }
    expect(read(root, 'wiki/index.md')).toContain('[[Garden Notes]]');
    const search = await runKbIn(['search', 'tomatoes'], { cwd: root });
    expect(search.stdout).toMatch(/Garden Notes/);
    const again = await runKbIn(['compile'], { cwd: root, timeoutMs: 170_000 });
    expect(again.stdout).toMatch(/0 new, 0 updated, 4 unchanged/);
    expect(listTree(join(root, 'wiki')).filter((f) => f.startsWith('sources/'))).toHaveLength(4);
  }, 180_000);
});
