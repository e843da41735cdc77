import { describe, expect, it } from 'vitest';
import { englishLoaded } from './english.js';
import { jiebaLoaded } from './jieba.js';
import { warmLanguageModels } from './warm.js';

describe('warmLanguageModels', () => {
  it("loads the models of the store's languages only", () => {
    warmLanguageModels(new Set());
    expect([jiebaLoaded(), englishLoaded()]).toEqual([false, false]);
    warmLanguageModels(new Set(['en']));
    expect([jiebaLoaded(), englishLoaded()]).toEqual([false, true]);
    warmLanguageModels(new Set(['mixed']));
    expect([jiebaLoaded(), englishLoaded()]).toEqual([true, true]);
  });
});
