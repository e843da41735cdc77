import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture, read, REPO, runKb, runKbIn, writeFile } from './helpers.js';
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic.js';
import { type Sdk, SDKS, startFakeSdk } from './fake-sdks.js';
import { parseEntryFile } from '../src/entry/frontmatter.js';

const FILES = {
  'raw/tides.md':
    '# Tides\n\nTides are the rise and fall of sea levels caused by the gravitational forces of the Moon and the Sun. Spring tides happen at new and full moon.\n',
  'raw/volcano.md':
    '# Volcanoes\n\nA volcano is a rupture in the crust of a planet that allows hot lava, volcanic ash and gases to escape.\n',
  'raw/熊猫.md': '# 大熊猫\n\n大熊猫是中国特有的哺乳动物，主要以竹子为食，生活在四川、陕西和甘肃的山区。\n',
};

async function compiledKb(): Promise<string> {
  const root = fixture(FILES);
  const r = await runKbIn(['compile'], { cwd: root });
  expect(r.code, r.stderr).toBe(0);
  return root;
}

describe('kb search / context / ask (CLI)', () => {
  let root: string;
  beforeAll(async () => {
    root = await compiledKb();
  }, 60_000);

  it('kb search prints ranked entries and passages with scores', async () => {
    const r = await runKb(['search', 'sea levels moon'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Entries\n 1\. \d\.\d{4} {2}Tides/);
    expect(r.stdout).toContain('Passages');
    expect(r.stdout).toContain('raw/tides.md');
    const j = await runKbIn(['search', '大熊猫 吃 什么', '--json'], { cwd: root });
    const out = JSON.parse(j.stdout) as { entries: { title: string; score: number }[] };
    expect(out.entries[0]?.title).toBe('大熊猫');
  });

  it('kb context prints <kb_entry> blocks within the budget', async () => {
    const r = await runKbIn(['context', 'what causes tides', '--budget', '300'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^<kb_entry id="source\/tides">/);
    expect(r.stderr).toMatch(/of 300 tokens/);
    const j = JSON.parse(
      (await runKbIn(['context', 'what causes tides', '--budget', '300', '--json'], { cwd: root })).stdout,
    ) as { tokens: number };
    expect(j.tokens).toBeLessThanOrEqual(300);
    const bad = await runKb(['context', 'x', '--budget', 'lots'], { cwd: root });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--budget');
  });

  it('kb ask answers offline with citations; --json has tokens and timings; cached the second time', async () => {
    const r = await runKb(['ask', 'What causes tides?'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('[[Tides]]');
    expect(r.stderr).toContain('No ANTHROPIC_API_KEY');
    const j = JSON.parse((await runKbIn(['ask', 'what causes tides', '--json'], { cwd: root })).stdout) as {
      mode: string;
      citations: { title: string }[];
      context: { tokens: number };
      timings: { totalMs: number };
      cached: boolean;
    };
    expect(j['mode']).toBe('offline');
    expect(j['citations'][0]?.title).toBe('Tides');
    expect(j['context'].tokens).toBeGreaterThan(0);
    expect(j['timings'].totalMs).toBeGreaterThanOrEqual(0);
    expect(j['cached']).toBe(true);
  });

  it('kb ask --save files the answer and a later search finds it; --format marp writes a deck', async () => {
    const r = await runKbIn(['ask', 'What causes spring tides?', '--save'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Filed wiki/answers/What causes spring tides.md');
    const { data } = parseEntryFile(read(root, 'wiki/answers/What causes spring tides.md'));
    expect(data['kind']).toBe('answer');
    // The cited source lists the answer among its backlinks (the body section is off by default).
    expect(parseEntryFile(read(root, 'wiki/sources/Tides.md')).data['backlinks']).toContain(data['id']);
    const s = await runKbIn(['search', 'spring tides', '--json'], { cwd: root });
    expect((JSON.parse(s.stdout) as { entries: { kind: string }[] }).entries.some((e) => e.kind === 'answer')).toBe(
      true,
    );
    const lint = await runKbIn(['lint'], { cwd: root });
    expect(lint.code, lint.stdout + lint.stderr).toBe(0);
    expect(lint.stdout).toMatch(/0 errors, 0 warnings/);
    // A compile afterwards keeps the answer.
    expect((await runKbIn(['compile'], { cwd: root })).code).toBe(0);
    expect(existsSync(join(root, 'wiki/answers/What causes spring tides.md'))).toBe(true);

    const m = await runKbIn(['ask', 'What is a volcano?', '--format', 'marp'], { cwd: root });
    expect(m.code, m.stderr).toBe(0);
    const deck = parseEntryFile(read(root, 'wiki/answers/What is a volcano.md'));
    expect(deck.data['marp']).toBe(true);
    expect(deck.body).toContain('\n---\n');
  }, 60_000);

  it('kb ask --save: the filed answer is linked, so kb lint finds no orphan-entry for it', async () => {
    const file = 'wiki/answers/Why do sea levels rise and fall.md';
    const r = await runKbIn(['ask', 'Why do sea levels rise and fall?', '--save', '--offline'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Filed wiki\/answers\/Why do sea levels rise and fall\.md \(backlinks in 1 entr/);
    const lint = JSON.parse((await runKbIn(['lint', '--json'], { cwd: root })).stdout) as {
      findings: { ruleId: string; file: string }[];
    };
    expect(lint.findings.filter((f) => f.file === file)).toEqual([]);
  }, 60_000);

  it('kb ask --save --offline again: the new answer cites the sources, never the answer it replaces', async () => {
    const q = 'What do the Moon and the Sun do to the sea?';
    const file = 'wiki/answers/What do the Moon and the Sun do to the sea.md';
    const first = await runKbIn(['ask', q, '--save', '--offline'], { cwd: root });
    expect(first.code, first.stderr).toBe(0);
    const before = parseEntryFile(read(root, file));
    expect(before.data['source_ref']).toEqual(['raw/tides.md']);

    const again = await runKbIn(['ask', q, '--save', '--offline', '--json'], { cwd: root });
    expect(again.code, again.stderr).toBe(0);
    const j = JSON.parse(again.stdout) as { citations: { id: string }[]; saved: { replaced?: { version: number } } };
    expect(j.citations.map((c) => c.id)).toContain('source/tides');
    expect(j.citations.map((c) => c.id)).not.toContain(before.data['id']);
    const after = parseEntryFile(read(root, file));
    expect(after.data['source_ref']).toEqual(['raw/tides.md']);
    expect(after.body).toMatch(/## Sources\n\n(- .*\n)*- \[\[Tides\]\]/);
    expect(after.body).not.toMatch(/\[\[What do the Moon and the Sun do to the sea/);
    expect(after.body).toContain('caused by the gravitational forces of the Moon and the Sun.');
    // Replacing it is said, in the result and in the log.
    expect(after.data['version']).toBe(2);
    expect(j.saved.replaced).toEqual({ version: 1, by: 'offline' });
    expect(read(root, 'wiki/log.md')).toMatch(
      /updated \[\[What do the Moon and the Sun do to the sea\]\] \(version 2 replaces version 1 by offline\)/,
    );
    const lint = JSON.parse((await runKbIn(['lint', '--json'], { cwd: root })).stdout) as {
      findings: { ruleId: string; file: string }[];
    };
    expect(lint.findings.filter((f) => f.file === file || f.ruleId === 'missing-backlink')).toEqual([]);
  }, 60_000);
});

describe('kb ask with a model (fake Anthropic server)', () => {
  let fake: FakeAnthropic;
  let root: string;
  beforeAll(async () => {
    root = await compiledKb();
    fake = await startFakeAnthropic((req) => {
      const system = JSON.stringify(req.body.system);
      if (system.includes('keyword queries'))
        return {
          text: '<queries>\n<query lang="en">tides moon gravity</query>\n<query lang="zh">潮汐 月球</query>\n</queries>',
        };
      return {
        text: '<answer>Tides come from the pull of the Moon and the Sun [[Tides]], not from [[Nowhere]].</answer>',
      };
    });
  }, 60_000);
  afterAll(async () => {
    await fake?.close();
  });

  it('expands a Chinese question into English keywords, answers from the packed context, caches the calls', async () => {
    const env = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url };
    const r = await runKbIn(['ask', '潮汐是怎么形成的？', '--json'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as {
      mode: string;
      queries: string[];
      answer: string;
      citations: { title: string }[];
    };
    expect(j['mode']).toBe('model');
    expect(j['queries']).toEqual(['tides moon gravity', '潮汐 月球']);
    expect(j['answer']).toBe('Tides come from the pull of the Moon and the Sun [[Tides]], not from Nowhere.');
    expect(j['citations'].map((c: { title: string }) => c.title)).toEqual(['Tides']);
    const calls = fake.messages();
    expect(calls).toHaveLength(2);
    const answerPrompt = calls[1]!.body.messages[0].content as string;
    expect(answerPrompt).toContain('<kb_entry id="source/tides">');
    expect(answerPrompt).toContain('潮汐是怎么形成的');
    // Without the answer cache, the model's replies still come from .kb/cache.db: no new calls.
    const again = await runKbIn(['ask', '潮汐是怎么形成的？', '--json', '--no-cache'], { cwd: root, env });
    expect(again.code, again.stderr).toBe(0);
    expect(fake.messages()).toHaveLength(2);
    expect(r.stdout + r.stderr + again.stdout + again.stderr).not.toContain('test-key');
  }, 60_000);

  it('an edited answer template is not answered from the answer cache', async () => {
    const env = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url };
    const ask = async () => {
      const r = await runKbIn(['ask', 'Why are there two tides a day?', '--json'], { cwd: root, env });
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { cached: boolean }).cached;
    };
    expect(await ask()).toBe(false);
    expect(await ask()).toBe(true);
    const template = readFileSync(join(REPO, 'templates', 'answer.md'), 'utf8');
    writeFile(root, 'templates/answer.md', template.replace('Rules:', 'Rules:\n- Answer in two sentences at most.'));
    const calls = fake.messages().length;
    expect(await ask()).toBe(false);
    expect(fake.messages().length).toBe(calls + 1);
    rmSync(join(root, 'templates', 'answer.md'));
  }, 60_000);

  it('a filed model answer is not replaced by an offline one, nor after a person edited it', async () => {
    const env = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url };
    const file = 'wiki/answers/What makes the tides.md';
    const saved = await runKbIn(['ask', 'What makes the tides?', '--save'], { cwd: root, env });
    expect(saved.code, saved.stderr).toBe(0);
    const text = read(root, file);
    expect(parseEntryFile(text).data['compiled_by']).toBe('model:claude-sonnet-4-5');

    const offline = await runKbIn(['ask', 'What makes the tides?', '--save', '--offline'], { cwd: root });
    expect(offline.code).toBe(1);
    expect(offline.stdout).toContain('[[Tides]]');
    expect(offline.stderr).toContain(
      'kb: Not filed: wiki/answers/What makes the tides.md holds an answer by the model (model:claude-sonnet-4-5), and an offline answer does not replace it',
    );
    expect(read(root, file)).toBe(text);

    const edited = text.replace('## Sources', 'My own note on this.\n\n## Sources');
    writeFileSync(join(root, file), edited);
    const model = await runKbIn(['ask', 'what makes the tides', '--save', '--no-cache'], { cwd: root, env });
    expect(model.code).toBe(1);
    expect(model.stderr).toContain(
      "kb: Not filed: wiki/answers/What makes the tides.md was edited by hand since kb filed it, and kb never overwrites a person's edits",
    );
    expect(read(root, file)).toBe(edited);
  }, 60_000);
});

describe('kb ask when the model fails', () => {
  it('falls back to the extractive answer with a warning and does not cache it', async () => {
    const root = await compiledKb();
    const fake = await startFakeAnthropic(() => ({ status: 400, headers: { 'x-should-retry': 'false' } }));
    try {
      const env = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url };
      const r = await runKbIn(['ask', 'What causes tides?'], { cwd: root, env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/warning: The model failed/);
      expect(r.stdout).toContain('[[Tides]]');
      const j = JSON.parse(
        (await runKbIn(['ask', 'What causes tides?', '--json'], { cwd: root, env })).stdout,
      ) as Record<string, unknown>;
      expect(j['cached']).toBe(false);
      expect(j['mode']).toBe('offline');
    } finally {
      await fake.close();
    }
  }, 60_000);
});

type Reply = { text: string; stopReason?: string };

/** A fake model, behind `sdk`'s fake server, that expands every question into keywords and answers with `reply()`'s reply. */
async function answeringFake(reply: () => Reply, sdk: Sdk = 'anthropic') {
  const fake = await startFakeSdk(sdk, (req) => {
    if (JSON.stringify(req.body.system).includes('keyword queries'))
      return { text: '<queries><query lang="en">tides moon</query></queries>' };
    return reply();
  });
  return { fake, env: fake.env };
}

describe('kb ask --save with an empty or malformed model reply', () => {
  it('does not file it, says why and exits 1', async () => {
    const root = await compiledKb();
    let reply: Reply = { text: '' };
    const { fake, env } = await answeringFake(() => reply);
    try {
      const cases: [string, typeof reply, RegExp][] = [
        [
          'Why are there tides?',
          { text: '' },
          /Not filed: the model's reply is empty; the answer cites no entry of the wiki\./,
        ],
        [
          'Why do tides rise?',
          { text: '<answer></answer>' },
          /Not filed: the model's reply has an empty <answer>; the answer cites no entry of the wiki\./,
        ],
        [
          'Why do tides fall?',
          { text: '<answer>[[Tides]] [[Tides]]</answer>' },
          /Not filed: the answer holds nothing but citations\./,
        ],
        [
          'What pulls the tides?',
          { text: 'Sure! The Moon pulls them [[Tides]].' },
          /Not filed: the model's reply has no <answer> element\./,
        ],
        [
          'When are tides highest?',
          { text: '<answer>Spring tides come at new and full moon [[Tides]] and', stopReason: 'max_tokens' },
          /Not filed: the model's reply was cut off at the token limit\./,
        ],
      ];
      for (const [q, r, why] of cases) {
        reply = r;
        const out = await runKb(['ask', q, '--save'], { cwd: root, env });
        expect(out.code, `${q}: ${out.stderr}`).toBe(1);
        expect(out.stderr).toMatch(why);
        expect(out.stderr).not.toContain('unexpected error');
      }
      expect(existsSync(join(root, 'wiki/answers'))).toBe(false);
      reply = { text: '' };
      const j = await runKbIn(['ask', 'Why are tides empty?', '--save', '--json'], { cwd: root, env });
      expect(j.code).toBe(1);
      expect((JSON.parse(j.stdout) as { notSaved: string; saved?: unknown }).notSaved).toMatch(
        /^Not filed: the model's reply is empty/,
      );
      expect(existsSync(join(root, 'wiki/answers'))).toBe(false);
      // A malformed reply was not cached: asking again asks the model again, and a well-formed reply is filed.
      reply = { text: '<answer>The Moon and the Sun pull the sea [[Tides]].</answer>' };
      const calls = fake.calls().length;
      const ok = await runKbIn(['ask', 'Why are there tides?', '--save'], { cwd: root, env });
      expect(ok.code, ok.stderr).toBe(0);
      expect(fake.calls().length).toBeGreaterThan(calls);
      expect(parseEntryFile(read(root, 'wiki/answers/Why are there tides.md')).body).toContain(
        'The Moon and the Sun pull the sea [[Tides]].',
      );
    } finally {
      await fake.close();
    }
  }, 120_000);
});

describe('kb ask after the embedder changed', () => {
  it('says, as kb search does, that it uses keywords only until `kb compile` embeds the wiki again', async () => {
    const root = await compiledKb();
    writeFileSync(join(root, 'kb.config.json'), JSON.stringify({ embedding: { dims: 256 } }));
    const search = await runKbIn(['search', 'what causes tides'], { cwd: root });
    expect(search.stderr).toMatch(/uses keywords only until `kb compile`/);
    const r = await runKbIn(['ask', 'what causes tides', '--offline', '--no-cache'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: .*uses keywords only until `kb compile` embeds the wiki again/);
    expect(r.stdout).toContain('Tides');
    const j = await runKbIn(['ask', 'what causes tides', '--offline', '--no-cache', '--json'], { cwd: root });
    expect((JSON.parse(j.stdout) as { warnings?: string[] }).warnings?.join(' ')).toMatch(/keywords only/);
    expect((await runKbIn(['compile'], { cwd: root })).code).toBe(0);
    const after = await runKbIn(['ask', 'what causes tides', '--offline', '--no-cache'], { cwd: root });
    expect(after.stderr).not.toMatch(/keywords only/);
  }, 120_000);
});

describe.each(SDKS)('kb ask with the model through the %s SDK: answers you can check', (sdk) => {
  it('reports citations that name no given entry (exit 1 under --strict) and never prints markup', async () => {
    const root = await compiledKb();
    let reply: Reply = { text: '' };
    const { fake, env } = await answeringFake(() => reply, sdk);
    try {
      reply = {
        text: '<answer>The Moon pulls the sea [[Tides]]; see [[HNSW]] and [[Malkov and Yashunin (2018)]].</answer>',
      };
      const loose = await runKbIn(['ask', 'What pulls the sea?'], { cwd: root, env });
      expect(loose.code, loose.stderr).toBe(0);
      expect(loose.stderr).toMatch(
        /warning: The answer cites \[\[HNSW\]\], \[\[Malkov and Yashunin \(2018\)\]\], which name no entry/,
      );
      expect(loose.stdout).toContain('see HNSW and Malkov and Yashunin (2018).');
      const strict = await runKb(['ask', 'What pulls the sea?', '--strict', '--no-cache'], { cwd: root, env });
      expect(strict.code).toBe(1);
      expect(strict.stderr).toMatch(/warning: The answer cites \[\[HNSW\]\], .*which name no entry/);

      reply = { text: '<answer>The sea rises twice a day.</answer>' };
      const none = await runKbIn(['ask', 'How often does the sea rise?', '--strict'], { cwd: root, env });
      expect(none.code).toBe(1);
      expect(none.stderr).toMatch(/warning: The answer cites no entry of the wiki/);

      reply = { text: '<kb_entry><title>Tides</title><body>The Moon.</body></kb_entry>' };
      const xml = await runKbIn(['ask', 'Why is the sea tidal?'], { cwd: root, env });
      expect(xml.stdout).not.toContain('<kb_entry');
      expect(xml.stdout).toMatch(/The model gave no readable answer/);
      expect(xml.stderr).toMatch(/warning: The model's reply has no <answer> element/);
    } finally {
      await fake.close();
    }
  }, 120_000);
});
