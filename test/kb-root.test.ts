import { existsSync, mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfigText, initKb } from '../src/init/init.js';
import { fixture, listTree, read, runKb, writeFile, runKbIn } from './helpers.js';

const NOTE = { 'raw/retrieval.md': '# Retrieval\n\nRetrieval finds the passages a question needs.\n' };

/** The commands that only read, as a person types them. */
const READERS = [
  ['status'],
  ['search', 'retrieval'],
  ['context', 'retrieval'],
  ['ask', 'what is retrieval?'],
  ['lint'],
];

describe('a knowledge base is what says so', () => {
  it('a folder holding only raw/ is not one to the commands that read: exit 2, the folder named, nothing written', async () => {
    const root = realpathSync(fixture(NOTE, { config: false }));
    const before = listTree(root);
    const runs = await Promise.all(READERS.map((args) => runKb(args, { cwd: root })));
    for (const [i, r] of runs.entries()) {
      expect([READERS[i]![0], r.code]).toEqual([READERS[i]![0], 2]);
      expect(r.stderr).toContain(`No knowledge base in ${root}`);
      expect(r.stderr).toContain('Run `kb init`');
      expect(r.stderr).toContain('`kb compile` here');
    }
    expect(listTree(root)).toEqual(before);
  });

  it('its first kb compile makes it one: writes the kb.config.json kb init writes, and says so in one line', async () => {
    const root = fixture(NOTE, { config: false });
    const r = await runKbIn(['compile'], { cwd: root });
    expect(r.code).toBe(0);
    const said = r.stderr.split('\n').filter((l) => l.includes('kb.config.json'));
    expect(said).toEqual([
      'No kb.config.json here or above: made this folder a knowledge base (wrote kb.config.json with the defaults, as `kb init` does).',
    ]);
    expect(read(root, 'kb.config.json')).toBe(defaultConfigText());
    expect(existsSync(join(root, 'wiki', 'sources', 'Retrieval.md'))).toBe(true);
    const again = await runKbIn(['compile'], { cwd: root });
    expect(again.stderr).not.toContain('kb.config.json');
    expect((await runKbIn(['status'], { cwd: root })).code).toBe(0);
  });

  it('--kb names a folder holding raw/ for compile from anywhere; an estimate writes nothing', async () => {
    const root = fixture(NOTE, { config: false });
    const elsewhere = mkdtempSync(join(tmpdir(), 'kb-elsewhere-'));
    const before = listTree(root);
    const est = await runKbIn(['compile', '--estimate', '--kb', root], { cwd: elsewhere });
    expect(est.code).toBe(0);
    expect(est.stdout).toContain('Estimate for compiling 1 document');
    expect(listTree(root).filter((f) => !f.startsWith('.kb/'))).toEqual(before);
    const r = await runKbIn(['compile', '--kb', root], { cwd: elsewhere });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`made ${root} a knowledge base`);
    expect(read(root, 'kb.config.json')).toBe(defaultConfigText());
  });

  it('a stray raw/ or wiki/ in a parent folder is never taken for a knowledge base', async () => {
    const parent = realpathSync(mkdtempSync(join(tmpdir(), 'kb-parent-')));
    writeFile(parent, 'raw/a.md', '# A\n\nA note.\n');
    mkdirSync(join(parent, 'wiki'));
    const child = join(parent, 'projects', 'notes');
    mkdirSync(child, { recursive: true });
    const before = listTree(parent);
    const [status, compile] = await Promise.all([
      runKbIn(['status'], { cwd: child }),
      runKbIn(['compile'], { cwd: child }),
    ]);
    expect(status.code).toBe(2);
    expect(status.stderr).toContain(`No knowledge base in ${child}`);
    expect(compile.code).toBe(2);
    expect(compile.stderr).toMatch(/no raw\/ here to compile\. Run `kb init`/);
    expect(listTree(parent)).toEqual(before);
  });

  it('--kb naming a folder that is no knowledge base is a usage error, and writes nothing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'kb-empty-'));
    const [status, search, compile] = await Promise.all([
      runKbIn(['status', '--kb', empty], { cwd: tmpdir() }),
      runKbIn(['search', 'x', '--kb', empty], { cwd: tmpdir() }),
      runKbIn(['compile', '--kb', empty], { cwd: tmpdir() }),
    ]);
    for (const r of [status, search, compile]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${realpathSync(empty)} is not a knowledge base`);
      expect(r.stderr).toContain(`Run \`kb init ${empty}\``);
    }
    expect(listTree(empty)).toEqual([]);
  });

  it('in a knowledge base never compiled, the commands that read write nothing outside .kb/ (no wiki/embeddings.db)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-fresh-'));
    const made = join(dir, 'made');
    initKb(made, { git: false });
    const bare = fixture({}); // kb.config.json and raw/, no wiki/ at all
    for (const root of [made, bare]) {
      const before = listTree(root);
      const runs = await Promise.all(READERS.map((args) => runKbIn([...args, '--kb', root], { cwd: dir })));
      for (const [i, r] of runs.entries())
        expect([READERS[i]![0], r.code, r.stderr]).toEqual([READERS[i]![0], 0, expect.any(String)]);
      expect(listTree(root).filter((f) => !f.startsWith('.kb/'))).toEqual(before);
    }
    expect(existsSync(join(bare, 'wiki'))).toBe(false);
  });
});
