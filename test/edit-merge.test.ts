import { describe, expect, it } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture, read, runKb, writeFile, runKbIn } from './helpers.js';
import { branches, git, GIT_ENV, gitInit, today } from './heal-helpers.js';

const TIDES =
  '# Tides\n\nTides rise and fall twice a day because the Moon pulls the sea.\n\nThe Sun pulls too, but less.\n';
const NOTE = 'My own note: check the local tide tables before a swim.';

/** A person's edit: a paragraph of their own after kb's first paragraph. */
function addNote(root: string, file: string): string {
  const path = join(root, 'wiki', file);
  const text = readFileSync(path, 'utf8');
  const edited = text.replace(/(\n# [^\n]+\n\n[^\n]+\n)/, `$1\n${NOTE}\n`);
  expect(edited).not.toBe(text);
  writeFileSync(path, edited);
  return edited;
}

describe('kb compile and a person’s edits: a three-way merge', () => {
  it('brings kb’s changes into an edited entry where they touch other lines, the person’s lines byte for byte', async () => {
    const root = fixture({ 'raw/tides.md': TIDES });
    expect((await runKb(['compile'], { cwd: root })).code).toBe(0);
    addNote(root, 'sources/Tides.md');
    writeFile(root, 'raw/tides.md', `${TIDES}\nSpring tides come at new and full moon.\n`);
    const r = await runKbIn(['compile'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    const entry = read(root, 'wiki/sources/Tides.md');
    expect(entry).toContain(`\n${NOTE}\n`);
    expect(entry).toContain('Spring tides come at new and full moon.');
    expect(r.stderr + r.stdout).toMatch(/merged into your edited entry|your edits kept, kb's changes merged/);
    // Still the person's entry: a later change merges again, the note stays.
    writeFile(root, 'raw/tides.md', `${TIDES}\nSpring tides come at new and full moon, neap tides at the quarters.\n`);
    expect((await runKbIn(['compile'], { cwd: root })).code).toBe(0);
    const again = read(root, 'wiki/sources/Tides.md');
    expect(again).toContain(`\n${NOTE}\n`);
    expect(again).toContain('neap tides at the quarters');
  });

  it('keeps the person’s text and says so when both changed the same lines', async () => {
    const root = fixture({ 'raw/tides.md': TIDES });
    expect((await runKbIn(['compile'], { cwd: root })).code).toBe(0);
    const path = join(root, 'wiki/sources/Tides.md');
    const mine = readFileSync(path, 'utf8').replace(
      '\nTides rise and fall twice a day because the Moon',
      '\nTides rise and fall twice a day because the Moon (mostly)',
    );
    writeFileSync(path, mine);
    writeFile(root, 'raw/tides.md', TIDES.replace('twice a day', 'about twice a day'));
    const r = await runKbIn(['compile'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(mine);
    expect(r.stderr).toMatch(/conflict between your edit and kb's update/);
  });

  it('offers kb’s side of a conflict on a heal branch, the person’s text staying on theirs', async () => {
    const root = fixture({ 'raw/tides.md': TIDES });
    expect((await runKbIn(['compile'], { cwd: root })).code).toBe(0);
    const path = join(root, 'wiki/sources/Tides.md');
    const kbText = readFileSync(path, 'utf8');
    expect(kbText).toContain('The Sun pulls too, but less.');
    const mine = kbText
      .replace(
        '\nTides rise and fall twice a day because the Moon',
        '\nTides rise and fall twice a day because the Moon (mostly)',
      )
      .replace('The Sun pulls too, but less.', `The Sun pulls too, but less. ${NOTE}`);
    writeFileSync(path, mine);
    gitInit(root);
    writeFile(root, 'raw/tides.md', TIDES.replace('twice a day', 'about twice a day'));
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'source changed');
    expect((await runKbIn(['compile'], { cwd: root })).code).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(mine);
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'compiled');

    const l = await runKbIn(['lint', '--rule', 'edit-conflict'], { cwd: root });
    expect(l.stdout + l.stderr).toMatch(
      /wiki\/sources\/Tides\.md[\s\S]*conflict between your edit and kb's update in 1 place/,
    );
    const h = await runKbIn(['lint', '--heal'], { cwd: root, env: GIT_ENV });
    expect(h.code, h.stderr).toBe(0);
    const branch = `heal/edits-${today()}`;
    expect(branches(root)).toContain(branch);
    const offered = git(root, 'show', `${branch}:wiki/sources/Tides.md`);
    expect(offered).toContain('about twice a day');
    expect(offered).not.toContain('(mostly)');
    expect(offered).toContain(`The Sun pulls too, but less. ${NOTE}`);
    // The person's checkout is untouched, and their entry stays theirs on the branch.
    expect(readFileSync(path, 'utf8')).toBe(mine);
    expect(offered).toMatch(/content_hash: [0-9a-f]{64}/);
    expect(offered.match(/content_hash: ([0-9a-f]{64})/)?.[1]).toBe(mine.match(/content_hash: ([0-9a-f]{64})/)?.[1]);
    // Merged, the next compile has nothing left to offer: the entry is the person's with kb's update.
    git(root, 'merge', '-q', branch);
    const again = await runKbIn(['compile'], { cwd: root });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/conflict/);
    expect((await runKbIn(['lint', '--rule', 'edit-conflict'], { cwd: root })).stdout).not.toMatch(/edit-conflict/);
    expect(read(root, 'wiki/sources/Tides.md')).toContain(`The Sun pulls too, but less. ${NOTE}`);
  });

  it('after a source is deleted, an edited concept page loses kb’s link to it but keeps the person’s paragraph', async () => {
    const doc = (n: number) =>
      `# Note ${n}\n\nThe Zettelkasten method keeps one idea per card. Zettelkasten cards link to each other.\n\nNote ${n} says more about the Zettelkasten.\n`;
    const root = fixture({ 'raw/a.md': doc(1), 'raw/b.md': doc(2), 'raw/c.md': doc(3) });
    expect((await runKbIn(['compile'], { cwd: root })).code).toBe(0);
    const page = read(root, 'wiki/concepts/Zettelkasten.md');
    expect(page).toContain('[[Note 3]]');
    addNote(root, 'concepts/Zettelkasten.md');
    rmSync(join(root, 'raw/c.md'));
    const r = await runKbIn(['compile'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    const after = read(root, 'wiki/concepts/Zettelkasten.md');
    expect(after).toContain(`\n${NOTE}\n`);
    expect(after).not.toContain('[[Note 3]]');
    expect(after).toContain('[[Note 1]]');
  });
});
