import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { uncited } from '../qa-set.js';
import { holdsPhrase, type Judged, leadsInAskersLanguage, tally, type Verdict, verdict } from './judge.js';
import { QUESTIONS } from './questions.js';

describe('verdict', () => {
  const cases: [string, string[], string, Verdict][] = [
    [
      'every phrase',
      ['trigger', 'render', 'commit'],
      'Trigger a render, render the component, commit to the DOM.',
      'right',
    ],
    ['some phrases', ['trigger', 'render', 'commit'], 'React renders the component.', 'partly'],
    ['no phrase', ['trigger', 'render', 'commit'], 'Components are functions.', 'wrong'],
    ['case-insensitive', ['ThreadSanitizer'], 'it is built on threadsanitizer', 'right'],
    ['an alternative', ['垃圾回收|garbage collect'], 'The garbage collector frees memory.', 'right'],
    ['the other alternative', ['垃圾回收|garbage collect'], '由垃圾回收器释放内存。', 'right'],
    ['alternatives in several phrases', ['已提交|committed', '已修改|modified'], '已提交 and modified', 'right'],
    ['full-width letters and digits', ['9418'], '端口是 ９４１８。', 'right'],
    ['a phrase only in a citation', ['Map of Contents'], 'It organises notes. [[Map of Contents]]', 'wrong'],
    ['a backslash command', ['\\timing'], 'Use `\\timing` to show it.', 'right'],
    ['an empty alternative matches nothing', ['|x'], 'anything', 'wrong'],
  ];
  for (const [name, gold, answer, expected] of cases)
    it(`${name}: ${expected}`, () => expect(verdict(answer, gold)).toBe(expected));

  it('refuses a question without key phrases', () => expect(() => verdict('a', [])).toThrow(/key phrases/));
});

describe('holdsPhrase and uncited', () => {
  it('trims alternatives', () => expect(holdsPhrase('uses a stack', 'queue | stack')).toBe(true));
  it('drops citations with the space before them', () =>
    expect(uncited('A channel [[Context]] closes. [[Pipelines|p]]')).toBe('A channel closes.'));
});

describe('tally', () => {
  const j = (v: Verdict, more: Partial<Judged> = {}): Judged => ({
    verdict: v,
    inContext: false,
    docHit1: false,
    docHit5: false,
    cited: false,
    ...more,
  });
  it('counts verdicts and hits', () =>
    expect(
      tally([
        j('right', { inContext: true, docHit1: true, docHit5: true, cited: true, unsure: true }),
        j('partly', { unsure: true }),
        j('wrong', { docHit5: true }),
      ]),
    ).toEqual({
      n: 3,
      right: 1,
      partly: 1,
      wrong: 1,
      answerInAnswer: 2,
      inContext: 1,
      docHit1: 1,
      docHit5: 2,
      cited: 1,
      unsure: 2,
      unsureRight: 1,
    }));
});

describe('the questions', () => {
  const corpora = join(import.meta.dirname, '..', 'corpora', 'wiki');
  /** en, zh or zh-tw from the folder under raw/; a corpus without one is English. */
  const docLang = (doc: string) => (doc.split('/')[1] === 'zh' || doc.split('/')[1] === 'zh-tw' ? 'zh' : 'en');

  it('have unique ids, key phrases and gold documents that exist', () => {
    expect(new Set(QUESTIONS.map((q) => q.id)).size).toBe(QUESTIONS.length);
    for (const q of QUESTIONS) {
      expect(q.gold.length, q.id).toBeGreaterThan(0);
      for (const d of q.docs) expect(existsSync(join(corpora, q.corpus, d)), `${q.id}: ${d}`).toBe(true);
    }
  });

  it('are crossing exactly when the question and its documents differ in language', () => {
    for (const q of QUESTIONS) {
      const asked = q.lang === 'en' ? 'en' : 'zh';
      expect(
        q.docs.every((d) => docLang(d) !== asked),
        q.id,
      ).toBe(q.crossing);
    }
  });

  it('cross both ways, Chinese about English text included', () => {
    const crossing = QUESTIONS.filter((q) => q.crossing);
    expect(crossing.length).toBeGreaterThanOrEqual(15);
    expect(crossing.some((q) => q.lang === 'en')).toBe(true);
    expect(crossing.some((q) => q.lang !== 'en')).toBe(true);
  });
});

describe('leadsInAskersLanguage', () => {
  const inAll = ['raw/en/a.md', 'raw/zh/a.md', 'raw/zh-tw/a.md'];
  it('judges the first paragraph, after a line saying the answer is unsure', () => {
    expect(
      leadsInAskersLanguage('en', inAll, 'Git moves the pointer forward. [[Git Branching]]\n\n只会把指针右移。'),
    ).toBe(true);
    expect(
      leadsInAskersLanguage('en', inAll, '只会简单地把指针右移。 [[Git 分支]]\n\nGit moves the pointer forward.'),
    ).toBe(false);
    expect(
      leadsInAskersLanguage(
        'zh-TW',
        inAll,
        '知识库里没有哪句话能确定地回答这个问题；最可能包含答案的段落如下：\n\n> 在 2005 年誕生。 [[開始]]',
      ),
    ).toBe(true);
    expect(
      leadsInAskersLanguage(
        'zh',
        inAll,
        'No sentence in the wiki answers this for certain; these passages are the likeliest to:\n\n> Born in 2005.',
      ),
    ).toBe(false);
  });
  it('says nothing of a question whose work is in one language only, or not in the asker’s', () => {
    expect(leadsInAskersLanguage('en', ['raw/en/a.md'], 'Anything.')).toBeUndefined();
    expect(leadsInAskersLanguage('en', ['raw/zh/a.md', 'raw/zh-tw/a.md'], '任何')).toBeUndefined();
  });
});
