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
  /** Fewest translated works whose main concept page cites every version, as a share. */
  works?: number;
  /** Most links into noise pages, as a share of links to concept pages. */
  linksToNoise?: number;
  /** Fewest concepts named in English and in Chinese whose names share one page, as a share. */
  pairs?: number;
  /** Fewest ordered pairs of a work's versions whose entries list each other, as a share (none of another work, ever). */
  versions?: number;
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
  if (f.works !== undefined)
    expect(
      share(s.translatedWorksOnOnePage, s.translatedWorks),
      s.missing.splitWorks.join(', '),
    ).toBeGreaterThanOrEqual(f.works);
  if (f.linksToNoise !== undefined)
    expect(share(s.linksToNoise, s.linksToConcepts)).toBeLessThanOrEqual(f.linksToNoise);
  if (f.pairs !== undefined)
    expect(share(s.namedPairsMerged, s.namedPairs), s.missing.splitPairs.join(', ')).toBeGreaterThanOrEqual(f.pairs);
  if (f.versions !== undefined) expect(share(s.versionPairsLinked, s.versionPairs)).toBeGreaterThanOrEqual(f.versions);
  expect(s.wrongVersions, 'entries listed as versions of another work').toBe(0);
}

/** A little below what this version reaches on each corpus (`npm run eval:wiki` prints the figures). */
const FLOORS: Record<string, Floor> = {
  blog: { noise: 0.12, central: 0.8, titles: 1, summaries: 1, linksToNoise: 0.1 },
  book: {
    noise: 0.12,
    central: 0.8,
    titles: 1,
    summaries: 0.9,
    works: 0.75,
    linksToNoise: 0.05,
    pairs: 0.6,
    versions: 0.9,
  },
  docs: {
    noise: 0.12,
    central: 0.85,
    titles: 1,
    summaries: 0.85,
    works: 0.75,
    linksToNoise: 0.05,
    pairs: 0.75,
    versions: 0.9,
  },
  meetings: { noise: 0.2, central: 0.65, titles: 1, summaries: 0.9, linksToNoise: 0.26 },
  newsletter: { noise: 0.05, central: 0.4, titles: 1, summaries: 1, linksToNoise: 0.02 },
  notes: { noise: 0.1, central: 0.95, titles: 1, summaries: 1, linksToNoise: 0.12 },
};

describe('wiki eval slice', () => {
  for (const [name, floor] of Object.entries(FLOORS))
    it(`${name}: the offline wiki holds its figures`, () => holds(evalCorpus(name).score, floor));
});
