import { describe, expect, it } from 'vitest';
import { englishLoaded } from './english.js';
import { jiebaLoaded } from './jieba.js';
import { modelsFor, warmLanguageModels } from './warm.js';

describe('warmLanguageModels', () => {
  it("chooses the models of the store's languages only", () => {
    expect(modelsFor(new Set())).toEqual([]);
    expect(modelsFor(new Set(['en']))).toEqual(['english']);
    expect(modelsFor(new Set(['zh']))).toEqual(['jieba']);
    expect(modelsFor(new Set(['mixed']))).toEqual(['jieba', 'english']);
    expect(modelsFor(new Set(['en', 'zh']))).toEqual(['jieba', 'english']);
  });

  it('loads them', () => {
    warmLanguageModels(new Set(['mixed']));
    expect([jiebaLoaded(), englishLoaded()]).toEqual([true, true]);
  });
});
