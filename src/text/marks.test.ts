import { describe, expect, it } from 'vitest';
import { translationMarks } from './marks.js';

const shared = (a: string, b: string) => {
  const mb = new Set(translationMarks(b));
  return translationMarks(a).filter((m) => mb.has(m)).length;
};

describe('translationMarks: what a translation keeps as written', () => {
  const en =
    'Run `git commit -a` to record it.\n\n    $ git add README\n    $ git commit -m "first"\n\nSee [the docs](https://git-scm.com/docs).\n';
  const zh =
    '运行 `git commit -a` 记录它。\n\n    $ git add README\n    $ git commit -m "first"\n\n参见[文档](https://git-scm.com/docs)。\n';
  it('finds the code and links a text and its translation share', () => {
    expect(shared(en, zh)).toBe(translationMarks(en).length);
    expect(translationMarks(en).length).toBeGreaterThanOrEqual(5);
  });
  it('finds nothing in prose alone', () => {
    expect(translationMarks('Version control records changes to files over time.\n版本控制记录文件的变化。')).toEqual(
      [],
    );
  });
  it('reads code fences without their info string', () => {
    expect(shared('```js\nconst answer = 42;\n```', '```jsx\nconst answer = 42;\n```')).toBe(2);
  });
});
