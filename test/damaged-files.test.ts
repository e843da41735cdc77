import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture, listTree, runKb, runKbIn } from './helpers.js';

const RAW = {
  'raw/tides.md': '# Tides\n\nTides rise and fall twice a day because the Moon pulls the sea.\n',
  'raw/moon.md': '# Moon\n\nThe Moon pulls the sea and makes tides.\n',
};

describe('files kb owns that are damaged', () => {
  it('writes a half-written index.json again on the next compile, and says so', async () => {
    const root = fixture(RAW);
    expect((await runKb(['compile'], { cwd: root })).code).toBe(0);
    writeFileSync(join(root, 'wiki/index.json'), '{"entries": [');
    const r = await runKbIn(['compile'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/wiki\/index\.json: warning Unexpected damaged generated file/);
    expect(() => JSON.parse(readFileSync(join(root, 'wiki/index.json'), 'utf8'))).not.toThrow();
  });

  it('writes an entry whose frontmatter kb wrote is garbled again, in its own file, and says so', async () => {
    const root = fixture(RAW);
    expect((await runKbIn(['compile'], { cwd: root })).code).toBe(0);
    const path = join(root, 'wiki/sources/Tides.md');
    const kb = readFileSync(path, 'utf8');
    writeFileSync(path, kb.replace('kind: source', 'kind: [source'));
    const r = await runKbIn(['compile', '--force'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /wiki\/sources\/Tides\.md: warning Unexpected unreadable frontmatter.*in an entry kb wrote/,
    );
    expect(listTree(join(root, 'wiki/sources')).sort()).toEqual(['Moon.md', 'Tides.md']);
    expect(readFileSync(path, 'utf8')).toContain('\nkind: source\n');
  });

  it('leaves a garbled file whose body a person changed as it is', async () => {
    const root = fixture(RAW);
    expect((await runKbIn(['compile'], { cwd: root })).code).toBe(0);
    const path = join(root, 'wiki/sources/Tides.md');
    const mine = readFileSync(path, 'utf8').replace('kind: source', 'kind: [source').replace(/\n$/, '\nMy own line.\n');
    writeFileSync(path, mine);
    const r = await runKbIn(['compile', '--force'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(mine);
    expect(r.stderr).not.toMatch(/in an entry kb wrote/);
  });
});
