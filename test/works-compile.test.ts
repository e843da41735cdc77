import { afterEach, describe, expect, it } from 'vitest';
import { renameSync, rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fixture, writeFile, runKbIn } from './helpers.js';
import { startFakeAnthropic, userPrompt, type FakeAnthropic } from './fake-anthropic.js';
import { claude } from './model-fixtures.js';
import { scanWiki } from '../src/entry/wiki.js';
import { entryValidator, schemaErrors } from '../src/entry/validate.js';

const post = (title: string, date: string, body: string) => `${title}\n\n${date}\n\n${body}\n`;
const HARNESS = post(
  'Harness design for long-running agents',
  'Wed, 08 Apr 2026 00:00:00 +0000',
  'A planner, a generator and an evaluator split the work of a long-running agent. The evaluator grades each sprint\nagainst the product spec, and the generator fixes what it finds. The evaluator drives Playwright MCP to click\nthrough the app. Playwright MCP sees the page as a user does.',
);
const feedA = (harness = HARNESS) =>
  [
    'Notes on Example\n',
    post(
      'Vector search in SQLite',
      'Mon, 06 Apr 2026 00:00:00 +0000',
      'SQLite with sqlite-vec stores embeddings next to the text. A vector index answers nearest-neighbour queries. Playwright MCP tests the search page end to end. With Playwright MCP a test clicks like a user.',
    ),
    harness,
  ].join('\n');
// The same post in another blog's export: other line wrapping, same words.
const feedB = (harness = HARNESS.replace('sprint\nagainst', 'sprint against')) =>
  [
    '另一个博客\n',
    post(
      '中文分词与检索',
      'Tue, 07 Apr 2026 00:00:00 +0000',
      '中文分词是全文检索的第一步。没有中文分词，倒排索引很难处理中文。',
    ),
    harness,
  ].join('\n');

function sources(root: string) {
  return scanWiki(join(root, 'wiki')).entries.filter((e) => e.fm.kind === 'source');
}

function harness(root: string) {
  return sources(root).filter((e) => e.fm.title === 'Harness design for long-running agents');
}

/** A rewrite the size+mtime shortcut sees (as a later save would). */
function touchLater(root: string, p: string) {
  const t = Date.now() / 1000 + 5;
  utimesSync(join(root, p), t, t);
}

async function kb(root: string, ...args: string[]) {
  const r = await runKbIn(args, { cwd: root });
  expect(r.code, `kb ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r;
}

/** Lint as JSON: every finding, so a test can say "clean". */
async function findings(root: string): Promise<{ ruleId: string; file: string }[]> {
  const r = await runKbIn(['lint', '--json'], { cwd: root });
  return (JSON.parse(r.stdout) as { findings: { ruleId: string; file: string; severity: string }[] }).findings.filter(
    (f) => f.severity !== 'info',
  );
}

describe('a work saved in two files (CLI)', () => {
  it('is one source entry citing both copies; an edit that makes them differ splits it; a deleted copy leaves it', async () => {
    const root = fixture({ 'raw/a.txt': feedA(), 'raw/b.txt': feedB() });
    await kb(root, 'compile');
    expect(
      sources(root)
        .map((e) => e.fm.title)
        .sort(),
    ).toEqual(['Harness design for long-running agents', 'Vector search in SQLite', '中文分词与检索']);
    const [one] = harness(root);
    expect(one!.fm.source_ref.sort()).toEqual([
      'raw/a.txt#harness-design-for-long-running-agents',
      'raw/b.txt#harness-design-for-long-running-agents',
    ]);
    expect(Object.keys(one!.fm.source_hashes ?? {}).sort()).toEqual(['raw/a.txt', 'raw/b.txt']);
    const validate = entryValidator(root);
    for (const e of scanWiki(join(root, 'wiki')).entries) expect(schemaErrors(validate, e.fm), e.path).toEqual([]);
    expect(await findings(root)).toEqual([]);
    const status = JSON.parse((await kb(root, 'status', '--json')).stdout) as { sources: Record<string, unknown> };
    expect(status.sources).toMatchObject({ total: 2, compiled: 2, pending: 0, stale: 0 });
    const id = one!.fm.id;
    const path = one!.path;

    // One copy edited so that it says something else: two works, two entries; the untouched copy keeps the entry.
    writeFile(
      root,
      'raw/b.txt',
      feedB(
        post(
          'Harness design for long-running agents',
          'Wed, 08 Apr 2026 00:00:00 +0000',
          'This copy was rewritten: context resets replace compaction, and the evaluator runs Playwright.',
        ),
      ),
    );
    touchLater(root, 'raw/b.txt');
    await kb(root, 'compile');
    const two = harness(root);
    expect(two).toHaveLength(2);
    const kept = two.find((e) => e.fm.id === id)!;
    expect(kept.path).toBe(path);
    expect(kept.fm.source_ref).toEqual(['raw/a.txt#harness-design-for-long-running-agents']);
    expect(two.find((e) => e.fm.id !== id)!.fm.source_ref).toEqual([
      'raw/b.txt#harness-design-for-long-running-agents',
    ]);
    expect(await findings(root)).toEqual([]);

    // The copies agree again: one entry, the one that was kept.
    writeFile(root, 'raw/b.txt', feedB());
    touchLater(root, 'raw/b.txt');
    await kb(root, 'compile');
    expect(harness(root).map((e) => e.fm.id)).toEqual([id]);
    expect(harness(root)[0]!.fm.source_ref).toHaveLength(2);

    // A copy's file deleted: the entry stays, with the other copy alone, under its id and file name.
    rmSync(join(root, 'raw/a.txt'));
    await kb(root, 'compile');
    const left = harness(root);
    expect(left.map((e) => [e.fm.id, e.path])).toEqual([[id, path]]);
    expect(left[0]!.fm.source_ref).toEqual(['raw/b.txt#harness-design-for-long-running-agents']);
    expect(Object.keys(left[0]!.fm.source_hashes ?? {})).toEqual(['raw/b.txt']);
    expect(sources(root).map((e) => e.fm.title)).not.toContain('Vector search in SQLite');
    expect(await findings(root)).toEqual([]);

    // Back again, then the other file renamed: still one entry, the same one.
    writeFile(root, 'raw/a.txt', feedA());
    await kb(root, 'compile');
    expect(harness(root).map((e) => e.fm.id)).toEqual([id]);
    renameSync(join(root, 'raw/b.txt'), join(root, 'raw/c.txt'));
    await kb(root, 'compile');
    const renamed = harness(root);
    expect(renamed.map((e) => [e.fm.id, e.path])).toEqual([[id, path]]);
    expect(renamed[0]!.fm.source_ref.sort()).toEqual([
      'raw/a.txt#harness-design-for-long-running-agents',
      'raw/c.txt#harness-design-for-long-running-agents',
    ]);
    expect(await findings(root)).toEqual([]);
  }, 600_000);

  it('keeps two posts that only share a short title apart', async () => {
    const root = fixture({
      'raw/a.txt': [
        'Blog A\n',
        post('Notes', 'Mon, 06 Apr 2026 00:00:00 +0000', 'Monday: the planner writes the spec before any code.'),
        post('Other', 'Tue, 07 Apr 2026 00:00:00 +0000', 'Something else entirely, about sqlite-vec.'),
      ].join('\n'),
      'raw/b.txt': [
        'Blog B\n',
        post('Notes', 'Mon, 06 Apr 2026 00:00:00 +0000', 'Tuesday: the evaluator grades a sprint with Playwright.'),
        post('More', 'Tue, 07 Apr 2026 00:00:00 +0000', '中文分词是全文检索的第一步。'),
      ].join('\n'),
    });
    await kb(root, 'compile');
    const notes = sources(root).filter((e) => e.fm.title === 'Notes');
    expect(notes).toHaveLength(2);
    expect(notes.map((e) => e.fm.source_ref).sort()).toEqual([['raw/a.txt#notes'], ['raw/b.txt#notes']]);
    expect(await findings(root)).toEqual([]);
  }, 120_000);
});

describe('a work saved in two files, with the model', () => {
  let fake: FakeAnthropic | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('is written once: one source call for the two copies, one entry citing both', async () => {
    // The model names a concept both posts discuss (its concepts are the ones the entries name).
    fake = await startFakeAnthropic((req) => {
      const r = claude(req);
      const text = r.text?.replace(
        /<entities>[\s\S]*?<\/entities>/,
        '<entities><entity name="Playwright MCP" kind="tool"></entity></entities>',
      );
      return text === undefined ? r : { ...r, text };
    });
    const root = fixture({ 'raw/a.txt': feedA(), 'raw/b.txt': feedB() });
    const env = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url };
    const r = await runKbIn(['compile'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    const sourceCalls = (anchor: string) =>
      fake!.messages().filter((m) => new RegExp(`<source path="raw/[ab]\\.txt#${anchor}"`).test(userPrompt(m)));
    expect(sourceCalls('harness-design-for-long-running-agents')).toHaveLength(1);
    expect(sourceCalls('vector-search-in-sqlite')).toHaveLength(1);
    const copies = sources(root).filter((e) =>
      e.fm.source_ref.some((ref) => ref.endsWith('#harness-design-for-long-running-agents')),
    );
    expect(copies).toHaveLength(1);
    expect(copies[0]!.fm.source_ref).toHaveLength(2);
    expect(copies[0]!.fm.compiled_by).toMatch(/^model:/);
    // A concept call quotes each passage of the work once, though the store holds it from both copies.
    expect(fake.messages().some((m) => userPrompt(m).includes('<passage>'))).toBe(true);
    for (const m of fake.messages()) {
      const passages = [...userPrompt(m).matchAll(/<passage>\n([\s\S]*?)\n<\/passage>/g)].map((x) => x[1]);
      expect(new Set(passages).size).toBe(passages.length);
    }

    // The other file edited elsewhere: its copy of the work is not sent again.
    const calls = fake.messages().length;
    writeFile(root, 'raw/b.txt', feedB().replace('第一步。', '第一步，也是最重要的一步。'));
    touchLater(root, 'raw/b.txt');
    const again = await runKbIn(['compile'], { cwd: root, env });
    expect(again.code, again.stderr).toBe(0);
    const more = fake.messages().slice(calls);
    expect(more.some((m) => userPrompt(m).includes('#harness-design-for-long-running-agents"'))).toBe(false);
    expect(more.some((m) => userPrompt(m).includes('<source path="raw/b.txt#中文分词与检索"'))).toBe(true);
  }, 240_000);
});
