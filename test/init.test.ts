import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { loadConfig } from '../src/config/load.js';
import { obsidianFileTexts } from '../src/init/obsidian.js';
import { listTree, read, REPO, runKb, runKbIn } from './helpers.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'kb-init-'));
// No global git identity: kb init must still make its first commit.
const bareGitEnv = (home: string) => ({
  HOME: home,
  XDG_CONFIG_HOME: home,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: join(home, 'none'),
});

describe('kb init', () => {
  it('scaffolds a knowledge base with a first commit, even without a git identity', async () => {
    const dir = tmp();
    const r = await runKb(['init', 'my-kb'], { cwd: dir, env: bareGitEnv(dir) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Created a knowledge base');
    const root = join(dir, 'my-kb');
    const tree = listTree(root).filter((f) => !f.startsWith('.git/'));
    const shippedSchemas = readdirSync(join(REPO, 'schemas')).filter((f) => f.endsWith('.json'));
    const shippedTemplates = readdirSync(join(REPO, 'templates')).filter((f) => f.endsWith('.md'));
    for (const f of shippedSchemas) expect(read(root, `schemas/${f}`)).toBe(read(REPO, `schemas/${f}`));
    for (const f of shippedTemplates) expect(read(root, `templates/${f}`)).toBe(read(REPO, `templates/${f}`));
    expect(tree).toEqual(
      expect.arrayContaining([
        '.gitignore',
        'kb.config.json',
        'raw/.gitkeep',
        'changelog/.gitkeep',
        'wiki/index.md',
        'wiki/.obsidian/graph.json',
        'wiki/.obsidian/app.json',
      ]),
    );
    // Every setting at its default, and a valid config.
    const config = JSON.parse(read(root, 'kb.config.json')) as Record<string, unknown>;
    expect(config['$schema']).toBe('./schemas/kb-config.schema.json');
    const { $schema: _s, ...settings } = config;
    expect(settings).toEqual(JSON.parse(JSON.stringify(DEFAULT_CONFIG)));
    expect(loadConfig(join(root, 'kb.config.json'))).toMatchObject(DEFAULT_CONFIG);
    expect(read(root, '.gitignore')).toMatch(/^wiki\/embeddings\.db$/m);
    expect(read(root, '.gitignore')).toMatch(/^\.kb\/$/m);
    const git = (...a: string[]) =>
      execFileSync('git', a, { cwd: root, encoding: 'utf8', env: { ...process.env, ...bareGitEnv(dir) } });
    expect(git('log', '--format=%an %s')).toContain('kb init');
    const committed = git('ls-files').trim().split('\n');
    expect(committed).toEqual(
      expect.arrayContaining(['kb.config.json', 'wiki/index.md', 'raw/.gitkeep', 'wiki/.obsidian/graph.json']),
    );
    expect(git('status', '--porcelain').trim()).toBe('');
  });

  it('refuses to overwrite an existing knowledge base and changes nothing', async () => {
    const dir = tmp();
    mkdirSync(join(dir, 'raw'));
    writeFileSync(join(dir, 'raw', 'a.md'), '# A\n');
    const before = listTree(dir);
    const r = await runKbIn(['init'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/already holds raw\/ \(but no kb\.config\.json\); nothing was changed/);
    expect(listTree(dir)).toEqual(before);

    const again = tmp();
    expect((await runKbIn(['init', 'k', '--no-git'], { cwd: again })).code).toBe(0);
    const r2 = await runKbIn(['init', 'k'], { cwd: again });
    expect(r2.code).toBe(1);
    expect(r2.stderr).toContain('kb.config.json');
  });

  it.skipIf(!existsSync('/proc/self'))('a folder that cannot be made ends at once with a clear error', async () => {
    // A hang fails at the 20 s timeout; how soon it ends is measured by `npm run bench:stages`.
    const r = await runKbIn(['init', '/proc/kb-cannot-be-here', '--no-git'], { cwd: tmp(), timeoutMs: 20_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^kb: Cannot create \/proc\/kb-cannot-be-here \(ENOENT: [^)]*\).*pick a folder you can write to\.\n$/,
    );
  });

  it("its Next: hint is `kb …` when kb is on PATH, else `npx kb-wiki …` (never `npx kb`, npm's other package)", async () => {
    const dir = tmp();
    const withKb = join(dir, 'bin');
    mkdirSync(withKb);
    writeFileSync(join(withKb, 'kb'), '#!/bin/sh\n');
    const [on, off] = await Promise.all([
      runKbIn(['init', 'a', '--no-git'], { cwd: dir, env: { PATH: withKb } }),
      runKbIn(['init', 'b', '--no-git'], { cwd: dir, env: { PATH: join(dir, 'nothing') } }),
    ]);
    expect(on.stdout).toContain('\n  kb watch         compile every document you drop into raw/\n');
    expect(off.stdout).toContain('\n  npx kb-wiki watch    compile every document you drop into raw/\n');
    expect(off.stdout).toContain('\n  npx kb-wiki ask "…"  ask the wiki a question\n');
  });

  it('a new knowledge base is found from a subfolder and compiles', async () => {
    const dir = tmp();
    expect((await runKbIn(['init', 'k', '--no-git', '--json'], { cwd: dir })).code).toBe(0);
    const root = join(dir, 'k');
    writeFileSync(
      join(root, 'raw', 'note.md'),
      '# Vector Databases\n\nA vector database stores embeddings for similarity search.\n',
    );
    const r = await runKbIn(['compile'], { cwd: join(root, 'raw') });
    expect(r.code).toBe(0);
    expect(listTree(join(root, 'wiki'))).toContain('sources/Vector Databases.md');
  });
});

describe('wiki/.obsidian', () => {
  it('the repository vault carries the same config kb init writes, as valid JSON', () => {
    for (const [name, text] of Object.entries(obsidianFileTexts())) {
      expect(readFileSync(join(REPO, 'wiki', '.obsidian', name), 'utf8')).toBe(text);
      expect(() => JSON.parse(text)).not.toThrow();
    }
    const graph = JSON.parse(obsidianFileTexts()['graph.json']!) as { colorGroups: { query: string }[] };
    expect(graph.colorGroups.map((g) => g.query)).toEqual(['path:sources/', 'path:concepts/', 'path:answers/']);
  });
});
