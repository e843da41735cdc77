import { describe, expect, it } from 'vitest';
import { glossCompounds, glossWords } from './lexicon.js';

describe('gloss words of a CC-CEDICT sense', () => {
  it('keeps the words of a sense apart, as before: a compound by its parts but stop words', () => {
    expect(glossWords('plug-in (software component)')).toEqual(['plug']);
    expect(glossWords('well-known')).toEqual(['well', 'known']);
    expect(glossWords('to defend; to protect (against)')).toEqual(['defend', 'protect']);
  });

  it('looks a hyphenated compound up whole, apart as names write a hyphen and closed up', () => {
    expect(glossCompounds('plug-in (software component)')).toEqual([['plug in', 'plugin']]);
    expect(glossCompounds('e-mail')).toEqual([['e mail', 'email']]);
    expect(glossCompounds('add-ons')).toEqual([['add on', 'addon']]);
  });

  it('finds no compound in a sense without a hyphen, nor in its parentheses', () => {
    expect(glossCompounds('to defend; to protect (against)')).toEqual([]);
    expect(glossCompounds('module (computer-science term)')).toEqual([]);
  });
});
