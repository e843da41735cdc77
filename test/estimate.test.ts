import { afterEach, describe, expect, it } from 'vitest';
import { appendFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeAnthropic, userPrompt, type FakeAnthropic, type FakeRequest } from './fake-anthropic.js';
import { type FakeSdk, SDKS, startFakeSdk, systemPrompt, userContent } from './fake-sdks.js';
import { claude } from './model-fixtures.js';
import { fixture, REPO, runKb, runKbIn } from './helpers.js';
import { extractEntities } from '../src/compile/offline/entities.js';
import { countTokens } from '../src/text/tokens.js';

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/**
 * A model that writes a plain entry naming the nine names the text mentions most (what a
 * model names as a work's concepts), and concept entries as the shared fake does.
 */
function namer(req: FakeRequest) {
  const p = userContent(req);
  if (/<concept title=/.test(p)) return claude(req);
  const source = /<source path="[^"]*" type="[^"]*" title="([^"]*)"[^>]*>\n([\s\S]*?)\n<\/source>/.exec(p);
  const title = source?.[1] ?? 'Untitled';
  const names = source
    ? extractEntities(source[2]!, title)
        .filter((n) => !n.weak)
        .sort((a, b) => b.count - a.count)
        .slice(0, 9)
    : [];
  const entities = names
    .map((n) => `<entity name="${n.surface.replace(/[<&"]/g, '')}" kind="concept"></entity>`)
    .join('');
  // In the source's language, as the template asks.
  const zh = /\p{Script=Han}/u.test(source?.[2] ?? '') && (source![2]!.match(/\p{Script=Han}/gu) ?? []).length > 200;
  const t = title.replace(/[<&]/g, '');
  const [summary, body] = zh
    ? [`这篇文章讲解了${t}的主要内容和方法。`, '## 要点\n\n- 第一个要点。\n- 第二个要点。']
    : [`What ${t} explains, in a sentence or two.`, '## Key points\n\n- One point.\n- Another point.'];
  // An update adds a point on what changed to the entry it is given.
  const more = p.includes('<current_entry>') ? (zh ? '\n- 更新的要点。' : '\n- A point on what changed.') : '';
  return {
    text: `<kb_entry><title>${t}</title><summary>${summary}</summary><entities>${entities}</entities><body>${body}${more}</body></kb_entry>`,
  };
}

/** Input tokens of a request as sent: instructions, catalog and prompt, by kb's own counter. */
function sentTokens(req: FakeRequest): number {
  return countTokens(systemPrompt(req)) + countTokens(userContent(req));
}

/** The estimate of the next compile, then that compile: the calls and input tokens each counts. */
async function estimateThenCompile(root: string, sdk: FakeSdk) {
  const { env } = sdk;
  const e = await runKb(['compile', '--estimate', '--json'], { cwd: root, env });
  expect(e.code, e.stderr).toBe(0);
  const est = JSON.parse(e.stdout) as {
    sourceCalls: number;
    cachedCalls: number;
    conceptCalls: number;
    inputTokens: number;
  };
  const before = sdk.calls().length;
  const r = await runKbIn(['compile'], { cwd: root, env });
  expect(r.code, r.stderr).toBe(0);
  const sent = sdk.calls().slice(before);
  const prompts = sent.map(userContent);
  return {
    est,
    input: sent.reduce((n, m) => n + sentTokens(m), 0),
    sources: prompts.filter((p) => /<source path=|<part_notes/.test(p)).length,
    concepts: prompts.filter((p) => /<concept title=/.test(p)).length,
    updates: prompts.filter((p) => /<current_entry>/.test(p)).length,
    /** Source calls that update an entry: which raw files. */
    sourceUpdates: prompts
      .filter((p) => /<current_entry>/.test(p))
      .flatMap((p) => /<source path="raw\/([^"]*)"/.exec(p)?.[1] ?? []),
  };
}

describe.each(SDKS)('kb compile --estimate against what compile sends through the %s SDK', (sdk) => {
  let fakeSdk: FakeSdk | undefined;
  afterEach(async () => {
    await fakeSdk?.close();
    fakeSdk = undefined;
  });

  // What the SDK changes is how the calls are sent: a first compile shows the count holds for each
  // (the whole sample through the first; its articles and Chinese notes, 13 sources, through the
  // other). What an edit and an added source make compile send again is the same whichever SDK sends it.
  const later = sdk === SDKS[0];
  it(`predicts the calls, and the input tokens within ±20%, of a first compile of the sample knowledge base${later ? ', an edit and an added source' : ' (its articles and Chinese notes)'}`, async () => {
    fakeSdk = await startFakeSdk(sdk, namer);
    const root = fixture();
    if (later) cpSync(join(REPO, 'raw'), join(root, 'raw'), { recursive: true });
    else
      for (const dir of ['articles', 'zh']) cpSync(join(REPO, 'raw', dir), join(root, 'raw', dir), { recursive: true });
    const first = await estimateThenCompile(root, fakeSdk);
    expect(first.est.sourceCalls).toBe(first.sources);
    expect(Math.abs(first.est.conceptCalls - first.concepts) / first.concepts).toBeLessThanOrEqual(0.3);
    expect(Math.abs(first.est.inputTokens - first.input) / first.input).toBeLessThanOrEqual(0.2);
    if (!later) return;

    // Two sources edited: compile updates their entries and drafts only the concepts whose inputs
    // changed (the rest are kept as their last render left them), each call with its <current_entry>.
    const edit = (path: string, line: string) => appendFileSync(join(root, path), `\n${line}\n`);
    edit(
      'raw/articles/retrieval-augmented-generation-primer.md',
      'The term RAG was coined in a 2020 paper. Column order decides what a chunk holds. A wrong column order mixes two tables, and column order in scanned pages is the hardest to recover. Column order comes first.',
    );
    edit('raw/zh/向量数据库笔记.md', '向量数据库在2023年前后大量出现。');
    const edited = await estimateThenCompile(root, fakeSdk);

    expect(edited.updates).toBeGreaterThanOrEqual(2);
    expect(edited.est.sourceCalls).toBe(edited.sources);
    expect(Math.abs(edited.est.conceptCalls - edited.concepts)).toBeLessThanOrEqual(1);
    expect(Math.abs(edited.est.inputTokens - edited.input) / edited.input).toBeLessThanOrEqual(0.2);

    // A source added: its call, the concepts it joins, and the edited primer, whose links shift (a
    // concept of a name both give is made: column order): rendered again, it is updated from its entry (its file
    // is as last time, but the request that writes it from the file was never sent).
    appendFileSync(
      join(root, 'raw/notes/reading-pdfs.md'),
      '# Reading PDFs\n\nPDFs are the hardest sources for a personal knowledge base. PDFs keep their text in positioned runs, so a parser has to rebuild lines and paragraphs. Column order decides what a chunk holds. A wrong column order mixes tables, so column order comes first. Scanned PDFs need OCR before any large language model can read them. A large language model given a badly parsed PDF answers from broken sentences.\n',
    );
    const added = await estimateThenCompile(root, fakeSdk);
    expect(added.sourceUpdates).toContain('articles/retrieval-augmented-generation-primer.md');
    expect(added.est.sourceCalls - added.est.cachedCalls).toBe(added.sources);
    expect(Math.abs(added.est.inputTokens - added.input) / added.input).toBeLessThanOrEqual(0.2);
  }, 180_000);
});

describe('kb compile --estimate and the repairs it counts', () => {
  it('counts the repair rounds past compiles needed, and assumes a few before there are any', async () => {
    let n = 0;
    // Every third source reply fails its checks the first time; the repair round gets a good one.
    fake = await startFakeAnthropic((req) => {
      const p = userPrompt(req);
      if (/<source path=/.test(p) && !/<previous_reply>/.test(p) && ++n % 3 === 0)
        return { text: 'Sure! Here is the entry.' };
      return namer(req);
    });
    // The sample's articles and Chinese notes (13 sources, no image to read): what a repair is
    // counted from does not depend on the kind of file.
    const root = fixture();
    for (const dir of ['articles', 'zh']) cpSync(join(REPO, 'raw', dir), join(root, 'raw', dir), { recursive: true });
    const env = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url };
    type Est = { repairCalls: number; repairShare: number; repairShareMeasured: boolean };
    const before = JSON.parse((await runKb(['compile', '--estimate', '--json'], { cwd: root, env })).stdout) as Est;
    expect(before.repairShareMeasured).toBe(false);
    expect(before.repairShare).toBeGreaterThan(0);
    expect(before.repairCalls).toBeGreaterThan(0);
    const r = await runKbIn(['compile'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    const sent = fake.messages().map(userPrompt);
    const repairs = sent.filter((p) => /<previous_reply>/.test(p)).length;
    const firsts = sent.length - repairs;
    expect(repairs).toBeGreaterThan(3);
    // As a person reads it: measured, and of compile's own calls (sources, their parts, concepts)
    // close to what the fake saw.
    const text = (await runKb(['compile', '--estimate', '--force'], { cwd: root, env })).stdout;
    const said = /repair calls +~\d+ \((\d+)% of calls: as in past compiles\)/.exec(text);
    expect(said, text).not.toBeNull();
    expect(Number(said![1]) / 100).toBeCloseTo(repairs / firsts, 1);
  }, 180_000);
});
