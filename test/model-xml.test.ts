import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractKbEntry, parseKbEntry } from '../src/model/xml.js';
import { loadTemplate, renderTemplate, splitTemplate } from '../src/model/templates.js';
import { cleanBody, checkCitations, entityMentions } from '../src/compile/model/writer.js';
import { isolate } from '../src/compile/model/prompts.js';
import { fixture } from './helpers.js';

const GOOD = `Here is the entry you asked for:

<kb_entry id="concept/rag">
  <title>Retrieval-Augmented Generation</title>
  <aliases><alias>RAG</alias><alias>检索增强生成</alias></aliases>
  <summary>One paragraph about R&D & search.</summary>
  <entities>
    <entity name="Vector Database" kind="concept"><alias>vector store</alias></entity>
    <entity name="BM25" kind="method"/>
  </entities>
  <body>## Overview

Uses <b>HTML</b>, a < b, AT&T and \`x && y\`, see [[Vector Database]].

\`\`\`ts
const a = b < c && d > e;
\`\`\`</body>
</kb_entry>

Hope this helps!`;

describe('parseKbEntry', () => {
  it('extracts the block from prose and parses every field', () => {
    const r = parseKbEntry(GOOD);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toMatchObject({
      id: 'concept/rag',
      title: 'Retrieval-Augmented Generation',
      aliases: ['RAG', '检索增强生成'],
      summary: 'One paragraph about R&D & search.',
      entities: [
        { name: 'Vector Database', kind: 'concept', aliases: ['vector store'] },
        { name: 'BM25', kind: 'method', aliases: [] },
      ],
    });
    expect(r.value.body).toContain('Uses <b>HTML</b>, a < b, AT&T and `x && y`');
    expect(r.value.body).toContain('const a = b < c && d > e;');
  });

  it('keeps a body already in CDATA and a body holding "]]>"', () => {
    const r = parseKbEntry(
      '<kb_entry><title>T</title><summary>S</summary><body><![CDATA[a ]]> b & <c>]]></body></kb_entry>',
    );
    expect(r.ok && r.value.body).toBe('a ]]> b & <c>');
  });

  it.each([
    ['no block', 'Sorry, I cannot.', /without a <kb_entry>/],
    ['cut off', '<kb_entry><title>T</title><summary>half', /never closed/],
    [
      'mismatched tags',
      '<kb_entry><title>T</summary><summary>S</summary><body>b</body></kb_entry>',
      /malformed XML at line \d+/,
    ],
    ['empty title', '<kb_entry><title> </title><summary>S</summary><body>b</body></kb_entry>', /empty <title>/],
    ['no body', '<kb_entry><title>T</title><summary>S</summary></kb_entry>', /empty <body>/],
    ['no summary', '<kb_entry><title>T</title><body>b</body></kb_entry>', /empty <summary>/],
    [
      'huge title',
      `<kb_entry><title>${'x'.repeat(300)}</title><summary>S</summary><body>b</body></kb_entry>`,
      /at most 200/,
    ],
  ])('reports %s', (_name, reply, error) => {
    const r = parseKbEntry(reply);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(error);
  });

  it('makes titles one plain line', () => {
    const r = parseKbEntry('<kb_entry><title>[[../../x]]\n| #y</title><summary>S</summary><body>b</body></kb_entry>');
    expect(r.ok && r.value.title).toBe('../../x y');
  });

  it('escapes stray & and < outside the body', () => {
    const b = extractKbEntry('<kb_entry><title>A & B < C</title><summary>S &amp; T</summary><body>x</body></kb_entry>');
    expect(b.ok && b.value).toContain('<title>A &amp; B &lt; C</title>');
    expect(b.ok && b.value).toContain('S &amp; T');
  });
});

describe('templates', () => {
  it('loads the shipped template, or the knowledge base own one, hashed', () => {
    const root = fixture();
    const shipped = loadTemplate(root, 'compile-source');
    expect(shipped.text).toContain('<kb_entry>');
    mkdirSync(join(root, 'templates'));
    writeFileSync(join(root, 'templates', 'compile-source.md'), 'Mine {{content}}');
    const own = loadTemplate(root, 'compile-source');
    expect(own.text).toBe('Mine {{content}}');
    expect(own.hash).not.toBe(shipped.hash);
    expect(() => loadTemplate(root, '../etc/passwd')).toThrow(/template name/);
  });

  it('fills placeholders once and refuses unknown ones', () => {
    expect(renderTemplate('a {{x}} b {{ y }}', { x: '{{y}}', y: '2' })).toBe('a {{y}} b 2');
    expect(() => renderTemplate('a {{typo}}', { x: '1' })).toThrow(
      /Unexpected placeholder \{\{typo\}\}, expected one of \{\{x\}\}/,
    );
  });

  it('splits instructions from input at <!-- kb:input -->', () => {
    expect(splitTemplate('sys\n<!-- kb:input -->\nin {{a}}')).toEqual({ system: 'sys', input: 'in {{a}}' });
    expect(splitTemplate('only')).toEqual({ system: 'only', input: '' });
  });

  it('every shipped model template renders with the placeholders kb passes', () => {
    const root = fixture();
    const vars: Record<string, Record<string, string>> = {
      'compile-source': {
        language: '',
        current: '',
        path: '',
        type: '',
        title: '',
        part: '',
        part_note: '',
        content: '',
      },
      'combine-source': { language: '', current: '', path: '', title: '', parts: '', notes: '' },
      concept: { language: '', title: '', aliases: '', current: '', sources: '' },
      'repair-entry': { error: '', reply: '' },
    };
    for (const [name, v] of Object.entries(vars)) {
      const { system, input } = splitTemplate(loadTemplate(root, name).text);
      expect(() => renderTemplate(system, v)).not.toThrow();
      expect(() => renderTemplate(input, v)).not.toThrow();
    }
  });
});

describe('model output checks', () => {
  it('isolates source text from the tags around it', () => {
    expect(isolate('x </source> <kb_entry> <Source_Entry a>')).toBe('x &lt;/source> &lt;kb_entry> &lt;Source_Entry a>');
  });

  it('strips the title heading and kb markers from a body', () => {
    expect(cleanBody('# Title\n\ntext\n<!-- kb:backlinks -->\n# Other', 'Title')).toBe('text\n\n## Other');
  });

  it('requires a concept to cite one of its sources', () => {
    const e = { title: 'T', aliases: [], summary: 's', entities: [], body: 'says [[A Source|this]].' };
    expect(checkCitations(e, ['a source'])).toBeUndefined();
    expect(checkCitations({ ...e, body: 'no cite' }, ['A Source'])).toMatch(/without citations.*\[\[A Source\]\]/);
  });

  it('counts where the document mentions each entity', () => {
    const md =
      'RAG retrieves passages first, then answers. Nothing here at all, really.\n\n检索增强生成（RAG）先检索相关段落再回答问题。';
    const [e] = entityMentions(md, [{ name: 'Retrieval-Augmented Generation', kind: 'concept', aliases: ['RAG'] }]);
    expect(e!.count).toBe(2);
    expect(e!.snippets).toHaveLength(2);
  });
});
