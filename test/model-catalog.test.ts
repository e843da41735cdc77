import { afterEach, describe, expect, it } from 'vitest';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeReply, FakeRequest } from './fake-anthropic.js';
import { type FakeSdk, SDKS, startFakeSdk, systemPrompt, userContent } from './fake-sdks.js';
import { claude } from './model-fixtures.js';
import { fixture, runKb, runKbIn } from './helpers.js';
import { countTokens } from '../src/text/tokens.js';

/** Made-up names, one per concept: none sorts by another's number. */
const SYLLABLES = ['ka', 'ro', 'vi', 'mel', 'dus', 'tor', 'bex', 'lin'];
const names = Array.from(
  { length: 40 },
  (_, i) =>
    `${SYLLABLES[i % 8]!.toUpperCase()[0]}${SYLLABLES[i % 8]!.slice(1)}${SYLLABLES[(i >> 3) % 8]}${SYLLABLES[(i * 3) % 8]}`,
);
const title = (i: number) => `Topic ${String(i).padStart(2, '0')} notes`;

/**
 * Forty sources in a ring: source i names concepts i and i+1, so every concept has two sources
 * and every source two concepts. Their catalog (titles, aliases, one-line summaries) is longer
 * than a small model's catalog budget.
 */
function ring(): Record<string, string> {
  const files: Record<string, string> = {
    // A small context: the catalog budget is about 1,850 tokens, for both SDKs.
    'kb.config.json': JSON.stringify({ model: { contextTokens: 8192 } }),
  };
  for (let i = 0; i < 40; i++) {
    const [a, b] = [names[i]!, names[(i + 1) % 40]!];
    files[`raw/topic-${String(i).padStart(2, '0')}.md`] =
      `# ${title(i)}\n\nIn practice, ${a} and ${b} are compared in this note.\n\nThe team uses ${a} to plan the work, and ${b} checks the result afterwards. A review of ${a} and ${b} follows.\n`;
  }
  return files;
}

/** A model that writes each source's entry naming the two concepts it compares, and concept entries as the shared fake does. */
function ringModel(req: FakeRequest): FakeReply {
  const p = userContent(req);
  if (/<concept title=/.test(p)) return claude(req);
  const t = /<source path="[^"]*" type="[^"]*" title="([^"]*)"/.exec(p)?.[1] ?? 'Untitled';
  const named = names.filter((n) => new RegExp(`\\b${n}\\b`).test(p.slice(p.indexOf('<source '))));
  const entities = named.map((n) => `<entity name="${n}" kind="concept"></entity>`).join('');
  return {
    text: `<kb_entry><title>${t}</title><summary>A practical note that compares ${named.join(' and ')} on real work, with a worked example and what each one is good for.</summary><entities>${entities}</entities><body>## Key points\n\n- ${named.map((n) => `[[${n}]]`).join(' and ')} are compared.</body></kb_entry>`,
  };
}

/** The catalog entry line of an entry, as a request lists it. */
const entryOf = (kind: string, t: string) => `<entry kind="${kind}" title="${t}">`;

/** The part of a recorded call's system prompt up to the end of its first `<catalog>`: the prefix the API caches. */
function cachedPart(req: FakeRequest): string {
  const blocks = req.body?.system;
  if (Array.isArray(blocks)) {
    const cached = blocks.filter((b: { cache_control?: unknown }) => b.cache_control);
    expect(cached).toHaveLength(1);
    return (blocks as { text: string }[])
      .slice(0, blocks.indexOf(cached[0]) + 1)
      .map((b) => b.text)
      .join('\n\n');
  }
  const system = systemPrompt(req);
  return system.slice(0, system.indexOf('</catalog>') + '</catalog>'.length);
}

/** A compile, after `--estimate` said what it would send: the input tokens estimated and sent. */
async function compileEstimated(root: string, sdk: FakeSdk): Promise<{ est: number; sent: number }> {
  const e = await runKb(['compile', '--estimate', '--json'], { cwd: root, env: sdk.env });
  expect(e.code, e.stderr).toBe(0);
  const before = sdk.calls().length;
  const r = await runKbIn(['compile'], { cwd: root, env: sdk.env });
  expect(r.code, r.stderr).toBe(0);
  const sent = sdk
    .calls()
    .slice(before)
    .reduce((n, m) => n + countTokens(systemPrompt(m)) + countTokens(userContent(m)), 0);
  const est = (JSON.parse(e.stdout) as { inputTokens: number }).inputTokens;
  // The estimate counts what is sent, the related part of each call too.
  expect(Math.abs(est - sent) / sent).toBeLessThanOrEqual(0.2);
  return { est, sent };
}

describe.each(SDKS)('kb compile with the model through the %s SDK: a catalog longer than its budget', (sdk) => {
  let fakeSdk: FakeSdk | undefined;
  afterEach(async () => {
    await fakeSdk?.close();
    fakeSdk = undefined;
  });

  it('gives each call the entries related to it, after a cached prefix that is the same for every call', async () => {
    fakeSdk = await startFakeSdk(sdk, ringModel);
    const root = fixture(ring());
    await compileEstimated(root, fakeSdk);
    const conceptCalls = fakeSdk.calls().filter((m) => /<concept title=/.test(userContent(m)));
    expect(conceptCalls.length).toBeGreaterThanOrEqual(30);
    // The whole catalog does not fit: some entries are left out of the shared part.
    expect(cachedPart(conceptCalls[0]!)).toMatch(/more entries not shown/);
    for (const m of conceptCalls) {
      const concept = /<concept title="([^"]*)"/.exec(userContent(m))![1]!;
      const i = names.indexOf(concept);
      const system = systemPrompt(m);
      // Its sources, and the concepts sharing a source with it, reach the request.
      for (const t of [title(i), title((i + 39) % 40)]) expect(system, concept).toContain(entryOf('source', t));
      for (const n of [names[(i + 39) % 40]!, names[(i + 1) % 40]!])
        expect(system, concept).toContain(entryOf('concept', n));
      // The cached prefix is byte for byte the same from call to call.
      expect(cachedPart(m)).toBe(cachedPart(conceptCalls[0]!));
    }
    // What the SDK changes is how the prefix is sent (checked above for each); which entries an
    // update and a new source are given does not depend on it: checked through the first SDK only.
    if (sdk !== SDKS[0]) return;

    // An edited source's update: its concepts and their other sources reach it too.
    const before = fakeSdk.calls().length;
    appendFileSync(join(root, 'raw/topic-37.md'), `\n${names[37]} was renamed once, in 2020.\n`);
    await compileEstimated(root, fakeSdk);
    const source = fakeSdk
      .calls()
      .slice(before)
      .find((m) => userContent(m).includes('<source path="raw/topic-37.md"'));
    expect(source).toBeDefined();
    expect(userContent(source!)).toContain('<current_entry>');
    const system = systemPrompt(source!);
    expect(cachedPart(source!)).toMatch(/more entries not shown/);
    for (const n of [names[37]!, names[38]!]) expect(system).toContain(entryOf('concept', n));
    for (const t of [title(36), title(38)]) expect(system).toContain(entryOf('source', t));

    // A new source naming two concepts the shared part leaves out: its call is given them.
    const [a, b] = names.filter((n) => !cachedPart(source!).includes(entryOf('concept', n)));
    expect(b).toBeDefined();
    const mid = fakeSdk.calls().length;
    appendFileSync(
      join(root, 'raw/topic-40.md'),
      `# ${title(40)}\n\nIn practice, ${a} and ${b} are compared here.\n\nThe team uses ${a} to plan the work, and ${b} checks the result afterwards.\n`,
    );
    await compileEstimated(root, fakeSdk);
    const fresh = fakeSdk
      .calls()
      .slice(mid)
      .find((m) => userContent(m).includes('<source path="raw/topic-40.md"'));
    expect(fresh).toBeDefined();
    for (const n of [a!, b!]) expect(systemPrompt(fresh!)).toContain(entryOf('concept', n));
  }, 120_000);
});
