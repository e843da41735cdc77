import { describe, expect, it } from 'vitest';
import { offlineAnswer, statements } from './answer.js';
import type { PackedContext, PackedEntry } from './pack.js';
import type { PassageHit } from './retrieve.js';

function entry(id: string, title: string, texts: string[], kind = 'source', summary = ''): PackedEntry {
  const passages: PassageHit[] = texts.map((text, i) => ({
    chunkId: i,
    entryId: id,
    title,
    rawPath: null,
    heading: '',
    text,
    tokens: 0,
    line: 1,
    score: 1,
    via: ['bm25'],
  }));
  return { id, title, file: title, kind, summary, backlinks: [], lastUpdated: '', passages };
}

const packed = (...entries: PackedEntry[]): PackedContext => ({ xml: '', tokens: 0, budget: 4000, entries });

describe('statements', () => {
  it('leaves out headings, code, tables, link lists and Sources/Backlinks lines', () => {
    const text = [
      '# Tides',
      'Tides are caused by the Moon.',
      '```js',
      'const tides = moon.pull(sea);',
      '```',
      '| Tide | Height |',
      '| --- | --- |',
      '- [[Moon]]',
      '## Sources',
      'Sources',
      '- The Sun also pulls on the sea.',
      '<!-- kb:backlinks -->',
    ].join('\n');
    expect(statements(text)).toEqual(['Tides are caused by the Moon.', 'The Sun also pulls on the sea.']);
  });
});

describe('offlineAnswer', () => {
  it('quotes the sentence that holds the answer, not a saved answer’s title or the question', () => {
    const saved = entry(
      'answer/what-causes-tides',
      'What causes tides?',
      [
        '# What causes tides?\n\nWhat causes tides?\n\n## Answer\n\nTides follow the pull of the Moon. [[Tides]]\n\n## Sources\n\n- [[Tides]]',
      ],
      'answer',
    );
    const src = entry('source/tides', 'Tides', [
      '# Tides\n\nTides are the rise and fall of sea levels caused by the gravity of the Moon and the Sun.',
    ]);
    const a = offlineAnswer('What causes tides?', packed(saved, src));
    const lines = a.text.split('\n\n');
    expect(lines.some((l) => /^What causes tides\?/.test(l))).toBe(false);
    expect(a.text).not.toMatch(/^#|Sources/m);
    expect(a.text).toContain('caused by the gravity of the Moon');
    expect(a.text).toContain('[[Tides]]');
  });

  it('picks the Chinese sentence with the number a 多少 question asks for', () => {
    const e = entry('source/panthers', '黑豹队', [
      '黑豹队是一支职业橄榄球队。黑豹队的防守只丢了 308分，在联赛中排名第六。球队的主场在夏洛特。',
    ]);
    const a = offlineAnswer('黑豹队的防守丢了多少分？', packed(e), 1);
    expect(a.text).toContain('308分');
    expect(a.citations.map((c) => c.title)).toEqual(['黑豹队']);
  });

  it('gives the chosen sentences in reading order, each run with its citation', () => {
    const e1 = entry('source/a', 'Alpha', [
      'Pandas eat bamboo in the mountains. Pandas sleep a lot. Giant pandas live in Sichuan mountains and eat bamboo.',
    ]);
    const a = offlineAnswer('Where do giant pandas live and what do pandas eat?', packed(e1), 2);
    expect(a.text).toBe(
      'Pandas eat bamboo in the mountains. Giant pandas live in Sichuan mountains and eat bamboo. [[Alpha]]',
    );
  });
});
