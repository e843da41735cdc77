import { describe, expect, it } from 'vitest';
import { sha256, sha256Pieces } from './hash.js';

describe('sha256Pieces', () => {
  it('is the hash of the pieces put together, whether they are few, many or larger than a batch', () => {
    const cases: string[][] = [
      [],
      ['one'],
      ['a', 'b', 'c'],
      Array.from({ length: 5000 }, (_, i) => `{"mention":${i},"text":"向量数据库 ${'x'.repeat(i % 97)}"}\n`),
      ['x'.repeat(200_000), 'y', 'z'.repeat(70_000)],
    ];
    for (const pieces of cases) expect(sha256Pieces(pieces)).toBe(sha256(pieces.join('')));
  });
});
