import { describe, expect, it } from 'vitest';
import { definedSubject, INTENT_RULES, intentsOf, ruleMatches, subjectNames } from './intent.js';

describe('question intent rules', () => {
  for (const rule of INTENT_RULES) {
    describe(rule.id, () => {
      it.each(rule.match)(`reads %s as ${rule.intent}`, (q) => expect(ruleMatches(rule, q)).toBe(true));
      it.each(rule.notMatch)(`does not read %s as ${rule.intent}`, (q) => expect(ruleMatches(rule, q)).toBe(false));
    });
  }

  it('gives every rule examples both ways', () => {
    for (const r of INTENT_RULES) {
      expect(r.match.length, r.id).toBeGreaterThan(0);
      expect(r.notMatch.length, r.id).toBeGreaterThan(0);
    }
  });

  it.each([
    ['上下文窗口是哪一年扩大的？', ['when']],
    ['What are the steps of a compile?', ['define', 'list', 'steps']],
    ['为什么要分块？', ['reason']],
    ['How many tokens fit in the window?', ['number']],
  ])('reads %s as %j', (q, intents) => expect([...intentsOf(q)].sort()).toEqual([...intents].sort()));

  it.each([
    ['什么是向量数据库？', '向量数据库'],
    ['RAG 指的是什么', 'RAG'],
    ['What is a vector database?', 'vector database'],
    ['什么是X', undefined],
    ['Why is RAG useful?', undefined],
    ['git bisect 是用来做什么的？', 'git bisect'],
    ['What does the scheduler do?', 'scheduler'],
  ])('finds the subject of %s', (q, subject) => expect(definedSubject(q)).toBe(subject));

  it.each([
    ['组合子（combinator）', ['组合子', 'combinator']],
    ['Rust 的 Stream trait', ['Rust 的 Stream trait', 'Stream trait']],
    ['provenance in a memory model', ['provenance in a memory model', 'provenance']],
    ['vector database', ['vector database']],
  ])('calls the subject %s by %j', (subject, names) => expect(subjectNames(subject)).toEqual(names));
});
