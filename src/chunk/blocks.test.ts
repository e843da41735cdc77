import { describe, expect, it } from 'vitest';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import { headingText, parseBlocks } from './blocks.js';

// remark-parse + remark-gfm is the reference: the scanner must find the same top-level blocks.
const remark = unified().use(remarkParse).use(remarkGfm);

const KIND: Record<string, string> = {
  blockquote: 'quote',
  code: 'code',
  definition: 'paragraph',
  footnoteDefinition: 'paragraph',
  heading: 'heading',
  html: 'html',
  list: 'list',
  paragraph: 'paragraph',
  table: 'table',
  thematicBreak: 'thematicBreak',
};

/** Top-level blocks as "kind@first-last" (1-based lines); adjacent definitions read as one paragraph. */
function reference(md: string): string[] {
  const out: { kind: string; first: number; last: number; def: boolean }[] = [];
  for (const node of remark.parse(md).children) {
    const kind = KIND[node.type] ?? node.type;
    const first = node.position?.start.line ?? 0;
    const last = node.position?.end.line ?? 0;
    const def = node.type === 'definition';
    const prev = out[out.length - 1];
    if (prev && prev.kind === 'paragraph' && kind === 'paragraph' && first === prev.last + 1 && (def || prev.def)) {
      prev.last = last;
      prev.def = def;
      continue;
    }
    out.push({ kind, first, last, def });
  }
  return out.map((b) => `${b.kind}@${b.first}-${b.last}`);
}

function scanned(md: string): string[] {
  return parseBlocks(md).blocks.map(
    (b) => `${b.kind === 'indentedCode' ? 'code' : b.kind}@${b.firstLine + 1}-${b.lastLine + 1}`,
  );
}

const CASES: Record<string, string> = {
  'atx and setext headings': '# One\n\ntext\nmore\n===\n\nSub\n---\n\n## Two ##\n',
  'fenced code with headings inside': '```md\n# not a heading\n\n- not a list\n```\n\nafter\n',
  'tilde fence containing backtick fence': '~~~\n```\ninside\n```\n~~~\ntext\n',
  'longer closing fence and unclosed fence': '````\n```\n`````\n\n```js\nnever closed\n# still code\n',
  'fence interrupts paragraph': 'para\n```\ncode\n```\n',
  'indented code': 'para\n\n    code line\n\n    more code\nback\n',
  'indented line continues a paragraph': 'para\n    not code\n',
  'lists with lazy lines and blank lines': '- a\nlazy\n\n  continued\n- b\n\n1. one\n2. two\n\nout\n',
  'list marker change starts a new list': '- a\n+ b\n* c\n',
  'ordered list only interrupts with 1': 'para\n2. no\n\npara\n1. yes\n',
  'fence inside a list item': '- item\n  ```\n  # x\n\n  - y\n  ```\n- next\n\nafter\n',
  'thematic breaks': '***\n- - -\n___\ntext\n\n---\n',
  'block quotes with lazy continuation': '> a\nlazy\n\n> b\n> ```\n> code\n> ```\n\nc\n',
  'html blocks': '<div>\n\ntext\n\n<!-- a\ncomment -->\npara\n\n<script>\nx\n\ny\n</script>\n<span>\n\n*b*\n',
  'html type 7 does not interrupt a paragraph': 'para\n<span>\n\nnext\n',
  tables: '| a | b |\n| - | :-: |\n| 1 | 2 |\nlazy row\n\npara\n| x | y |\n|---|---|\n| 1 | 2 |\n# h\n',
  'table without outer pipes': 'a | b\n--|--\n1 | 2\n',
  'not a table when cells differ': '| a | b |\n| - |\n',
  'definitions and footnotes': '[a]: http://a\n[b]: http://b\n\ntext[^1]\n\n[^1]: note\n    more\n',
  'emphasis lines are not breaks': '*a*\n**b**\n\n* * *\n',
  'crlf line endings': '# T\r\n\r\npara\r\nline\r\n\r\n```\r\ncode\r\n```\r\n',
  chinese: '# 标题\n\n向量数据库用于存储嵌入。\n它使用索引。\n\n## 小节\n\n- 一\n- 二\n',
  'heading without text': '#\n\n##\ntext\n',
  'table lines are lazy continuation in a list': '1. one\n| a | b |\n|---|---|\n\n> q\n| a |\n|---|\n',
  'indented line ends a table': '| a |\n|---|\n| 1 |\n    code\n',
  'empty item, blank line, next item': '-\n\n- [ ] task\n',
  'definitions then a thematic break': '[x]: http://x\n---\n',
  'empty document': '',
  'only blank lines': '\n\n  \n',
};

describe('scanBlocks', () => {
  it.each(Object.entries(CASES))('finds the same blocks as remark: %s', (_name, md) => {
    expect(scanned(md)).toEqual(reference(md));
  });

  it('agrees with remark on random documents made of tricky pieces', () => {
    const pieces = [
      '# Heading',
      '## Sub *heading*',
      'Setext\n===',
      'Para line one\nline two',
      'Para\n---',
      '- item\n- item two\n\n  more',
      '1. one\n2. two',
      '* star',
      '> quote\n> more',
      '> lazy\nline',
      '```js\ncode\n# x\n```',
      '~~~\n```\n~~~',
      '    indented',
      '| a | b |\n|---|---|\n| 1 | 2 |',
      '<div>\nhtml\n</div>',
      '<!-- c -->',
      '***',
      '- - -',
      '向量数据库。索引。',
      '- a\n  ```\n  b\n  ```',
      'text with | pipe',
      '+ plus',
      '>',
      '``` unclosed',
      '  - nested',
      '   > q',
      '\t- tab item',
      '1) paren',
      '- [ ] task',
      '> - quoted list',
      '>     code in quote',
      '- > quote in list',
      '<pre>\nx\n</pre>',
      '<?php x ?>',
      '<![CDATA[ x ]]>',
      '| just | pipes |',
      '====',
      '     five',
      ' ```\n  indented fence\n ```',
    ];
    let seed = 7;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let k = 0; k < 300; k++) {
      const parts: string[] = [];
      const count = 2 + rnd(8);
      for (let i = 0; i < count; i++) {
        parts.push(pieces[rnd(pieces.length)] ?? '');
        parts.push(['\n', '\n\n', '\n\n\n'][rnd(3)] ?? '\n');
      }
      const md = parts.join('');
      if (md.startsWith('---')) continue; // front matter, which remark-parse alone does not know
      expect(scanned(md), md).toEqual(reference(md));
    }
  });

  it('records front matter, fence info and list items', () => {
    const md = '---\ntitle: x\n---\n# T\n\n```ts title=a.ts\nx\n```\n\n- a\n- b\n\n  c\n- d\n';
    const { blocks } = parseBlocks(md);
    expect(blocks.map((b) => b.kind)).toEqual(['frontmatter', 'heading', 'code', 'list']);
    expect(blocks[2]?.fence).toMatchObject({ marker: '```', info: 'ts title=a.ts', closed: true, indent: 0 });
    expect(blocks[3]?.items).toEqual([9, 10, 13]);
  });
});

describe('headingText', () => {
  it.each([
    ['Plain title', 'Plain title'],
    ['Closing hashes ##', 'Closing hashes'],
    ['The *fast* `HNSW` index', 'The fast HNSW index'],
    ['[Link](http://x) and [[Wiki|shown]]', 'Link and shown'],
    ['snake_case stays', 'snake_case stays'],
    ['C# #', 'C#'],
    ['向量 **数据库**', '向量 数据库'],
  ])('%s → %s', (raw, text) => {
    expect(headingText(raw)).toBe(text);
  });
});
