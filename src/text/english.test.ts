import { describe, expect, it } from 'vitest';
import { tagEnglish } from './english.js';

const tokens = (text: string) => tagEnglish(text).map((s) => s.map((t) => `${t.text}/${t.pos}`));

describe('tagEnglish: a dot inside a word', () => {
  it('keeps a dotted name one word of one sentence (Node.js, ASP.NET)', () => {
    const [sentence, ...rest] = tokens('Disable the Node.js integration and the ASP.NET runtime.');
    expect(rest).toEqual([]);
    expect(sentence).toContain('Node.js/PROPN');
    expect(sentence).toContain('ASP.NET/PROPN');
    expect(sentence).toContain('integration/NOUN');
  });

  it('tags a file, a property path or an abbreviation as no part of a phrase, and still ends sentences at a dot', () => {
    const all = tokens('E.g. vite.config.js sets import.meta.env values. Node is fast.');
    expect(all).toHaveLength(2);
    expect(all[0]).toEqual(expect.arrayContaining(['E.g./X', 'vite.config.js/X', 'import.meta.env/X']));
    expect(all[1]![0]).toBe('Node/PROPN');
  });
});

describe('tagEnglish: a text is read as if it were the first', () => {
  it('splits a possessive the same way after a text that taught wink the whole word', () => {
    const text = "Here is an example from the bufio package's\nScanner type.";
    const split = ['package/NOUN', "'s/PART"];
    expect(tokens(text)[0]).toEqual(expect.arrayContaining(split));
    // wink learns "package's" whole before a comma, and kept it whole in every text after.
    expect(tokens("a package's, b")[0]).toContain("package's/PROPN");
    expect(tokens(text)[0]).toEqual(expect.arrayContaining(split));
    expect(tokens(text)[0]).not.toContain("package's/PROPN");
  });
});
