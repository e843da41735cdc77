import { describe, expect, it } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture, read, runKb, writeFile, runKbIn } from './helpers.js';

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
