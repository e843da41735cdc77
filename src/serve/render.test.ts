import { describe, expect, it } from 'vitest';
import { markdownRenderer } from './render.js';

const render = markdownRenderer({
  entryHref: (name) => ({ bm25: 'entry/concept/bm25', 向量数据库: 'entry/concept/向量数据库' })[name.toLowerCase()],
  fileHref: (name) => (['diagram.png', 'paper.pdf'].includes(name) ? `wiki/attachments/${name}` : undefined),
});

describe('markdownRenderer: wikilinks, embeds, code, and nothing that runs', () => {
  const cases: [string, string, RegExp[], RegExp[]][] = [
    ['a link to an entry', 'See [[BM25]].', [/<a href="entry\/concept\/bm25" class="wikilink">BM25<\/a>/], []],
    ['a link with shown text', '[[BM25|the ranking]]', [/href="entry\/concept\/bm25"[^>]*>the ranking</], []],
    ['a Chinese link', '[[向量数据库]]', [/href="entry\/concept\/向量数据库"/], []],
    ['a link to a heading', '[[BM25#Scores]]', [/href="entry\/concept\/bm25#Scores"/], []],
    ['a link to no entry', '[[Nowhere]]', [/<a class="wikilink missing" title="Nowhere">Nowhere<\/a>/], [/href/]],
    [
      'an image embed',
      '![[diagram.png]]',
      [/<img src="wiki\/attachments\/diagram.png" alt="diagram.png" class="embed">/],
      [/!/],
    ],
    [
      'an embed inside a sentence',
      'Look: ![[diagram.png|the diagram]] here',
      [/Look: <img[^>]*alt="the diagram"[^>]*> here/],
      [],
    ],
    [
      'an attachment that is no image',
      '![[paper.pdf]]',
      [/<a href="wiki\/attachments\/paper.pdf" class="embed">paper.pdf<\/a>/],
      [],
    ],
    [
      'code kept as written',
      '```ts\nconst a = [[1]];\n```',
      [/<pre><code class="language-ts">const a = \[\[1\]\];/],
      [/<a /],
    ],
    ['a formula kept', 'Score $k_1 = 1.2$', [/\$k_1 = 1.2\$/], []],
    ['a GFM table', '| a | b |\n|---|---|\n| 1 | 2 |', [/<table>/, /<td>1<\/td>/], []],
    // The tags go; what stood between them is left as inert text.
    ['raw script dropped', 'x <script>window.pwned = 1</script> y', [/<p>x /], [/<script/i]],
    ['a raw script block dropped', '<script>\nwindow.pwned = 1\n</script>', [], [/<script/i, /pwned/]],
    ['raw HTML with a handler dropped', '<img src=x onerror="window.pwned=1">', [], [/onerror/i, /<img/i]],
    ['a javascript: URL dropped', '[click](javascript:alert(1))', [/<a>click<\/a>/], [/javascript:/i]],
    ['an autolink kept', '<https://example.com/a?b=1>', [/href="https:\/\/example.com\/a\?b=1"/], []],
  ];
  for (const [name, md, must, mustNot] of cases)
    it(name, () => {
      const html = render(md);
      for (const m of must) expect(html).toMatch(m);
      for (const m of mustNot) expect(html).not.toMatch(m);
    });
});
