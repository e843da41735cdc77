import { describe, expect, it } from 'vitest';
import { bodyHash, parseEntryFile } from '../src/entry/frontmatter.js';
import { startFakeAnthropic, type FakeRequest } from './fake-anthropic.js';
import { SDKS, startFakeSdk } from './fake-sdks.js';
import { branches, exampleEntry, git, gitInit, GIT_ENV, today } from './heal-helpers.js';
import { type CliResult, fixture, read, runKb, runKbIn } from './helpers.js';

const d = today();

/** A concept that says 300 m where its source (and the source's entry) say 330 m. */
function contradictingKb(rawName = 'paris.md'): string {
  const ref = `raw/${rawName.normalize('NFC')}`;
  const root = fixture({
    [`raw/${rawName}`]: '# Paris Guide\n\nThe Eiffel Tower is 330 metres tall, antennas included.\n',
    'wiki/sources/Paris Guide.md': exampleEntry(
      {
        title: 'Paris Guide',
        kind: 'source',
        source_ref: [ref],
        backlinks: ['concept/eiffel-tower'],
        summary: 'A guide to Paris.',
      },
      '# Paris Guide\n\nThe Eiffel Tower is 330 metres tall, antennas included.\n\n<!-- kb:backlinks -->\n## Backlinks\n\n- [[Eiffel Tower]]\n<!-- /kb:backlinks -->\n',
    ),
    'wiki/concepts/Eiffel Tower.md': exampleEntry(
      { title: 'Eiffel Tower', source_ref: [ref], summary: 'The tower in Paris.' },
      '# Eiffel Tower\n\nThe tower in Paris.\n\nThe Eiffel Tower is 300 metres tall, says [[Paris Guide]].\n',
    ),
  });
  gitInit(root);
  return root;
}

const system = (req: FakeRequest): string => (req.body.system as { text: string }[]).map((b) => b.text).join('\n');
const prompt = (req: FakeRequest): string => String(req.body.messages[0].content);

function writerReply(req: FakeRequest): string {
  const id = /<entry id="([^"]+)">/.exec(prompt(req))?.[1] ?? '';
  if (id === 'concept/eiffel-tower') {
    return `<kb_entry id="${id}"><title>Eiffel Tower</title><aliases></aliases><summary>The tower in Paris, 330 metres tall.</summary><body># Eiffel Tower\n\nThe tower in Paris.\n\nThe Eiffel Tower is 330 metres tall, antennas included ([[Paris Guide]]).</body></kb_entry>`;
  }
  return `<kb_entry id="${id}"><title>Paris Guide</title><aliases></aliases><summary>A guide to Paris.</summary><body># Paris Guide\n\nThe Eiffel Tower is 330 metres tall, antennas included.</body></kb_entry>`;
}

async function healWith(root: string, verdict: 'accept' | 'reject') {
  const fake = await startFakeAnthropic((req) => {
    if (system(req).includes('skeptical'))
      return {
        text: `<verdict>${verdict}</verdict>\n<reason>${verdict === 'accept' ? 'Both now say 330 metres, as raw/paris.md does.' : 'The rewrite cites a height no source states.'}</reason>`,
      };
    if (system(req).includes('Rewrite that entry')) return { text: writerReply(req) };
    return { text: '<verdict>consistent</verdict><subject></subject><reason>They agree.</reason>' };
  });
  try {
    const r = await runKb(['lint', '--heal'], {
      cwd: root,
      env: { ...GIT_ENV, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url },
      timeoutMs: 120_000,
    });
    return { r, requests: fake.messages() };
  } finally {
    await fake.close();
  }
}

describe('kb lint --heal with a model', { timeout: 400_000 }, () => {
  it('rewrites two contradicting entries, has a separate judge check them, commits what it accepts', async () => {
    const root = contradictingKb();
    const lint0 = await runKbIn(['lint', '--json', '--rule', 'contradiction'], { cwd: root, env: GIT_ENV });
    expect((JSON.parse(lint0.stdout) as { findings: { ruleId: string }[] }).findings).toHaveLength(1);

    const { r, requests } = await healWith(root, 'accept');
    expect(r.code).toBe(0);
    const branch = `heal/contradiction-eiffel-tower-${d}`;
    expect(branches(root)).toEqual([branch, 'main']);

    // The writer and the judge are separate calls with separate instructions.
    const writers = requests.filter((q) => system(q).includes('Rewrite that entry'));
    const judges = requests.filter((q) => system(q).includes('skeptical'));
    expect(writers).toHaveLength(2);
    expect(judges).toHaveLength(1);
    expect(prompt(judges[0]!)).toContain('330 metres tall, antennas included');
    expect(prompt(judges[0]!)).toContain('300 metres');

    const concept = git(root, 'show', `${branch}:wiki/concepts/Eiffel Tower.md`);
    expect(concept).toContain('330 metres tall');
    expect(concept).not.toContain('300 metres');
    const { data, body } = parseEntryFile(concept);
    expect(data['version']).toBe(2);
    expect(data['content_hash']).toBe(bodyHash(body));
    expect(String(data['last_heal_timestamp'])).toMatch(/^\d{4}-\d{2}-\d{2}T/); // ISO date-time, as Obsidian shows it
    expect(git(root, 'log', '-1', '--format=%B', branch)).toMatch(
      /^\[Heal\] reconcile what 2 entries say about Eiffel Tower/,
    );
    expect(git(root, 'log', '-1', '--format=%B', branch)).toContain('Judge: accept');
    // The checkout still says 300.
    expect(read(root, 'wiki/concepts/Eiffel Tower.md')).toContain('300 metres');
    const log = read(root, `changelog/${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}.md`);
    expect(log).toContain(branch);
    expect(log).toContain('Judge: accept');
  });

  it('reports a rejected rewrite and commits nothing', async () => {
    const root = contradictingKb();
    const { r } = await healWith(root, 'reject');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('the judge rejected the rewrite');
    expect(branches(root)).toEqual(['main']);
    const log = read(root, `changelog/${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}.md`);
    expect(log).toContain('The rewrite cites a height no source states.');
  });

  it('gives the writer and the judge a source whose file name is spelled in NFD (as macOS writes it)', async () => {
    const root = contradictingKb('caf\u00e9-paris.md'.normalize('NFD'));
    const { r, requests } = await healWith(root, 'accept');
    expect(r.code, r.stderr).toBe(0);
    const asks = requests.filter((q) => system(q).includes('skeptical') || system(q).includes('Rewrite that entry'));
    expect(asks.length).toBeGreaterThan(1);
    for (const q of asks) {
      expect(prompt(q)).toContain('<source path="raw/caf\u00e9-paris.md"');
      expect(prompt(q)).not.toContain('(no source files found)');
    }
  });

  it('without a model, says that content fixes need one', async () => {
    const root = contradictingKb();
    const r = await runKbIn(['lint', '--heal'], { cwd: root, env: GIT_ENV });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('needs a model');
    expect(branches(root)).toEqual(['main']);
  });
});

describe('kb lint --heal merging duplicates, with --web', { timeout: 400_000 }, () => {
  it('merges two entries into one with the other names as aliases, links repointed, web sources cited', async () => {
    const root = fixture({
      'raw/notes.md': '# Notes\n\nVector databases store embeddings for similarity search.\n',
      'wiki/sources/Notes.md': exampleEntry(
        {
          title: 'Notes',
          kind: 'source',
          source_ref: ['raw/notes.md'],
          summary: 'Notes on storage.',
          backlinks: ['concept/vector-database', 'concept/vector-databases'],
        },
        '# Notes\n\nVector databases store embeddings for similarity search.\n\n<!-- kb:backlinks -->\n## Backlinks\n\n- [[Vector Database]]\n- [[Vector databases]]\n<!-- /kb:backlinks -->\n',
      ),
      'wiki/concepts/Vector Database.md': exampleEntry(
        { title: 'Vector Database', source_ref: ['raw/notes.md'], backlinks: ['concept/vector-databases'] },
        '# Vector Database\n\nIn short.\n\nStores embeddings, says [[Notes]].\n\n<!-- kb:backlinks -->\n## Backlinks\n\n- [[Vector databases]]\n<!-- /kb:backlinks -->\n',
      ),
      'wiki/concepts/Vector databases.md': exampleEntry(
        { title: 'Vector databases', aliases: ['vector store'], source_ref: ['raw/notes.md'] },
        '# Vector databases\n\nIn short.\n\nUsed for similarity search, says [[Notes]]; see [[Vector Database]].\n',
      ),
    });
    gitInit(root);
    const fake = await startFakeAnthropic((req) => {
      if (system(req).includes('skeptical'))
        return { text: '<verdict>accept</verdict><reason>Everything is in raw/notes.md.</reason>' };
      if (system(req).includes('Merge them')) {
        expect(JSON.stringify(req.body.tools)).toContain('web_search');
        return {
          text: '<kb_entry id="concept/vector-database"><title>Vector Database</title><aliases><alias>Vector databases</alias></aliases><summary>A database of embeddings.</summary><body># Vector Database\n\nIn short.\n\nStores embeddings for similarity search, says [[Notes]]; see also https://example.org/vector-db for the history.</body></kb_entry>',
        };
      }
      return { text: '<verdict>consistent</verdict><subject></subject><reason>Fine.</reason>' };
    });
    let r: CliResult;
    try {
      r = await runKbIn(['lint', '--heal', '--web'], {
        cwd: root,
        env: { ...GIT_ENV, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url },
        timeoutMs: 120_000,
      });
    } finally {
      await fake.close();
    }
    expect(r.code).toBe(0);
    const branch = `heal/duplicate-vector-databases-${d}`;
    expect(branches(root)).toEqual([branch, 'main']);
    const files = git(root, 'ls-tree', '-r', '--name-only', branch);
    expect(files).not.toContain('wiki/concepts/Vector databases.md');
    const kept = git(root, 'show', `${branch}:wiki/concepts/Vector Database.md`);
    expect(kept).toMatch(/aliases:\n {2}- Vector databases\n {2}- vector store\n/);
    expect(kept).not.toContain('[[Vector Database]]');
    expect(git(root, 'show', `${branch}:wiki/sources/Notes.md`)).not.toContain('[[Vector databases]]');
    const log = read(root, `changelog/${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}.md`);
    expect(log).toContain('Web evidence: <https://example.org/vector-db>');
  });
});

describe('kb lint --heal on an entry a person edited whose source changed', { timeout: 400_000 }, () => {
  it("has the model update it on a branch, keeping the person's words, checked by the judge", async () => {
    const { sha256 } = await import('../src/util/hash.js');
    const root = fixture({
      'raw/paris.md': '# Paris Guide\n\nThe Eiffel Tower is 330 metres tall.\n',
      'wiki/sources/Paris Guide.md': exampleEntry(
        {
          title: 'Paris Guide',
          kind: 'source',
          source_ref: ['raw/paris.md'],
          summary: 'A guide to Paris.',
          source_hashes: { 'raw/paris.md': sha256('# Paris Guide\n\nThe Eiffel Tower is 324 metres tall.\n') },
        },
        '# Paris Guide\n\nThe Eiffel Tower is 324 metres tall.\n\nMy note: go at sunset.\n',
        { edited: true },
      ),
    });
    gitInit(root);
    const fake = await startFakeAnthropic((req) => {
      if (system(req).includes('skeptical'))
        return { text: '<verdict>accept</verdict><reason>Matches the source; the note is kept.</reason>' };
      if (system(req).includes('Rewrite that entry')) {
        expect(prompt(req)).toContain('A person edited this entry');
        expect(prompt(req)).toContain('330 metres');
        return {
          text: '<kb_entry id="source/paris-guide"><title>Paris Guide</title><summary>A guide to Paris.</summary><body># Paris Guide\n\nThe Eiffel Tower is 330 metres tall.\n\nMy note: go at sunset.</body></kb_entry>',
        };
      }
      return { text: '<verdict>consistent</verdict>' };
    });
    let r: CliResult;
    try {
      r = await runKbIn(['lint', '--heal'], {
        cwd: root,
        env: { ...GIT_ENV, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url },
        timeoutMs: 120_000,
      });
    } finally {
      await fake.close();
    }
    expect(r.code).toBe(0);
    const branch = `heal/update-paris-guide-${d}`;
    expect(branches(root)).toEqual([branch, 'main']);
    const text = git(root, 'show', `${branch}:wiki/sources/Paris Guide.md`);
    expect(text).toContain('330 metres');
    expect(text).toContain('My note: go at sunset.');
    const { data, body } = parseEntryFile(text);
    expect((data['source_hashes'] as Record<string, string>)['raw/paris.md']).toBe(sha256(read(root, 'raw/paris.md')));
    expect(data['content_hash']).toBe(bodyHash(body));
    // The person's checkout keeps their text.
    expect(read(root, 'wiki/sources/Paris Guide.md')).toContain('324 metres');
  });
});

describe.each(SDKS)(
  'kb lint with a model through the %s SDK: which entries are compared',
  { timeout: 200_000 },
  (sdk) => {
    it('asks first about two sources that feed one concept, in two languages, though their text is not alike', async () => {
      const root = fixture({
        'raw/paris.md': '# Paris Guide\n\nThe Eiffel Tower opened in 1889.\n',
        'raw/巴黎.md': '# 巴黎指南\n\n埃菲尔铁塔于1887年向公众开放。\n',
        'wiki/sources/Paris Guide.md': exampleEntry(
          { title: 'Paris Guide', kind: 'source', source_ref: ['raw/paris.md'], summary: 'A guide to Paris.' },
          '# Paris Guide\n\nThe Eiffel Tower opened in 1889.\n',
        ),
        'wiki/sources/巴黎指南.md': exampleEntry(
          { title: '巴黎指南', kind: 'source', source_ref: ['raw/巴黎.md'], summary: '巴黎旅行指南。' },
          '# 巴黎指南\n\n埃菲尔铁塔于1887年向公众开放。\n',
        ),
        'wiki/concepts/Eiffel Tower.md': exampleEntry(
          { title: 'Eiffel Tower', source_ref: ['raw/paris.md', 'raw/巴黎.md'], summary: 'The tower in Paris.' },
          '# Eiffel Tower\n\nThe tower in Paris ([[Paris Guide]], [[巴黎指南]]).\n',
        ),
      });
      gitInit(root);
      const asked: string[] = [];
      const fake = await startFakeSdk(sdk, (req) => {
        const p = prompt(req);
        asked.push([...p.matchAll(/path="([^"]+)"/g)].map((m) => m[1]).join(' | '));
        return { text: '<verdict>consistent</verdict><subject></subject><reason>They agree.</reason>' };
      });
      try {
        const r = await runKbIn(['lint', '--json', '--rule', 'contradiction'], {
          cwd: root,
          env: { ...GIT_ENV, ...fake.env },
        });
        expect(r.code, r.stderr).toBeLessThanOrEqual(1);
      } finally {
        await fake.close();
      }
      expect(asked[0]).toMatch(/Paris Guide\.md.*巴黎指南\.md|巴黎指南\.md.*Paris Guide\.md/);
    });
  },
);
