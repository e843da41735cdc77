import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../store/store.js';
import { Lexicon, LEXICON_VERSION } from '../text/lexicon.js';
import { closeLexicons, lexiconFor, translateQuestion } from './translate.js';

describe('translateQuestion', () => {
  let dir: string;
  let lex: Lexicon;
  let store: Store;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kb-lexicon-'));
    lex = Lexicon.open(join(dir, 'lexicon.db'));
    store = new Store(':memory:', { fingerprint: 'test', dims: 8 });
  }, 120_000);
  afterAll(() => {
    lex.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const matches = (q: string, want: { toEnglish: boolean; toChinese: boolean }) =>
    translateQuestion(q, lex, store, want).map((t) => t.match);

  it('builds the lexicon once and reads it back', () => {
    expect(lex.english('防守').map((t) => t.term)).toContain('defend');
    expect(lex.chinese('panda').map((t) => t.term)).toContain('熊猫');
    expect(lex.words('中华人民共和国成立')).toEqual(['中华人民共和国', '成立']);
    const again = Lexicon.open(join(dir, 'lexicon.db'));
    expect(again.english('熊猫').map((t) => t.term)).toContain('panda');
    again.close();
  });

  it('turns a Chinese question into English terms, question words left out', () => {
    const m = matches('大熊猫吃什么？', { toEnglish: true, toChinese: false });
    expect(m).toEqual(expect.arrayContaining(['giant', 'panda', 'eat']));
    expect(m).not.toContain('anything');
  });

  it('turns an English question into the index terms of Chinese words (bigrams; a phrase for longer words)', () => {
    const m = matches('What do giant pandas eat?', { toEnglish: false, toChinese: true });
    expect(m).toContain('熊猫');
    expect(m).toContain('大熊 熊猫');
  });

  it('uses the Chinese and English names the wiki pairs', () => {
    store.putEntry(
      {
        id: 'concept/rag',
        kind: 'concept',
        title: 'Retrieval-Augmented Generation',
        path: 'concepts/Retrieval-Augmented Generation.md',
        aliases: ['RAG', '检索增强生成'],
        summary: '',
        source_ref: [],
        content_hash: 'x',
        human_edited: false,
        updated: 0,
      },
      [],
    );
    expect(matches('检索增强生成是什么？', { toEnglish: true, toChinese: false })).toEqual(
      expect.arrayContaining(['retrieval', 'augmented', 'generation']),
    );
    expect(matches('How does retrieval-augmented generation work?', { toEnglish: false, toChinese: true })).toContain(
      '检索 索增 增强 强生 生成',
    );
  });
});

describe('lexiconFor', () => {
  it('builds the lexicon once per user, in the .kb folder when the user cache cannot be written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-lexicon-home-'));
    try {
      const cache = join(dir, 'cache');
      const lex = lexiconFor(join(dir, 'kb1', '.kb'), { XDG_CACHE_HOME: cache });
      expect(existsSync(join(cache, 'kb', `lexicon-${LEXICON_VERSION}.db`))).toBe(true);
      expect(existsSync(join(dir, 'kb1', '.kb', 'lexicon.db'))).toBe(false);
      // Another knowledge base shares it.
      expect(lexiconFor(join(dir, 'kb2', '.kb'), { XDG_CACHE_HOME: cache })).toBe(lex);
      // A cache "folder" that is a file: the knowledge base keeps its own.
      writeFileSync(join(dir, 'not-a-folder'), '');
      const own = lexiconFor(join(dir, 'kb3', '.kb'), { XDG_CACHE_HOME: join(dir, 'not-a-folder') });
      expect(existsSync(join(dir, 'kb3', '.kb', 'lexicon.db'))).toBe(true);
      expect(own.english('熊猫').map((t) => t.term)).toContain('panda');
    } finally {
      closeLexicons();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
