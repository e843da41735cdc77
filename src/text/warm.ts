import { warmEnglish } from './english.js';
import { warmJieba } from './jieba.js';

/**
 * Loads the language models a compile of documents in `languages` (Store.languages: en, zh, mixed)
 * uses: jieba for Chinese, wink-nlp's model for English (~0.4 s together, loaded once per process).
 * For a process that waits for changes (`kb watch`): its first compile is then as fast as the next.
 * A model that fails to load is left to fail where it is used, with that step's message.
 */
export function warmLanguageModels(languages: ReadonlySet<string>): void {
  const mixed = languages.has('mixed');
  try {
    if (mixed || languages.has('zh')) warmJieba();
    if (mixed || languages.has('en')) warmEnglish();
  } catch {
    // Said where the model is used.
  }
}
