import { describe, expect, it } from 'vitest';
import { packContext, unescapeXml } from './pack.js';
import type { EntryHit, PassageHit } from './retrieve.js';
import { countTokens } from '../text/tokens.js';

const store = { linksTo: () => [], getEntry: () => undefined } as never;

function hit(id: string, title: string, summary: string): EntryHit {
  return {
    id,
    kind: 'source',
    title,
    path: `sources/${title}.md`,
    summary,
    sourceRef: [],
    updated: 0,
    score: 1,
    via: ['bm25'],
  };
}
function passage(id: string, title: string, text: string): PassageHit {
  return {
    chunkId: Math.floor(Math.random() * 1e9),
    entryId: id,
    title,
    rawPath: `${title}.md`,
    heading: '',
    text,
    tokens: countTokens(text),
    line: 1,
    score: 1,
    via: ['bm25'],
  };
}

describe('packContext at a small budget', () => {
  // Two long passages rank first; the one that holds the answer comes third.
  const filler = (topic: string) =>
    Array.from(
      { length: 40 },
      (_, i) => `The ${topic} report for district ${i} lists harbour tides and shipping schedules in detail.`,
    ).join(' ');
  const entries = [
    hit('source/a', 'Harbour A', `A long summary of harbour A. ${filler('summary')}`),
    hit('source/b', 'Harbour B', 'Harbour B in short.'),
    hit('source/c', 'Moon', 'The Moon.'),
  ];
  const passages = [
    passage('source/a', 'Harbour A', filler('harbour A')),
    passage('source/b', 'Harbour B', filler('harbour B')),
    passage(
      'source/c',
      'Moon',
      'Tides are caused mostly by the gravity of the Moon. The Sun adds a smaller pull. Nothing else here matters to sailors at all.',
    ),
  ];
  const r = {
    entries,
    passages,
    terms: ['tides', 'caused', 'harbour'],
    weights: { tides: 1, caused: 3, harbour: 0.5 },
  };

  it('keeps the passage that holds the answer within 1,000 tokens, below two long stronger ones', () => {
    const p = packContext(store, r, { budget: 1000 });
    expect(p.tokens).toBeLessThanOrEqual(1000);
    expect(unescapeXml(p.xml)).toContain('Tides are caused mostly by the gravity of the Moon.');
    // Each long passage still gives its best sentence.
    expect(p.entries.map((e) => e.title)).toEqual(['Harbour A', 'Harbour B', 'Moon']);
  });

  it('never lets a summary crowd out a passage', () => {
    const p = packContext(store, r, { budget: 400 });
    expect(p.tokens).toBeLessThanOrEqual(400);
    expect(unescapeXml(p.xml)).toContain('Tides are caused mostly by the gravity of the Moon.');
    expect(p.xml).not.toContain('A long summary of harbour A');
  });

  it('gives whole passages when the budget allows', () => {
    const p = packContext(store, r, { budget: 8000 });
    expect(unescapeXml(p.xml)).toContain(passages[0]!.text);
    expect(unescapeXml(p.xml)).toContain(passages[2]!.text);
  });
});

describe('packContext with overlapping passages', () => {
  it('gives a sentence that two overlapping passages of an entry share once', () => {
    const seam = 'The harbour master records every tide at noon and at midnight.';
    const a = passage('source/h', 'Harbour', `Tides rise twice a day in the harbour. ${seam}`);
    const b = passage('source/h', 'Harbour', `${seam} Spring tides follow the new and the full Moon.`);
    const p = packContext(
      store,
      { entries: [hit('source/h', 'Harbour', '')], passages: [a, b], terms: ['tides'] },
      { budget: 4000 },
    );
    const text = unescapeXml(p.xml);
    expect(text.split(seam).length - 1).toBe(1);
    expect(text).toContain('Tides rise twice a day');
    expect(text).toContain('Spring tides follow');
  });
});

describe('packContext: a statement over two sentences', () => {
  it('brings the next sentence along with the best one when it too holds a question term', () => {
    // Two long passages that each fill the budget rank first; the answer is in the sentence after
    // the best one of the third passage, which names its subject only by a pronoun.
    const filler = (n: number) =>
      Array.from({ length: 120 }, (_, i) => `海洋${n}号报告第${i}节记录了港口的潮汐和航运时刻。`).join('');
    const answer = '它们的种类约有100-150种，多数生活在深海。';
    const passages = [
      passage('source/a', '港口甲', filler(1)),
      passage('source/b', '港口乙', filler(2)),
      passage('source/c', '栉水母', `栉水母是一门海洋动物，栉水母的身体柔软透明。${answer}化石极其罕见。`),
    ];
    const r = {
      entries: [hit('source/a', '港口甲', ''), hit('source/b', '港口乙', ''), hit('source/c', '栉水母', '')],
      passages,
      terms: ['栉水', '水母', '种类', '海洋'],
      weights: { 栉水: 4, 水母: 3, 种类: 2, 海洋: 0.5 },
    };
    const p = packContext(store, r, { budget: 1000 });
    expect(p.tokens).toBeLessThanOrEqual(1000);
    const text = unescapeXml(p.xml);
    expect(text).toContain(answer);
  });
});

describe('packContext: the strongest sentences first', () => {
  // Three long passages rank above the one that holds the answer, each on a common word of the
  // question (fort) in every sentence; the fourth has the rare ones (rebuilt, 1964) in one short sentence.
  const towns = ['Alder', 'Birch', 'Cedar'];
  const ledger = (t: string) =>
    Array.from(
      { length: 20 },
      (_, i) => `The ${t} town ledger for year ${1900 + i} lists the fort gates, roads and wells in its district.`,
    ).join(' ');
  const scored = (p: PassageHit, score: number): PassageHit => ({ ...p, score });
  const r = {
    entries: [...towns.map((t) => hit(`source/${t}`, t, '')), hit('source/f', 'Fort Caroline', '')],
    passages: [
      ...towns.map((t, i) => scored(passage(`source/${t}`, t, ledger(t)), 1 - i * 0.05)),
      scored(
        passage(
          'source/f',
          'Fort Caroline',
          'Fort Caroline was rebuilt in 1964 on the river. Its first site is debated.',
        ),
        0.5,
      ),
    ],
    terms: ['fort', 'rebuilt', '1964'],
    weights: { fort: 0.5, rebuilt: 4, 1964: 5 },
  };

  it('gives a lower passage its best sentence before the stronger passages grow', () => {
    const p = packContext(store, r, { budget: 300 });
    expect(p.tokens).toBeLessThanOrEqual(300);
    expect(unescapeXml(p.xml)).toContain('Fort Caroline was rebuilt in 1964 on the river.');
    // Visited in rank order, the long passages' sentences fill the first share and then the rest.
    expect(unescapeXml(packContext(store, r, { budget: 300, excerptOrder: 'rank' }).xml)).not.toContain('rebuilt');
  });
});

describe('packContext for a question asking what something is', () => {
  const long = (topic: string) =>
    Array.from({ length: 150 }, (_, i) => `Step ${i} of the ${topic} scheduler setup writes a config line.`).join(' ');
  const entries = [hit('source/s', 'Scheduler', 'The scheduler is a service that decides which job runs next.')];
  const passages = [passage('source/s', 'Scheduler', long('first')), passage('source/s', 'Scheduler', long('second'))];
  const pack = (query: string, budget = 2000) =>
    packContext(store, { entries, passages, terms: ['scheduler'], query }, { budget }).entries[0]?.summary ?? '';

  it('gives the top entry’s summary early when it says what the subject is', () => {
    expect(pack('What is the scheduler?')).toContain('decides which job runs next');
  });

  it('keeps the room for passages otherwise, and at a small budget', () => {
    expect(pack('How many steps does the scheduler setup take?')).toBe('');
    expect(pack('What is the scheduler?', 1000)).toBe('');
  });
});
