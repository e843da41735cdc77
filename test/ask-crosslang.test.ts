import { beforeAll, describe, expect, it } from 'vitest';
import { fixture, runKb, runKbIn } from './helpers.js';

// English notes, Chinese notes, one of them in Traditional characters.
const FILES = {
  'raw/en/tides.md':
    '# Tides\n\nTides are the rise and fall of sea levels caused by the gravitational pull of the Moon and the Sun. Spring tides happen at new and full moon.\n',
  'raw/en/volcano.md':
    '# Volcanoes\n\nA volcano is a rupture in the crust of a planet that allows hot lava, volcanic ash and gases to escape.\n',
  'raw/zh/熊猫.md':
    '# 大熊猫\n\n大熊猫是中国特有的哺乳动物，生活在四川、陕西和甘肃的山区。大熊猫主要以竹子为食，每天要吃十几公斤竹子。\n',
  'raw/zh/長城.md': '# 長城\n\n長城是中國古代的軍事防禦工程，東起山海關，西至嘉峪關，全長兩萬多公里。\n',
  'raw/zh/資料庫.md': '# 資料庫\n\n關聯式資料庫用表格儲存資料，以結構化查詢語言存取。\n',
  // Chinese notes that hold 编, 译 and 器 in other words, never 编译器; only an English note says "compiler".
  'raw/zh/编写.md':
    '# 编写与翻译\n\n编写网页时要在浏览器里测试。翻译人员用编辑器翻译文档。编辑器、浏览器、容器和翻译器都是常用的器具。编者和译者一起用编辑器。\n',
  'raw/en/compiler.md':
    '# The Compiler\n\nA compiler is a build-time tool that turns source code into machine code and optimizes it.\n',
};

describe('Chinese and cross-language questions (CLI, no model)', () => {
  let root: string;
  beforeAll(async () => {
    root = fixture(FILES);
    const r = await runKb(['compile'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
  }, 120_000);

  const search = async (q: string) => {
    const r = await runKbIn(['search', q, '--json'], { cwd: root, timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { entries: { title: string }[] }).entries.map((e) => e.title);
  };
  const ask = async (q: string) => {
    const r = await runKbIn(['ask', q, '--offline', '--json'], {
      cwd: root,
      env: { ANTHROPIC_API_KEY: '' },
      timeoutMs: 120_000,
    });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { answer: string; citations: { title: string }[] };
  };

  it('a Chinese question finds the English note', async () => {
    expect((await search('潮汐是由什么引起的？'))[0]).toBe('Tides');
  }, 120_000);

  it('a Chinese word no Chinese note writes is found by its translation, not by its characters in other words', async () => {
    expect((await search('编译器是做什么用的？'))[0]).toBe('The Compiler');
    // Nor by the words that ask (是, 做, 用, 的): notes holding only those are no keyword match.
    const r = await runKbIn(['search', '编译器是做什么用的？', '--json'], { cwd: root, timeoutMs: 120_000 });
    const found = (JSON.parse(r.stdout) as { entries: { title: string; via: string[] }[] }).entries;
    for (const t of ['長城', '大熊猫', '資料庫'])
      expect(found.find((e) => e.title === t)?.via ?? []).not.toContain('bm25');
  }, 120_000);

  it('an English question is answered from the Chinese note', async () => {
    const a = await ask('What do giant pandas eat?');
    expect(a.answer).toContain('竹子');
    expect(a.citations.map((c) => c.title)).toContain('大熊猫');
  }, 120_000);

  it('Simplified and Traditional Chinese find each other', async () => {
    // No character pair of these questions is written the same way in the other script.
    expect((await search('资料库用什么储存资料'))[0]).toBe('資料庫');
    expect((await search('熊貓的食物'))[0]).toBe('大熊猫');
    const a = await ask('长城全长多少公里？');
    expect(a.answer).toContain('全長兩萬多公里');
  }, 120_000);

  it('an offline answer does not quote a saved answer’s title', async () => {
    const s = await runKbIn(['ask', 'What causes tides?', '--save'], {
      cwd: root,
      env: { ANTHROPIC_API_KEY: '' },
      timeoutMs: 120_000,
    });
    expect(s.code, s.stderr).toBe(0);
    const a = await ask('What causes tides?');
    expect(a.answer.split('\n').some((l) => /^What causes tides\??\s*(\[\[|$)/.test(l.trim()))).toBe(false);
    expect(a.answer).toContain('gravitational pull of the Moon');
  }, 120_000);
});
