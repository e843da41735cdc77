import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KbError } from '../diagnostics/errors.js';
import { existingKbMarker, initKb } from './init.js';
import { obsidianFileTexts } from './obsidian.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'kb-init-unit-'));

describe('initKb', () => {
  it('writes the layout without git when asked', () => {
    const root = join(tmp(), 'new folder');
    const r = initKb(root, { git: false });
    expect(r.git).toBe('skipped');
    expect(r.files).toEqual(
      expect.arrayContaining([
        '.gitignore',
        'kb.config.json',
        'wiki/index.md',
        'raw/.gitkeep',
        'changelog/.gitkeep',
        'schemas/kb-config.schema.json',
        'schemas/wiki-entry.schema.json',
      ]),
    );
    for (const [name, text] of Object.entries(obsidianFileTexts()))
      expect(readFileSync(join(root, 'wiki/.obsidian', name), 'utf8')).toBe(text);
    expect(readdirSync(join(root, 'templates')).length).toBeGreaterThan(0);
  });

  it('accepts a folder that holds other things, but not a knowledge base', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    expect(existingKbMarker(dir)).toBeUndefined();
    expect(initKb(dir, { git: false }).files).toContain('kb.config.json');
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine');

    for (const marker of ['raw', 'wiki']) {
      const d = tmp();
      mkdirSync(join(d, marker));
      expect(existingKbMarker(d)).toBe(`${marker}/`);
      expect(() => initKb(d, { git: false })).toThrow(KbError);
      expect(readdirSync(d)).toEqual([marker]);
    }
  });

  it('refuses a path that is a file', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'f'), '');
    expect(() => initKb(join(dir, 'f'), { git: false })).toThrow(/not a folder/);
  });
});
