import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture, runKb, type CliResult, runKbIn } from './helpers.js';
import { makePdf } from './pdf-fixtures.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'formats');
const fx = (name: string) => readFileSync(join(FIXTURES, name));

/** Every .json file under a folder with its modification time. */
function cacheFiles(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of readdirSync(dir, { recursive: true }).map(String))
    if (f.endsWith('.json')) out.set(f, statSync(join(dir, f)).mtimeMs);
  return out;
}

describe('kb compile on every kind of document a person keeps', () => {
  let root: string;
  let compiled: CliResult;
  beforeAll(async () => {
    root = fixture({
      'raw/papers/capybara.pdf': await makePdf(
        [
          'Capybara field guide\nThe capybara is the largest living rodent.',
          'Diet\nCapybaras graze on grasses near water.',
        ],
        { title: 'Capybara Field Guide' },
      ),
      'raw/papers/向量数据库.pdf': fx('zh.pdf'),
      'raw/office/quokka.docx': fx('quokka.docx'),
      'raw/office/narwhal.pptx': fx('narwhal.pptx'),
      'raw/office/pangolin.xlsx': fx('pangolin.xlsx'),
      'raw/office/axolotl.odt': fx('axolotl.odt'),
      'raw/books/okapi.epub': fx('okapi.epub'),
      'raw/shots/screenshot.png': fx('zh-screenshot.png'),
      'raw/notes/dunhuang.txt': fx('dunhuang-gb18030.txt'),
      'raw/notes/gugong.txt': fx('gugong-big5.txt'),
      'raw/talks/lemur.srt':
        '1\n00:00:01,000 --> 00:00:04,000\nWelcome to the lemur talk.\n\n2\n00:01:05,000 --> 00:01:08,000\n狐猴生活在马达加斯加。\n',
      'raw/mail/platypus.mbox':
        'From a@example.com Thu Jan  4 10:20:00 2024\nFrom: A <a@example.com>\nSubject: Platypus sightings\n\nTwo platypus at dawn.\n\nFrom b@example.com Thu Jan  4 11:20:00 2024\nFrom: B <b@example.com>\nSubject: Echidna too\n\nAnd one echidna.\n',
      'raw/feeds/ocelot.rss':
        '<rss version="2.0"><channel><title>Ocelot Weekly</title><item><title>Ocelots at night</title><description>Ocelots hunt at night.</description></item></channel></rss>',
      'raw/clips/hybrid.html': fx('blog.html'),
      'raw/broken/locked.docx': Buffer.from('PK\x03\x04 not really a zip', 'latin1'),
    });
    compiled = await runKb(['compile', '--offline', '--verbose'], { cwd: root });
  });

  it('compiles, with one diagnostic for the broken file and the encoding guesses under --verbose', () => {
    expect(compiled.code, compiled.stderr).toBe(0);
    // The broken file keeps an entry that describes it, as an attachment.
    expect(compiled.stdout).toMatch(/^15 new, 0 updated, 0 unchanged, 0 deleted, 0 skipped;/m);
    expect(compiled.stderr).toContain('raw/broken/locked.docx: warning Unexpected broken zip container');
    expect(compiled.stderr).toContain('new     raw/notes/dunhuang.txt (read as GB18030, guessed)');
    expect(compiled.stderr).toContain('new     raw/notes/gugong.txt (read as Big5, guessed)');
  });

  const found: [string, string][] = [
    ['largest living rodent', 'raw/papers/capybara.pdf'],
    ['余弦距离', 'raw/papers/向量数据库.pdf'],
    ['短尾矮袋鼠', 'raw/office/quokka.docx'],
    ['独角鲸', 'raw/office/narwhal.pptx'],
    ['穿山甲', 'raw/office/pangolin.xlsx'],
    ['美西螈', 'raw/office/axolotl.odt'],
    ['霍加狓', 'raw/books/okapi.epub'],
    ['知识库编译器', 'raw/shots/screenshot.png'],
    ['敦煌壁画', 'raw/notes/dunhuang.txt'],
    ['故宮', 'raw/notes/gugong.txt'],
    ['马达加斯加', 'raw/talks/lemur.srt'],
    ['echidna', 'raw/mail/platypus.mbox#echidna-too'], // one entry per message
    ['Ocelots', 'raw/feeds/ocelot.rss'],
    ['reciprocal rank fusion', 'raw/clips/hybrid.html'],
  ];
  it.each(found)('`kb search %s` finds the entry of %s by its words', async (query, raw) => {
    const r = await runKbIn(['search', query, '--json'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    const top = (JSON.parse(r.stdout) as { entries: { sourceRef: string[]; via: string[] }[] }).entries[0];
    expect(top?.sourceRef).toEqual([raw]);
    // Found by full-text search, not only as the nearest vector.
    expect(top?.via).toContain('bm25');
  });

  it('a PDF passage knows its page; the original is in the vault', async () => {
    const r = await runKbIn(['search', 'graze on grasses', '--json'], { cwd: root });
    const out = JSON.parse(r.stdout) as { passages?: { heading: string }[] };
    expect(out.passages?.[0]?.heading).toContain('p. 2');
    expect(readdirSync(join(root, 'wiki', 'attachments')).sort()).toEqual([
      'axolotl.odt',
      'capybara.pdf',
      'locked.docx',
      'narwhal.pptx',
      'okapi.epub',
      'pangolin.xlsx',
      'quokka.docx',
      'screenshot.png',
      '向量数据库.pdf',
    ]);
  });

  it('--force re-renders entries without reading images and documents again (kept by content hash in .kb/ingest)', async () => {
    const dir = join(root, '.kb', 'ingest');
    const before = cacheFiles(dir);
    expect(before.size).toBe(9); // 2 PDFs, 5 Office files and e-books, 1 image, and why the broken .docx is not read
    const r = await runKbIn(['compile', '--offline', '--force'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(cacheFiles(dir)).toEqual(before);
  });
});

describe('upgrading a knowledge base compiled by an older kb', () => {
  it('reads its PDFs (and other newly supported files) again once, and Markdown not at all', async () => {
    const root = fixture({
      'raw/tapir.pdf': await makePdf(['Tapirs\nTapirs browse on leaves.']),
      'raw/note.md': '# Note\n\nA note.\n',
    });
    expect((await runKbIn(['compile', '--offline'], { cwd: root })).code).toBe(0);
    // What an older kb leaves behind: no ingest version in the store.
    const db = new Database(join(root, 'wiki', 'embeddings.db'));
    db.prepare(`DELETE FROM meta WHERE key = 'ingest_version'`).run();
    db.close();
    const upgraded = await runKbIn(['compile', '--offline', '--verbose'], { cwd: root });
    expect(upgraded.code, upgraded.stderr).toBe(0);
    expect(upgraded.stderr).toContain('update  raw/tapir.pdf');
    expect(upgraded.stderr).not.toContain('raw/note.md');
    const again = await runKbIn(['compile', '--offline'], { cwd: root });
    expect(again.stdout).toMatch(/^0 new, 0 updated, 2 unchanged/m);
  });
});
