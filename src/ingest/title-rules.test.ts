import { describe, expect, it } from 'vitest';
import type { RawPath } from '../types.js';
import { sha256 } from '../util/hash.js';
import { ingestFile } from './index.js';
import { TITLE_RULES, type TitleExample } from './title-rules.js';
import { expectRuleTable } from '../../test/rule-table.js';

/** The title ingest gives the example's file. */
async function titleOf(ex: TitleExample): Promise<string | undefined> {
  const bytes = Buffer.from(ex.text, 'utf8');
  const { doc, messages } = await ingestFile(
    { path: ex.path as RawPath, absPath: `/kb/raw/${ex.path}`, size: bytes.length, mtimeMs: 0 },
    bytes,
    sha256(bytes),
    { maxFileBytes: 1024 * 1024 },
  );
  expect(messages.filter((m) => m.severity === 'error')).toEqual([]);
  return doc?.title;
}

describe('title rules: each holds on its examples', () => {
  it('has rules with examples on both sides and ids of their own', () => {
    expectRuleTable(TITLE_RULES);
  });

  for (const rule of TITLE_RULES) {
    it.each(rule.match.map((ex) => [ex.title, ex] as const))(`${rule.id} gives: %s`, async (_t, ex) => {
      expect(await titleOf(ex)).toBe(ex.title);
    });
    it.each(rule.notMatch.map((ex) => [ex.title, ex] as const))(`${rule.id} does not give: %s`, async (_t, ex) => {
      const title = await titleOf(ex);
      expect(title).toBeDefined();
      expect(title).not.toBe(ex.title);
    });
  }
});
