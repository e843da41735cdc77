import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { englishModel, freshEnglish, readCoreModel } from './wink-model.js';

const require = createRequire(import.meta.url);

describe('readCoreModel', () => {
  it('reads the same core model as the package', () => {
    const theirs = (require('wink-eng-lite-web-model') as { core: () => Record<string, unknown> }).core();
    const ours = readCoreModel() as Record<string, unknown>;
    expect(Object.keys(ours).sort()).toEqual(Object.keys(theirs).sort());
    // The decoded tables, word by word, and everything else as wink reads it.
    expect(ours.lexicon).toEqual(theirs.lexicon);
    expect(ours.xpansions).toEqual(theirs.xpansions);
    expect((ours.lexicon as Uint32Array).length).toBeGreaterThan(100_000);
    expect(ours).toEqual(theirs);
  });

  it('tags as the model the package loads does', () => {
    type Wink = {
      readDoc(t: string): { tokens(): { out(a: unknown): string[] } };
      its: { value: unknown; pos: unknown };
    };
    const winkNLP = require('wink-nlp') as (model: unknown, pipe: string[]) => Wink;
    const text =
      'The vector database stores embeddings. Git stores its data as snapshots; a branch is a pointer to a ' +
      'commit. Dr. Smith moved to New York in 2020, and the index holds a list of files (see README.md).';
    const tags = (nlp: Wink) => {
      const t = nlp.readDoc(text).tokens();
      return t.out(nlp.its.value).map((v, i) => `${v}/${t.out(nlp.its.pos)[i]}`);
    };
    const theirs = tags(winkNLP(require('wink-eng-lite-web-model'), ['sbd', 'pos']));
    expect(theirs.length).toBeGreaterThan(30);
    expect(tags(winkNLP(englishModel(), ['sbd', 'pos']))).toEqual(theirs);
  });
});

describe('freshEnglish', () => {
  type Wink = {
    readDoc(t: string): { tokens(): { out(a: unknown): string[] } };
    its: { value: unknown; pos: unknown };
  };
  const winkNLP = require('wink-nlp') as (model: unknown, pipe: string[]) => Wink;
  const tags = (nlp: Wink, text: string) => {
    const t = nlp.readDoc(text).tokens();
    return t.out(nlp.its.value).map((v, i) => `${v}/${t.out(nlp.its.pos)[i]}`);
  };
  const texts = [
    "The zorbified flimflam's, quuxly.",
    "A flimflam's zorbification is the quuxliest of blorptastic widgets.",
    "Here is an example from the bufio package's\nScanner type.",
    "a package's, b",
    "Here is an example from the bufio package's\nScanner type.",
  ];

  it('tags each text as a new instance does, whatever it read before', () => {
    const fresh = freshEnglish((model) => winkNLP(model, ['sbd', 'pos']));
    const alone = texts.map((t) => tags(winkNLP(englishModel(), ['sbd', 'pos']), t));
    expect(texts.map((t) => tags(fresh(), t))).toEqual(alone);
    expect(alone[4]).toEqual(alone[2]);
  });

  it('makes the instance again once it has learned enough, and still tags alike', () => {
    let made = 0;
    const fresh = freshEnglish((model) => {
      made++;
      return winkNLP(model, ['sbd', 'pos']);
    }, 3);
    const once = texts.map((t) => tags(fresh(), t));
    const again = texts.map((t) => tags(fresh(), t));
    expect(again).toEqual(once);
    expect(made).toBeGreaterThan(2);
    expect(once[4]).toEqual(once[2]);
  });
});
