import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileIgnore, walkRaw } from './index.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
});

/** A temporary raw/ folder holding `files` (path → content); returns its absolute path. */
function fixture(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-walk-'));
  roots.push(root);
  const raw = path.join(root, 'raw');
  fs.mkdirSync(raw);
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(raw, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
  return raw;
}

const DEFAULT_IGNORE = ['.DS_Store', 'Thumbs.db', '*.tmp', '*.swp', '~$*'];

describe('walkRaw', () => {
  it('finds files at any depth, sorted, with / paths, sizes and absolute paths', () => {
    const raw = fixture({
      'b.md': 'bb',
      'a/z.md': 'z',
      'a/b/c/deep.txt': 'deep',
      'a-b.md': '',
      'zh/卡片盒笔记法.md': '卡片',
    });
    const { files, messages } = walkRaw(raw, { ignore: [] });
    expect(messages).toEqual([]);
    expect(files.map((f) => f.path)).toEqual(['a-b.md', 'a/b/c/deep.txt', 'a/z.md', 'b.md', 'zh/卡片盒笔记法.md']);
    const deep = files.find((f) => f.path === 'a/b/c/deep.txt');
    expect(deep?.size).toBe(4);
    expect(deep?.absPath).toBe(path.join(raw, 'a', 'b', 'c', 'deep.txt'));
    expect(path.isAbsolute(deep?.absPath ?? '')).toBe(true);
    expect(deep?.mtimeMs).toBeGreaterThan(0);
    expect(files.find((f) => f.path === 'zh/卡片盒笔记法.md')?.size).toBe(6);
  });

  it('skips hidden files and folders silently', () => {
    const raw = fixture({ '.hidden.md': 'x', '.obsidian/app.json': '{}', 'a/.git/HEAD': 'x', 'a/ok.md': 'x' });
    expect(walkRaw(raw, { ignore: [] })).toEqual({
      files: [expect.objectContaining({ path: 'a/ok.md' })],
      messages: [],
    });
  });

  const ignoreCases: { name: string; patterns: string[]; files: string[]; kept: string[] }[] = [
    {
      name: 'default patterns',
      patterns: DEFAULT_IGNORE,
      files: ['a.md', 'x.tmp', 'b/.DS_Store', 'Thumbs.db', '~$report.docx', 'v.swp', 'c/y.TMP'],
      kept: ['a.md'],
    },
    {
      name: 'exact folder name',
      patterns: ['drafts'],
      files: ['drafts/a.md', 'x/drafts/b.md', 'drafts.md'],
      kept: ['drafts.md'],
    },
    { name: '? matches one character', patterns: ['note?.md'], files: ['note1.md', 'note12.md'], kept: ['note12.md'] },
    {
      name: 'pattern with / matches the path',
      patterns: ['archive/*.md'],
      files: ['archive/a.md', 'archive/sub/b.md', 'a.md'],
      kept: ['a.md', 'archive/sub/b.md'],
    },
    {
      name: '** crosses folders',
      patterns: ['archive/**'],
      files: ['archive/a.md', 'archive/sub/b.md', 'a.md'],
      kept: ['a.md'],
    },
    {
      name: 'regex characters are literal',
      patterns: ['a+b (1).md'],
      files: ['a+b (1).md', 'aab (1).md'],
      kept: ['aab (1).md'],
    },
  ];
  it.each(ignoreCases)('ignore: $name', ({ patterns, files, kept }) => {
    const raw = fixture(Object.fromEntries(files.map((f) => [f, 'x'])));
    const result = walkRaw(raw, { ignore: patterns });
    expect(result.messages).toEqual([]);
    expect(result.files.map((f) => f.path)).toEqual(kept);
  });

  it('compileIgnore matches names case-insensitively', () => {
    const ignored = compileIgnore(['*.tmp', '~$*']);
    expect(ignored('A.TMP', 'A.TMP')).toBe(true);
    expect(ignored('~$doc.docx', 'x/~$doc.docx')).toBe(true);
    expect(ignored('tmp.md', 'tmp.md')).toBe(false);
  });

  it('a symlink loop gets one diagnostic and is not descended', () => {
    const raw = fixture({ 'a.md': 'a', 'sub/b.md': 'b' });
    fs.symlinkSync(raw, path.join(raw, 'loop'));
    fs.symlinkSync(path.join(raw, 'sub'), path.join(raw, 'sub', 'again'));
    const { files, messages } = walkRaw(raw, { ignore: [] });
    expect(files.map((f) => f.path)).toEqual(['a.md', 'sub/b.md']);
    expect(messages.map((m) => [m.file, m.ruleId])).toEqual([
      ['raw/loop', 'ingest-symlink-loop'],
      ['raw/sub/again', 'ingest-symlink-loop'],
    ]);
    for (const m of messages) expect(m.reason).toMatch(/^Unexpected .+, expected /);
  });

  it('a link to a folder above raw/ leaves raw/: not followed', () => {
    const raw = fixture({ 'a.md': 'a' });
    fs.symlinkSync(path.dirname(raw), path.join(raw, 'up'));
    const { files, messages } = walkRaw(raw, { ignore: [] });
    expect(files.map((f) => f.path)).toEqual(['a.md']);
    expect(messages.map((m) => m.ruleId)).toEqual(['ingest-symlink-outside']);
  });

  /** A folder outside raw/ holding `sub/o.md` and `single.txt`, removed after the tests. */
  function outsideFolder(): string {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-outside-'));
    roots.push(outside);
    fs.mkdirSync(path.join(outside, 'sub'));
    fs.writeFileSync(path.join(outside, 'sub', 'o.md'), 'outside secret');
    fs.writeFileSync(path.join(outside, 'single.txt'), 'one file');
    return outside;
  }

  it('does not follow a link to a folder outside raw/, and says so', () => {
    const raw = fixture({ 'a.md': 'a' });
    const outside = outsideFolder();
    fs.symlinkSync(path.join(outside, 'sub'), path.join(raw, 'etc'));
    const { files, messages } = walkRaw(raw, { ignore: [] });
    expect(files.map((f) => f.path)).toEqual(['a.md']);
    expect(messages.map((m) => [m.file, m.ruleId])).toEqual([['raw/etc', 'ingest-symlink-outside']]);
    expect(messages[0]?.reason).toMatch(/^Unexpected symlink to `.+sub`, outside raw\/, expected /);
    expect(messages[0]?.note).toMatch(/did not follow it/);
  });

  it('does not follow a link to a file outside raw/', () => {
    const raw = fixture({ 'a.md': 'a' });
    const outside = outsideFolder();
    fs.symlinkSync(path.join(outside, 'single.txt'), path.join(raw, 'single.txt'));
    const { files, messages } = walkRaw(raw, { ignore: [] });
    expect(files.map((f) => f.path)).toEqual(['a.md']);
    expect(messages.map((m) => [m.file, m.ruleId])).toEqual([['raw/single.txt', 'ingest-symlink-outside']]);
  });

  it('does not follow a relative link that escapes raw/ through ..', () => {
    const raw = fixture({ 'a.md': 'a', 'notes/b.md': 'b' });
    fs.writeFileSync(path.join(path.dirname(raw), 'private.md'), 'next to raw/, not in it');
    fs.symlinkSync('../../private.md', path.join(raw, 'notes', 'p.md'));
    // A link to a link inside raw/ that itself leaves: judged by where the chain ends.
    fs.symlinkSync('../..', path.join(raw, 'notes', 'up'));
    fs.symlinkSync('notes/up/private.md', path.join(raw, 'chain.md'));
    const { files, messages } = walkRaw(raw, { ignore: [] });
    expect(files.map((f) => f.path)).toEqual(['a.md', 'notes/b.md']);
    expect(messages.map((m) => [m.file, m.ruleId])).toEqual([
      ['raw/chain.md', 'ingest-symlink-outside'],
      ['raw/notes/p.md', 'ingest-symlink-outside'],
      ['raw/notes/up', 'ingest-symlink-outside'],
    ]);
  });

  it('follows a link to a file inside raw/, also a relative one', () => {
    const raw = fixture({ 'a.md': 'a', 'sub/b.md': 'bee' });
    fs.symlinkSync(path.join(raw, 'sub', 'b.md'), path.join(raw, 'abs-link.md'));
    fs.symlinkSync('../a.md', path.join(raw, 'sub', 'rel-link.md'));
    const { files, messages } = walkRaw(raw, { ignore: [] });
    expect(messages).toEqual([]);
    expect(files.map((f) => f.path)).toEqual(['a.md', 'abs-link.md', 'sub/b.md', 'sub/rel-link.md']);
    expect(files.find((f) => f.path === 'abs-link.md')?.size).toBe(3);
  });

  it('raw/ reached through a link is walked, and links inside it judged by its real path', () => {
    const raw = fixture({ 'a.md': 'a' });
    const alias = path.join(path.dirname(raw), 'raw-alias');
    fs.symlinkSync(raw, alias);
    fs.symlinkSync(path.join(raw, 'a.md'), path.join(raw, 'b.md'));
    const { files, messages } = walkRaw(alias, { ignore: [] });
    expect(messages).toEqual([]);
    expect(files.map((f) => f.path)).toEqual(['a.md', 'b.md']);
  });

  it('a broken symlink is unreadable', () => {
    const raw = fixture({ 'a.md': 'a' });
    fs.symlinkSync(path.join(raw, 'missing.md'), path.join(raw, 'broken.md'));
    const { files, messages } = walkRaw(raw, { ignore: [] });
    expect(files.map((f) => f.path)).toEqual(['a.md']);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ file: 'raw/broken.md', ruleId: 'ingest-unreadable', severity: 'warning' });
  });

  it('a missing raw/ is an empty result', () => {
    expect(walkRaw(path.join(os.tmpdir(), 'kb-no-such-dir-7f3a'), { ignore: [] })).toEqual({ files: [], messages: [] });
  });

  it('walks 10,000 files (speed: npm run bench:stages)', () => {
    const raw = fixture({});
    for (let d = 0; d < 100; d++) {
      const dir = path.join(raw, `d${d}`);
      fs.mkdirSync(dir);
      for (let i = 0; i < 100; i++) fs.writeFileSync(path.join(dir, `f${i}.md`), 'x');
    }
    const { files } = walkRaw(raw, { ignore: DEFAULT_IGNORE });
    expect(files).toHaveLength(10_000);
  });
});

describe('walkRaw: a file name that is not UTF-8', () => {
  it.skipIf(process.platform !== 'linux')('names the file name, not its permissions, as what to fix', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-walk-gbk-'));
    // 中文 in GBK: four bytes that are not UTF-8.
    fs.writeFileSync(
      Buffer.concat([Buffer.from(`${root}/`), Buffer.from([0xd6, 0xd0, 0xce, 0xc4]), Buffer.from('.md')]),
      '# x\n',
    );
    const w = walkRaw(root, { ignore: [] });
    const m = w.messages.map((x) => x.reason).join('\n');
    expect(m).toMatch(/file name that is not UTF-8/);
    expect(w.messages.map((x) => x.note ?? '').join('\n')).not.toMatch(/permissions/);
    fs.rmSync(root, { recursive: true, force: true });
  });
});
