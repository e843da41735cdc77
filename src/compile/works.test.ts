import { describe, expect, it } from 'vitest';
import { unifyWorks, workKeyOf } from './works.js';
import type { DocumentRow } from '../store/store.js';
import { documentRow } from '../../test/document-row.js';

const doc = (title: string, markdown: string) => ({ title, markdown, type: 'text' as const });

describe('workKeyOf', () => {
  it('is the same for one work wrapped or spaced otherwise, in another case or width', () => {
    expect(workKeyOf(doc('Harness Design', 'A planner\nwrites the spec.  The evaluator grades.'))).toBe(
      workKeyOf(doc('harness design', 'A planner writes the spec. The evaluator grades.\n')),
    );
    expect(workKeyOf(doc('上下文焦虑', '模型在接近上限时会提前收尾。'))).toBe(
      workKeyOf(doc('上下文焦虑', '模型在接近上限时会提前收尾。\n')),
    );
  });

  it('differs when the text or the title differs, and is empty for an attachment or no text', () => {
    const a = workKeyOf(doc('Notes', 'Monday: the planner writes the spec.'));
    expect(workKeyOf(doc('Notes', 'Tuesday: the evaluator grades a sprint.'))).not.toBe(a);
    expect(workKeyOf(doc('Other notes', 'Monday: the planner writes the spec.'))).not.toBe(a);
    expect(workKeyOf({ ...doc('x.png', 'text'), type: 'attachment' })).toBe('');
    expect(workKeyOf(doc('Empty', ' \n'))).toBe('');
  });
});

describe('unifyWorks', () => {
  const row = (raw_path: string, entry_id: string, work: string): DocumentRow =>
    documentRow(raw_path, { type: 'text', title: 'Harness', entry_id, work });

  it('gives copies of one work the first copy’s entry', () => {
    const moved = unifyWorks(
      [row('a.txt#h', 'source/h', 'w'), row('b.txt#h', 'source/h-2', 'w')],
      new Set(),
      new Set(),
    );
    expect([...moved]).toEqual([['b.txt#h', 'source/h']]);
  });

  it('leaves the entry to the unchanged copy when an edited copy no longer matches', () => {
    const taken = new Set(['source/h']);
    const moved = unifyWorks(
      [row('a.txt#h', 'source/h', 'w2'), row('b.txt#h', 'source/h', 'w')],
      new Set(['a.txt#h']),
      taken,
    );
    expect([...moved]).toEqual([['a.txt#h', 'source/harness']]);
    expect(taken.has('source/harness')).toBe(true);
  });
});
