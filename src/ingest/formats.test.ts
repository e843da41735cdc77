import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { makePdf } from '../../test/pdf-fixtures.js';
import type { RawPath } from '../types.js';
import { sha256 } from '../util/hash.js';
import { ingestFile, type IngestOptions } from './index.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'formats');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

async function ingest(path: string, content: string | Buffer, opts: Partial<IngestOptions> = {}) {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return ingestFile(
    { path: path as RawPath, absPath: `/kb/raw/${path}`, size: bytes.length, mtimeMs: 0 },
    bytes,
    sha256(bytes),
    { maxFileBytes: 10 * 1024 * 1024, ...opts },
  );
}

describe('PDF', () => {
  it('keeps the text of every page under a `## p. N` heading, the title from the metadata', async () => {
    const pdf = await makePdf(
      [
        'Chapter one\nThe capybara is the largest rodent.',
        'Chapter two\nCapybaras live near water.',
        'Chapter three\nThey graze on grasses.',
      ],
      { title: 'Capybara Handbook', author: 'Ana Lima' },
    );
    const seen: [number, number][] = [];
    const { doc, messages } = await ingest('papers/capybara.pdf', pdf, { onProgress: (d, t) => seen.push([d, t]) });
    expect(messages).toEqual([]);
    expect(doc).toMatchObject({ type: 'document', mime: 'application/pdf', title: 'Capybara Handbook', lang: 'en' });
    expect(doc!.meta).toMatchObject({ pages: 3, author: 'Ana Lima' });
    const md = doc!.markdown;
    expect(md.indexOf('## p. 1')).toBeLessThan(md.indexOf('The capybara is the largest rodent.'));
    expect(md.indexOf('## p. 2')).toBeLessThan(md.indexOf('Capybaras live near water.'));
    expect(md.indexOf('Capybaras live near water.')).toBeLessThan(md.indexOf('## p. 3'));
    // The heading line (a larger font) is its own paragraph, not glued to the text under it.
    expect(md).toContain('Chapter two\n\nCapybaras live near water.');
    expect(seen.at(-1)).toEqual([3, 3]);
  });

  it('takes the title from the first line when the metadata has none', async () => {
    const { doc } = await ingest('x.pdf', await makePdf(['Notes on tapirs\nTapirs are browsers.']));
    expect(doc?.title).toBe('Notes on tapirs');
  });

  it('reads Chinese text (a committed fixture with an embedded CJK font)', async () => {
    const { doc, messages } = await ingest('zh.pdf', fixture('zh.pdf'));
    expect(messages).toEqual([]);
    expect(doc).toMatchObject({ title: '向量数据库入门', lang: 'zh' });
    expect(doc!.markdown).toContain('向量数据库用余弦距离比较嵌入向量。');
    expect(doc!.markdown).toMatch(/## p\. 2\n\n混合检索结合关键词和语义。/);
  });

  it('a password-protected PDF is a diagnostic, not a crash', async () => {
    const { doc, messages } = await ingest(
      'secret.pdf',
      await makePdf(['Secret capybara plans'], { userPassword: 'hunter2' }),
    );
    // The file keeps an entry that describes it, as any attachment.
    expect(doc).toMatchObject({ type: 'attachment', mime: 'application/pdf', title: 'secret.pdf' });
    expect(messages.map((m) => m.ruleId)).toEqual(['ingest-pdf-encrypted']);
    expect(messages[0]!.file).toBe('raw/secret.pdf');
  });

  it('a truncated PDF is a diagnostic', async () => {
    const pdf = await makePdf(['Some text', 'More text']);
    const { doc, messages } = await ingest('cut.pdf', pdf.subarray(0, 300));
    expect(doc?.type).toBe('attachment');
    expect(messages.map((m) => m.ruleId)).toEqual(['ingest-pdf-broken']);
  });

  it('a scanned PDF (no text layer) says so', async () => {
    const { doc, messages } = await ingest('scan.pdf', await makePdf(['', ''], { drawOnly: true }));
    expect(doc?.type).toBe('attachment');
    expect(messages.map((m) => m.ruleId)).toEqual(['ingest-pdf-no-text']);
  });
});

describe('Office files and e-books', () => {
  it('DOCX through mammoth: title from the properties, headings, lists and tables as Markdown', async () => {
    const { doc, messages } = await ingest('quokka.docx', fixture('quokka.docx'));
    expect(messages).toEqual([]);
    expect(doc).toMatchObject({ type: 'document', title: 'Quokka Field Notes 短尾矮袋鼠' });
    expect(doc!.meta).toMatchObject({ author: 'Li Lei' });
    expect(doc!.markdown).toContain('# Habitat');
    expect(doc!.markdown).toContain('## Observations');
    expect(doc!.markdown).toContain('- The Quokka feeds at dawn\n');
    expect(doc!.markdown).toContain('  - sometimes more');
    expect(doc!.markdown).toMatch(/\| Site +\| Count +\| 备注 +\|\n\| -+ \|/);
    expect(doc!.markdown).toContain('短尾矮袋鼠生活在小群体中。');
    expect(doc!.markdown).not.toContain('[]()');
  });

  it('PPTX: one `## Slide N: title` section per slide', async () => {
    const { doc } = await ingest('narwhal.pptx', fixture('narwhal.pptx'));
    expect(doc?.title).toBe('Narwhal Field Notes 独角鲸');
    const md = doc!.markdown;
    expect(md).toContain('## Slide 2: Habitat\n\nThe Narwhal lives in small groups. 独角鲸生活在小群体中。');
    expect(md.indexOf('## Slide 2: Habitat')).toBeLessThan(md.indexOf('## Slide 3: Summary'));
    expect(md).not.toMatch(/^# /m);
  });

  it('XLSX: one `## Sheet: name` section per sheet, each a table with its header row', async () => {
    const { doc } = await ingest('pangolin.xlsx', fixture('pangolin.xlsx'));
    expect(doc?.title).toBe('Pangolin survey');
    expect(doc!.markdown).toContain('Workbook of 2 sheets: 穿山甲 Pangolin, Notes.');
    expect(doc!.markdown).toContain(
      '## Sheet: 穿山甲 Pangolin\n\n| Region | Q1 | Q2 | 备注 |\n| --- | --- | --- | --- |\n| North | 120 | 135 | 穿山甲数量增长 |',
    );
    expect(doc!.markdown).toContain('## Sheet: Notes');
  });

  it('ODT and EPUB: the document with its chapter headings', async () => {
    const odt = await ingest('axolotl.odt', fixture('axolotl.odt'));
    expect(odt.doc?.title).toBe('Axolotl Field Notes 美西螈');
    expect(odt.doc!.markdown).toContain('# Habitat\n\nThe Axolotl lives in small groups. 美西螈生活在小群体中。');
    const epub = await ingest('okapi.epub', fixture('okapi.epub'));
    expect(epub.doc?.title).toBe('Okapi Field Notes 霍加狓');
    expect(epub.doc!.markdown).toContain(
      '# Summary\n\nField work on the Okapi continues next year. 明年继续研究霍加狓。',
    );
  });

  const odf = (body: string, mime: string) =>
    Buffer.from(
      zipSync({
        mimetype: strToU8(mime),
        'content.xml': strToU8(
          `<?xml version="1.0"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"><office:body>${body}</office:body></office:document-content>`,
        ),
        'meta.xml': strToU8(
          '<office:document-meta xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"><office:meta><meta:initial-creator>Wu Fang</meta:initial-creator><meta:creation-date>2025-03-04T10:00:00</meta:creation-date></office:meta></office:document-meta>',
        ),
      }),
    );

  it('ODS: one `## Sheet` per table; repeated cells expanded, an empty tail of repeats dropped', async () => {
    const row = (...cells: string[]) =>
      `<table:table-row>${cells.join('')}<table:table-cell table:number-columns-repeated="16000"/></table:table-row>`;
    const cell = (t: string, times = 1) =>
      `<table:table-cell table:number-columns-repeated="${times}"><text:p>${t}</text:p></table:table-cell>`;
    const ods = odf(
      `<office:spreadsheet><table:table table:name="Tapirs"><table:table-column table:number-columns-repeated="3"/>${row(cell('Site'), cell('Count'))}${row(cell('Lowland &amp; river'), cell('4'))}${row(cell('—', 2))}<table:table-row table:number-rows-repeated="1048000"><table:table-cell table:number-columns-repeated="16000"/></table:table-row></table:table></office:spreadsheet>`,
      'application/vnd.oasis.opendocument.spreadsheet',
    );
    const { doc, messages } = await ingest('tapir.ods', ods);
    expect(messages).toEqual([]);
    expect(doc?.title).toBe('tapir');
    expect(doc!.meta).toMatchObject({ author: 'Wu Fang', published: '2025-03-04' });
    expect(doc!.markdown).toBe(
      'Workbook of 1 sheet: Tapirs.\n\n## Sheet: Tapirs\n\n| Site | Count |\n| --- | --- |\n| Lowland & river | 4 |\n| — | — |\n',
    );
  });

  it('ODP: one `## Slide N: title` section per page, its text boxes as lists and paragraphs', async () => {
    const frame = (cls: string, inner: string) =>
      `<draw:frame presentation:class="${cls}"><draw:text-box>${inner}</draw:text-box></draw:frame>`;
    const odp = odf(
      `<office:presentation><draw:page draw:name="page1">${frame('title', '<text:p>Sloths</text:p>')}${frame('outline', '<text:list><text:list-item><text:p>Slow</text:p></text:list-item><text:list-item><text:p>Sleepy <text:span>all</text:span><text:s text:c="2"/>day</text:p></text:list-item></text:list>')}</draw:page><draw:page draw:name="page2">${frame('title', '<text:p>Diet</text:p>')}${frame('notes', '<text:p>speaker notes</text:p>')}${frame('subtitle', '<text:p>Leaves 树叶</text:p>')}</draw:page></office:presentation>`,
      'application/vnd.oasis.opendocument.presentation',
    );
    const { doc } = await ingest('sloth.odp', odp);
    expect(doc?.title).toBe('Sloths');
    expect(doc!.markdown).toBe('## Slide 1: Sloths\n\n- Slow\n- Sleepy all day\n\n## Slide 2: Diet\n\nLeaves 树叶\n');
  });

  it('XLSX with shared strings, booleans and a sheet listed out of file order', async () => {
    const rel = (id: string, target: string) =>
      `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="${target}"/>`;
    const ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
    const xlsx = zipSync({
      'xl/workbook.xml': strToU8(
        `<workbook ${ns} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Second" sheetId="2" r:id="rId2"/><sheet name="First" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
      'xl/_rels/workbook.xml.rels': strToU8(
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rel('rId1', 'worksheets/sheet1.xml')}${rel('rId2', 'worksheets/sheet2.xml')}</Relationships>`,
      ),
      'xl/sharedStrings.xml': strToU8(
        `<sst ${ns}><si><t>Animal</t></si><si><r><t>Wom</t></r><r><t>bat</t></r><rPh><t>ウォンバット</t></rPh></si></sst>`,
      ),
      'xl/worksheets/sheet1.xml': strToU8(
        `<worksheet ${ns}><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="C1" t="str"><v>Burrows</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c><c r="C2" t="b"><v>1</v></c></row></sheetData></worksheet>`,
      ),
      'xl/worksheets/sheet2.xml': strToU8(`<worksheet ${ns}><sheetData/></worksheet>`),
    });
    const { doc } = await ingest('wombat.xlsx', Buffer.from(xlsx));
    expect(doc!.markdown).toBe(
      'Workbook of 2 sheets: Second, First.\n\n## Sheet: Second\n\n## Sheet: First\n\n| Animal |  | Burrows |\n| --- | --- | --- |\n| Wombat |  | TRUE |\n',
    );
  });

  it('EPUB: every spine file in reading order, a chapter marked up as <main> among them; no navigation', async () => {
    const page = (body: string) => strToU8(`<html xmlns="http://www.w3.org/1999/xhtml"><body>${body}</body></html>`);
    const epub = zipSync({
      mimetype: strToU8('application/epub+zip'),
      'META-INF/container.xml': strToU8(
        '<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OPS/book.opf"/></rootfiles></container>',
      ),
      'OPS/book.opf': strToU8(
        '<package xmlns="http://www.idpf.org/2007/opf"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Dugongs</dc:title><dc:creator>Ana Lima</dc:creator></metadata><manifest><item id="nav" href="nav.xhtml" properties="nav"/><item id="b" href="text/b%20two.xhtml"/><item id="a" href="text/a.xhtml"/></manifest><spine><itemref idref="nav"/><itemref idref="a"/><itemref idref="b"/></spine></package>',
      ),
      'OPS/nav.xhtml': page('<ol><li>Contents list</li></ol>'),
      'OPS/text/a.xhtml': page('<h1>Seagrass</h1><p>Dugongs graze seagrass.<img src="../img/d.png"/></p>'),
      'OPS/text/b two.xhtml': page('<main><h1>Range</h1><p>儒艮分布在印度洋。</p></main>'),
    });
    const { doc } = await ingest('dugong.epub', Buffer.from(epub));
    expect(doc).toMatchObject({ title: 'Dugongs', meta: { author: 'Ana Lima' } });
    expect(doc!.markdown).toBe('# Seagrass\n\nDugongs graze seagrass.\n\n# Range\n\n儒艮分布在印度洋。\n');
  });

  it('a zip bomb named .docx is a diagnostic before any parser unpacks it', async () => {
    const bomb = zipSync(
      { '[Content_Types].xml': strToU8('<Types/>'), 'word/document.xml': new Uint8Array(8 * 1024 * 1024) },
      { level: 9 },
    );
    const { doc, messages } = await ingest('bomb.docx', Buffer.from(bomb), { maxUnpackedBytes: 1024 * 1024 });
    expect(doc?.type).toBe('attachment');
    expect(messages.map((m) => m.ruleId)).toEqual(['ingest-zip-bomb']);
  });

  it('a zip bomb that lies about its sizes is caught while inflating', async () => {
    const bomb = zipSync({ 'word/document.xml': new Uint8Array(8 * 1024 * 1024) }, { level: 9 });
    const dv = new DataView(bomb.buffer, bomb.byteOffset, bomb.byteLength);
    for (let i = 0; i + 4 <= bomb.length; i++) {
      if (dv.getUint32(i, true) === 0x04034b50) dv.setUint32(i + 22, 100, true);
      if (dv.getUint32(i, true) === 0x02014b50) dv.setUint32(i + 24, 100, true);
    }
    const { doc, messages } = await ingest('liar.xlsx', Buffer.from(bomb), { maxUnpackedBytes: 1024 * 1024 });
    expect(doc?.type).toBe('attachment');
    expect(messages.map((m) => m.ruleId)).toEqual(['ingest-zip-bomb']);
    expect(messages[0]!.reason).toMatch(/more than 1\.0 MB unpacked/);
  });
});

describe('images', () => {
  it('OCR reads Chinese and English text in a screenshot; the image stays embedded', async () => {
    const { doc, messages } = await ingest('shots/zh-screenshot.png', fixture('zh-screenshot.png'));
    expect(messages).toEqual([]);
    expect(doc).toMatchObject({ type: 'attachment', mime: 'image/png', title: 'zh-screenshot.png' });
    expect(doc!.meta['ocr']).toMatchObject({ lines: 2 });
    expect(doc!.markdown).toContain('## Text in the image');
    expect(doc!.markdown).toContain('知识库编译器');
    expect(doc!.markdown).toContain('检索增强生成');
    expect(doc!.markdown).toMatch(/Retrieval/);
  });

  it('an image without text stays a plain attachment, without a diagnostic', async () => {
    const blank = await sharp({ create: { width: 200, height: 120, channels: 3, background: '#88aa88' } })
      .png()
      .toBuffer();
    const { doc, messages } = await ingest('photo.png', blank);
    expect(messages).toEqual([]);
    expect(doc).toMatchObject({ type: 'attachment', meta: { width: 200, height: 120 } });
    expect(doc!.markdown).not.toContain('Text in the image');
  });

  it('OCR text is kept by content hash: a cached result is used, not made again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-ocr-cache-'));
    const png = fixture('zh-screenshot.png');
    const first = await ingest('a.png', png, { cacheDir: dir });
    expect(first.doc!.markdown).toContain('知识库编译器');
    const files = readdirSync(dir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.json'));
    expect(files).toHaveLength(1);
    // Change what the cache holds: the next ingest of the same bytes (another name) reads it back.
    const path = join(dir, files[0]!);
    const kept = JSON.parse(readFileSync(path, 'utf8')) as { text: string };
    writeFileSync(path, JSON.stringify({ ...kept, text: 'from the cache' }));
    const second = await ingest('renamed.png', png, { cacheDir: dir });
    expect(second.doc!.markdown).toContain('from the cache');
    expect(second.doc!.markdown).not.toContain('知识库编译器');
  });
});

describe('subtitles', () => {
  const srt =
    '1\n00:00:01,000 --> 00:00:04,000\nWelcome to the <i>lemur</i> talk.\n\n2\n00:00:05,000 --> 00:00:07,000\n狐猴生活在马达加斯加。\n\n3\n00:01:10,500 --> 00:01:12,000\nThe second minute.\n';
  it('SRT: a transcript with `## hh:mm:ss` anchors, tags removed', async () => {
    const { doc, messages } = await ingest('talks/lemur.srt', srt);
    expect(messages).toEqual([]);
    expect(doc).toMatchObject({ type: 'subtitle', title: 'lemur' });
    expect(doc!.markdown).toBe(
      '## 00:00:01\n\nWelcome to the lemur talk.狐猴生活在马达加斯加。\n\n## 00:01:10\n\nThe second minute.\n',
    );
  });

  it('WebVTT with cue ids, settings and voices', async () => {
    const vtt =
      'WEBVTT\n\nNOTE made by hand\n\nintro\n00:00:01.000 --> 00:00:04.000 align:start\n<v Roger>Meerkats stand guard.\n\n00:00:04.500 --> 00:00:06.000\n猫鼬轮流站岗。\n';
    const { doc } = await ingest('meerkat.vtt', vtt);
    expect(doc!.markdown).toBe('## 00:00:01\n\nMeerkats stand guard.猫鼬轮流站岗。\n');
  });

  it('a subtitle file without cues is a diagnostic', async () => {
    const { doc, messages } = await ingest('empty.srt', 'just some words\n');
    expect(doc).toBeUndefined();
    expect(messages).toHaveLength(1);
    expect(messages[0]!.ruleId).toMatch(/^ingest-(empty|subtitle)$/);
  });
});

describe('mail', () => {
  const eml = [
    'From: =?UTF-8?B?5byg5LiJ?= <zhang@example.com>',
    'To: Li Si <li@example.com>',
    'Subject: =?UTF-8?B?5ZCR6YeP5pWw5o2u5bqT6YCJ5Z6L?=',
    'Date: Thu, 04 Jan 2024 10:20:00 +0800',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=gb2312',
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from([0xce, 0xd2, 0xc3, 0xc7, 0xcc, 0xd6, 0xc2, 0xdb, 0x20, 0x48, 0x4e, 0x53, 0x57, 0x0a]).toString(
      'base64',
    ),
    '',
  ].join('\r\n');
  it('.eml: subject as title, sender and date as metadata, the body in its charset', async () => {
    const { doc, messages } = await ingest('mail/plan.eml', eml);
    expect(messages).toEqual([]);
    expect(doc).toMatchObject({ type: 'mail', title: '向量数据库选型' });
    expect(doc!.meta).toMatchObject({ author: '张三 <zhang@example.com>', published: '2024-01-04 02:20', to: 'Li Si' });
    expect(doc!.markdown).toContain('我们讨论 HNSW');
  });

  it('.mbox: one `## Subject` section per message; `>From` lines unescaped; HTML bodies as Markdown', async () => {
    const mbox = [
      'From alice@example.com Thu Jan  4 10:20:00 2024',
      'From: Alice <alice@example.com>',
      'Subject: Platypus sightings',
      'Date: Thu, 04 Jan 2024 10:20:00 +0000',
      '',
      'Two platypus seen at dawn.',
      '>From the river bank.',
      '',
      'From bob@example.com Fri Jan  5 11:00:00 2024',
      'From: Bob <bob@example.com>',
      'Subject: Re: Platypus sightings',
      'Date: Fri, 05 Jan 2024 11:00:00 +0000',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<p>Great, and an <b>echidna</b> too?</p>',
      '',
    ].join('\n');
    const { doc } = await ingest('lists/wildlife.mbox', mbox);
    expect(doc).toMatchObject({ type: 'mail', title: 'wildlife', meta: { messages: 2 } });
    const md = doc!.markdown;
    expect(md).toContain('## Platypus sightings\n\n- From: Alice <alice@example.com>');
    expect(md).toContain('Two platypus seen at dawn.\nFrom the river bank.');
    expect(md).toContain('## Re: Platypus sightings');
    expect(md).toContain('Great, and an **echidna** too?');
  });
});

describe('feeds', () => {
  it('RSS 2.0: the channel title, one `## item` section per item with link and date', async () => {
    const rss = `<?xml version="1.0"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>Ocelot Weekly</title><link>https://ocelot.example.com/</link>
      <item><title>Ocelots at night</title><link>https://ocelot.example.com/1</link><pubDate>Mon, 01 Jan 2024 09:00:00 GMT</pubDate><content:encoded><![CDATA[<p>Ocelots hunt <b>at night</b>.</p>]]></content:encoded></item>
      <item><title>豹猫的栖息地</title><description>&lt;p&gt;豹猫生活在森林里。&lt;/p&gt;</description></item></channel></rss>`;
    const { doc, messages } = await ingest('feeds/ocelot.xml', rss);
    expect(messages).toEqual([]);
    expect(doc).toMatchObject({
      type: 'feed',
      title: 'Ocelot Weekly',
      url: 'https://ocelot.example.com/',
      meta: { items: 2 },
    });
    expect(doc!.markdown).toBe(
      '## Ocelots at night\n\n<https://ocelot.example.com/1> · 2024-01-01\n\nOcelots hunt **at night**.\n\n## 豹猫的栖息地\n\n豹猫生活在森林里。\n',
    );
  });

  it('Atom', async () => {
    const atom = `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Manatee notes</title><link href="https://m.example.com/"/>
      <entry><title type="text">Sea cows</title><link rel="alternate" href="https://m.example.com/sea-cows"/><updated>2024-02-02T00:00:00Z</updated><author><name>Ada</name></author><content type="html">&lt;p&gt;Manatees graze on seagrass.&lt;/p&gt;</content></entry></feed>`;
    const { doc } = await ingest('manatee.atom', atom);
    expect(doc).toMatchObject({ type: 'feed', title: 'Manatee notes' });
    expect(doc!.markdown).toBe(
      '## Sea cows\n\n<https://m.example.com/sea-cows> · 2024-02-02 · Ada\n\nManatees graze on seagrass.\n',
    );
  });

  it('an .xml file that is not a feed stays code; a broken .rss is a diagnostic', async () => {
    expect((await ingest('pom.xml', '<project><name>x</name></project>\n')).doc?.type).toBe('code');
    const { doc, messages } = await ingest('bad.rss', '<html><body>not a feed</body></html>');
    expect(doc).toBeUndefined();
    expect(messages.map((m) => m.ruleId)).toEqual(['ingest-feed']);
  });
});

describe('text in any encoding', () => {
  const cases: [string, Buffer, string, string][] = [
    ['GB18030', fixture('dunhuang-gb18030.txt'), '敦煌壁画是中国古代艺术的宝库。', 'GB18030'],
    ['Big5', fixture('gugong-big5.txt'), '臺北故宮收藏了大量的文物。', 'Big5'],
    [
      'a short GBK line among ASCII',
      Buffer.from('line one\nline two \xd6\xd0\xce\xc4\n', 'latin1'),
      'line two 中文',
      'GB18030',
    ],
    [
      'UTF-16 LE without a BOM',
      Buffer.from('Shopping list: 牛奶 and bread\n', 'utf16le'),
      'Shopping list: 牛奶 and bread',
      'UTF-16LE',
    ],
    [
      'Shift_JIS',
      Buffer.from('93fa967b8cea82cc8365834c8358836782c582b781420a', 'hex'),
      '日本語のテキストです',
      'Shift_JIS',
    ],
    [
      'Latin-1 French',
      Buffer.from('Le café est très bon. À bientôt, garçon! Ça coûte cher.\n', 'latin1'),
      'Le café est très bon.',
      'ISO-8859-1',
    ],
  ];
  it.each(cases)('%s', async (_name, bytes, text, encoding) => {
    const { doc, messages } = await ingest('note.txt', bytes);
    expect(messages).toEqual([]);
    expect(doc?.markdown).toContain(text);
    expect(doc?.encoding).toBe(encoding);
  });

  it('UTF-8 needs no guess', async () => {
    const { doc } = await ingest('u.txt', '中文 text\n');
    expect(doc).not.toHaveProperty('encoding');
  });

  it('bytes that are no known encoding keep the diagnostic', async () => {
    const { doc, messages } = await ingest('x.md', Buffer.from([0xff, 0xfe, 0x41]));
    expect(doc).toBeUndefined();
    expect(messages.map((m) => m.ruleId)).toEqual(['ingest-encoding']);
  });
});

describe('web clips', () => {
  const page = readFileSync(join(FIXTURES, 'blog.html'), 'utf8');
  it('keeps the article and drops page chrome that is not marked up as such', async () => {
    const { doc } = await ingest('clips/hybrid.html', page);
    expect(doc).toMatchObject({
      type: 'html',
      title: 'Why hybrid search beats pure vectors',
      url: 'https://blog.example.com/hybrid-search',
    });
    const md = doc!.markdown;
    expect(md).toContain('reciprocal rank fusion of BM25 and cosine similarity');
    expect(md).toContain('## How fusion works');
    expect(md).toContain('score = sum(1 / (60 + rank_i))');
    for (const chrome of [
      'We use cookies',
      'Related posts',
      'Leave a reply',
      'Newsletter',
      'Tweet',
      'Archive',
      'Privacy',
    ])
      expect(md, chrome).not.toContain(chrome);
    expect(doc!.meta).toMatchObject({ author: 'Ada Lovelace' });
  });

  it('a Chinese news page: the article, without navigation, related links and comments; the <h1> as title', async () => {
    const { doc } = await ingest('clips/vdb.html', fixture('news-zh.html'));
    expect(doc?.title).toBe('向量数据库如何选型？');
    const md = doc!.markdown;
    expect(md).toContain('HNSW 索引在召回率和延迟之间取得了很好的平衡');
    for (const chrome of ['相关推荐', '热门排行', '网友评论', '首页', '版权所有', '分享到'])
      expect(md, chrome).not.toContain(chrome);
  });
});
