import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture, listTree, read, REPO, runKb, runKbIn } from './helpers.js';
import { makePdf } from './pdf-fixtures.js';

const outsideDirs: string[] = [];
afterAll(() => {
  for (const d of outsideDirs) rmSync(d, { recursive: true, force: true });
});

describe('symlinks out of raw/', () => {
  it('`ln -s /etc raw/etc`: compile reads nothing behind the link, says so once, and the wiki never shows it', async () => {
    const root = fixture({ 'raw/note.md': '# Garden Note\n\nTomatoes need sun and water every day.\n' });
    const outside = mkdtempSync(join(tmpdir(), 'kb-etc-'));
    outsideDirs.push(outside);
    mkdirSync(join(outside, 'etc'));
    writeFileSync(join(outside, 'etc', 'shadow'), 'root:$6$zanzibarsecrethash:19000:0:99999:7:::\n');
    writeFileSync(join(outside, 'private.md'), '# Private Diary\n\nquokka diary text that must stay out of the wiki\n');
    symlinkSync(join(outside, 'etc'), join(root, 'raw', 'etc'));
    // A relative link that climbs out through `..`.
    symlinkSync(relative(join(root, 'raw'), join(outside, 'private.md')), join(root, 'raw', 'diary.md'));
    const r = await runKb(['compile'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n');
    expect(lines.filter((l) => l.startsWith('raw/etc:') && l.includes('[ingest-symlink-outside]'))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('raw/diary.md:') && l.includes('[ingest-symlink-outside]'))).toHaveLength(
      1,
    );
    expect(r.stderr).toMatch(/did not follow it/);
    expect(r.stdout).toMatch(/1 new/);
    const wiki = listTree(join(root, 'wiki'));
    const text = wiki
      .filter((p) => p.endsWith('.md') || p.endsWith('.json'))
      .map((p) => read(root, `wiki/${p}`))
      .join('\n');
    expect(text).not.toMatch(/zanzibarsecrethash|quokka diary/);
    const search = await runKbIn(['search', 'zanzibarsecrethash quokka'], { cwd: root });
    expect(search.stdout).not.toMatch(/zanzibar|quokka/);
  });

  it('a PDF, an image and an Office file behind links out of raw/ are neither converted, OCR-read, cached nor copied', async () => {
    const root = fixture({ 'raw/note.md': '# Garden Note\n\nTomatoes need sun and water every day.\n' });
    const outside = mkdtempSync(join(tmpdir(), 'kb-outside-'));
    outsideDirs.push(outside);
    writeFileSync(
      join(outside, 'plans.pdf'),
      await makePdf(['Secret Plans\nzanzibar plans that must stay out of the wiki']),
    );
    writeFileSync(
      join(outside, 'shot.png'),
      readFileSync(join(REPO, 'test', 'fixtures', 'formats', 'zh-screenshot.png')),
    );
    writeFileSync(join(outside, 'memo.docx'), readFileSync(join(REPO, 'test', 'fixtures', 'formats', 'quokka.docx')));
    for (const f of ['plans.pdf', 'shot.png', 'memo.docx']) symlinkSync(join(outside, f), join(root, 'raw', f));
    const r = await runKbIn(['compile'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    for (const f of ['plans.pdf', 'shot.png', 'memo.docx']) {
      expect(
        r.stderr.split('\n').filter((l) => l.startsWith(`raw/${f}:`) && l.includes('[ingest-symlink-outside]')),
        f,
      ).toHaveLength(1);
    }
    expect(r.stdout).toMatch(/1 new/);
    const wiki = listTree(join(root, 'wiki'));
    expect(wiki.filter((p) => /plans|shot|memo/.test(p))).toEqual([]);
    const text = wiki
      .filter((p) => p.endsWith('.md') || p.endsWith('.json'))
      .map((p) => read(root, `wiki/${p}`))
      .join('\n');
    expect(text).not.toMatch(/zanzibar|知识库编译器|quokka/i);
    const cache = join(root, '.kb', 'ingest');
    expect(
      existsSync(cache)
        ? readdirSync(cache, { recursive: true })
            .map(String)
            .filter((f) => f.endsWith('.json'))
        : [],
    ).toEqual([]);
  }, 120_000);
});
