import { createRequire } from 'node:module';
import type { WikiLanguage } from '../config/defaults.js';
import { detectLang } from '../text/script.js';

/** The UI's languages: English, Simplified Chinese, and Traditional (the Simplified words converted by OpenCC). */
export type UiLanguage = 'en' | 'zh' | 'zh-TW';

/** Every piece of text the pages and the browser script show, once per language (words are data). */
export const WORDS = {
  en: {
    index: 'Index',
    search: 'Search',
    ask: 'Ask',
    graph: 'Graph',
    entries: 'entries',
    searchPlaceholder: 'Search the wiki…',
    askPlaceholder: 'Ask a question…',
    askButton: 'Ask',
    save: 'Save as an answer entry',
    saved: 'Filed',
    notSaved: 'Not filed',
    thinking: 'Answering…',
    seconds: 's',
    noResults: 'No matches. Try other words.',
    passages: 'Passages',
    kind: 'Kind',
    source: 'source',
    concept: 'concept',
    answer: 'answer',
    sources: 'Sources',
    concepts: 'Concepts',
    answers: 'Answers',
    otherConcepts: 'Other concepts',
    topicCounts: '{concepts} concepts · {sources} sources',
    sourcesOfTopic: 'Sources',
    tags: 'Tags',
    aliases: 'Aliases',
    version: 'Version',
    updated: 'Updated',
    backlinks: 'Backlinks',
    noBacklinks: 'No entry links here.',
    lint: 'Lint findings',
    noLint: 'No lint findings.',
    quotedSources: 'Sources it quotes',
    english: 'English',
    chinese: 'Chinese',
    otherLanguage: 'Other',
    wholeWiki: 'Whole wiki',
    citations: 'Citations',
    offline: 'offline answer (no model)',
    model: 'answer by',
    cached: 'cached',
    nothingCompiled: 'Nothing compiled yet: run `kb compile`.',
    notFound: 'No such entry.',
    loading: 'Loading…',
    nodes: 'entries',
    edges: 'links',
  },
  zh: {
    index: '索引',
    search: '搜索',
    ask: '提问',
    graph: '图谱',
    entries: '个条目',
    searchPlaceholder: '搜索知识库…',
    askPlaceholder: '输入问题…',
    askButton: '提问',
    save: '保存为答案条目',
    saved: '已保存',
    notSaved: '未保存',
    thinking: '正在回答…',
    seconds: '秒',
    noResults: '没有结果，换个词试试。',
    passages: '段落',
    kind: '类型',
    source: '来源',
    concept: '概念',
    answer: '答案',
    sources: '来源',
    concepts: '概念',
    answers: '答案',
    otherConcepts: '其他概念',
    topicCounts: '{concepts} 个概念 · {sources} 个来源',
    sourcesOfTopic: '来源',
    tags: '标签',
    aliases: '别名',
    version: '版本',
    updated: '更新于',
    backlinks: '反向链接',
    noBacklinks: '没有条目链接到这里。',
    lint: '检查结果',
    noLint: '没有检查问题。',
    quotedSources: '引用的来源',
    english: '英文',
    chinese: '中文',
    otherLanguage: '其他',
    wholeWiki: '整个知识库',
    citations: '引用',
    offline: '离线回答（未用模型）',
    model: '回答模型',
    cached: '缓存',
    nothingCompiled: '还没有编译内容：请运行 `kb compile`。',
    notFound: '没有这个条目。',
    loading: '加载中…',
    nodes: '个条目',
    edges: '条链接',
  },
} as const satisfies Record<'en' | 'zh', Record<string, string>>;

export type Words = { [K in keyof (typeof WORDS)['en']]: string };

const require = createRequire(import.meta.url);
let traditional: Words | undefined;

/** The words of a UI language; Traditional Chinese is the Simplified table through OpenCC (cn → tw). */
export function wordsFor(lang: UiLanguage): Words {
  if (lang !== 'zh-TW') return WORDS[lang];
  if (!traditional) {
    const { Converter } = require('opencc-js/cn2t') as { Converter: (o: object) => (s: string) => string };
    const toTw = Converter({ from: 'cn', to: 'tw' });
    traditional = Object.fromEntries(Object.entries(WORDS.zh).map(([k, v]) => [k, toTw(v)])) as Words;
  }
  return traditional;
}

/**
 * The UI follows the wiki's language: `wiki.language` when set; for `auto`, the script most entry
 * titles and summaries are written in (Chinese when Han characters outweigh Latin letters).
 */
export function uiLanguage(setting: WikiLanguage, sample: readonly string[]): UiLanguage {
  if (setting === 'en' || setting === 'zh' || setting === 'zh-TW') return setting;
  let zh = 0;
  let en = 0;
  for (const s of sample) {
    const l = detectLang(s);
    if (l === 'zh') zh++;
    else if (l === 'en') en++;
  }
  return zh > en ? 'zh' : 'en';
}

/** The `lang` attribute of the pages. */
export function htmlLang(lang: UiLanguage): string {
  return lang === 'zh' ? 'zh-CN' : lang;
}
