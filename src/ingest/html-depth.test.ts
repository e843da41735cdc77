import { describe, expect, it } from 'vitest';
import { flattenDeepHtml, MAX_HTML_DEPTH } from './html-depth.js';
import { convertHtml } from './html-convert.js';

describe('flattenDeepHtml: HTML nested deeper than the recursive passes can walk', () => {
  it('reads a page of 60,000 nested elements, keeping its text', () => {
    const deep = `<html><body>${'<div>'.repeat(60_000)}deep text${'</div>'.repeat(60_000)}<p>After &amp; the nest.</p></body></html>`;
    const md = convertHtml(deep, 'deep').markdown;
    expect(md).toContain('deep text');
    expect(md).toContain('After & the nest.');
  });

  it('keeps structure above the limit and unwraps below it', () => {
    const html = `${'<section>'.repeat(MAX_HTML_DEPTH + 2)}<a href="x?a=1&amp;b=2">t</a>${'</section>'.repeat(MAX_HTML_DEPTH + 2)}`;
    const flat = flattenDeepHtml(html);
    expect(flat.match(/<section>/g)).toHaveLength(MAX_HTML_DEPTH);
    expect(flat).toContain('t');
    expect(flat).not.toContain('<a ');
  });

  it('returns a page of ordinary depth unchanged, without parsing one with few tags', () => {
    const page = `<html><head><title>T</title></head><body>${'<p>One <b>two</b> &amp; <br>three</p>'.repeat(300)}</body></html>`;
    expect(flattenDeepHtml(page)).toBe(page);
    expect(flattenDeepHtml('<p>short</p>')).toBe('<p>short</p>');
  });
});
