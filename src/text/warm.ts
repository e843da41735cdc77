import { warmEnglish } from './english.js';
import { warmJieba } from './jieba.js';

/** The language models a compile of documents in `languages` (Store.languages: en, zh, mixed) uses. */
export function modelsFor(languages: ReadonlySet<string>): ('jieba' | 'english')[] {
  const mixed = languages.has('mixed');
  const out: ('jieba' | 'english')[] = [];
  if (mixed || languages.has('zh')) out.push('jieba');
  if (mixed || languages.has('en')) out.push('english');
  return out;
}

/**
 * Loads the language models a compile of documents in `languages` uses (modelsFor): jieba for
 * Chinese, wink-nlp's model for English (~0.4 s together, loaded once per process). For a process
 * that waits for changes (`kb watch`): its first compile is then as fast as the next. A model that
 * fails to load is left to fail where it is used, with that step's message.
 */
export function warmLanguageModels(languages: ReadonlySet<string>): void {
  try {
    for (const m of modelsFor(languages)) (m === 'jieba' ? warmJieba : warmEnglish)();
  } catch {
    // Said where the model is used.
  }
}
