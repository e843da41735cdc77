import { describe, expect, it } from 'vitest';
import type { RawPath } from '../../types.js';
import { checkSourceEntry } from './check-source.js';

const entry = (title: string, summary: string) => ({
  title,
  summary,
  aliases: [],
  entities: [],
  body: '## Key points\n\n- x',
});
const post = {
  path: 'feeds/wodaixin.txt#clip' as RawPath,
  post: { file: 'feeds/wodaixin.txt' as RawPath, anchor: 'clip', index: 1, of: 6, line: 4 },
  title: '找不到好用的Linux剪贴板',
  meta: { collection: '技术 on Wodaixin' },
};
const file = {
  path: 'raw-002.txt' as RawPath,
  title: 'Harness design for long-running application development',
  meta: {},
};

describe('checkSourceEntry', () => {
  it('accepts the work’s title and a thesis that reads alone', () => {
    expect(
      checkSourceEntry(
        entry('找不到好用的Linux剪贴板', '作者在 Ubuntu 上找不到好用的剪贴板，于是用 AI 辅助开发了开源的 ClipGenius。'),
        post,
      ),
    ).toBeUndefined();
    expect(
      checkSourceEntry(
        entry(
          'Harness design for long-running application development',
          'Harness design for long-running application development explains how a planner, generator and evaluator keep Claude productive for hours.',
        ),
        file,
      ),
    ).toBeUndefined();
  });

  it('rejects a date line, the feed’s name or the file name as the title', () => {
    expect(checkSourceEntry(entry('官方文章 · 发布日期：2026年3月24日', '支架设计是关键。'), file)).toMatch(
      /date or header line/,
    );
    expect(checkSourceEntry(entry('技术 on Wodaixin', '作者开发了剪贴板工具。'), post)).toMatch(/name of the feed/);
    expect(checkSourceEntry(entry('raw-002', '支架设计是关键。'), file)).toMatch(/file name/);
  });

  it('rejects a summary glued to the title, opening with a header line, or a page long', () => {
    expect(checkSourceEntry(entry('技术笔记', '技术笔记然后，我将这些技术应用于长期自主编码。'), post)).toMatch(
      /title run into/,
    );
    expect(checkSourceEntry(entry('找不到好用的Linux剪贴板', '作者：Wodaixin。他开发了剪贴板。'), post)).toMatch(
      /header line/,
    );
    expect(checkSourceEntry(entry('找不到好用的Linux剪贴板', '一。二。三。四。五。'), post)).toMatch(/5 sentences/);
  });
});
