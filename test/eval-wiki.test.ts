// The wiki eval's slice in CI: labelled corpora compiled offline, each figure held at or above
// what this version reaches, so a change that makes the wiki read worse fails here. The whole
// eval, with every corpus and its details, is `npm run eval:wiki -- --show`.
import { describe, expect, it } from 'vitest';
import { evalCorpus } from '../bench/eval-wiki/run.js';
import type { CorpusScore } from '../bench/eval-wiki/judge.js';

interface Floor {
  /** Most noise pages, as a share of concept pages. */
  noise: number;
  /** Fewest central concepts with a page, as a share. */
  central: number;
  titles: number;
  summaries: number;
}

const share = (a: number, b: number) => (b ? a / b : 1);

function holds(s: CorpusScore, f: Floor): void {
  expect(
    share(s.noise, s.conceptPages),
    `noise: ${s.missing.noise.concat(s.missing.unjudged).join(', ')}`,
  ).toBeLessThanOrEqual(f.noise);
  expect(
    share(s.centralWithPage, s.central),
    `central without a page: ${s.missing.central.join(', ')}`,
  ).toBeGreaterThanOrEqual(f.central);
  expect(share(s.titlesRight, s.sources), JSON.stringify(s.missing.titles)).toBeGreaterThanOrEqual(f.titles);
  expect(share(s.summariesRight, s.sources), JSON.stringify(s.missing.summaries)).toBeGreaterThanOrEqual(f.summaries);
}

const FLOORS: Record<string, Floor> = {
  meetings: { noise: 0.5, central: 0.06, titles: 1, summaries: 0.8 },
};

describe('wiki eval slice', () => {
  for (const [name, floor] of Object.entries(FLOORS))
    it(`${name}: the offline wiki holds its figures`, () => holds(evalCorpus(name).score, floor));
});
