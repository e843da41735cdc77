import { describe, expect, it } from 'vitest';
import { findSection, getSection, neutralizeMarkers, setSection } from './markers.js';

const OPEN = '<!-- kb:backlinks -->';
const CLOSE = '<!-- /kb:backlinks -->';
const block = (items: string) => `${OPEN}\n## Backlinks\n\n${items}\n${CLOSE}`;
const NEW = '## Backlinks\n\n- [[New]]';

describe('kb marked sections', () => {
  // [case, body, the section getSection finds, the body after setSection(body, NEW)]
  const table: [string, string, string | null, string][] = [
    ['no section: one is added at the end', '# T\n\nText.\n', null, `# T\n\nText.\n\n${block('- [[New]]')}\n`],
    [
      'a section at the end is replaced',
      `# T\n\nText.\n\n${block('- [[Old]]')}\n`,
      '## Backlinks\n\n- [[Old]]',
      `# T\n\nText.\n\n${block('- [[New]]')}\n`,
    ],
    [
      'text a person wrote after the section stays',
      `# T\n\n${block('- [[Old]]')}\n\nMy note.\n`,
      '## Backlinks\n\n- [[Old]]',
      `# T\n\n${block('- [[New]]')}\n\nMy note.\n`,
    ],
    [
      'a stray start marker with no end loses nothing',
      `# T\n\n${OPEN}\n\nKeep this.\n`,
      null,
      `# T\n\n${OPEN}\n\nKeep this.\n\n${block('- [[New]]')}\n`,
    ],
    [
      "a stray start marker before kb's section: only kb's section is replaced",
      `# T\n\nBefore.\n${OPEN}\nKeep this.\n\n${block('- [[Old]]')}\n`,
      '## Backlinks\n\n- [[Old]]',
      `# T\n\nBefore.\n${OPEN}\nKeep this.\n\n${block('- [[New]]')}\n`,
    ],
    [
      'a stray end marker before the section is ignored',
      `# T\n\n${CLOSE}\nKeep this.\n\n${block('- [[Old]]')}\n`,
      '## Backlinks\n\n- [[Old]]',
      `# T\n\n${CLOSE}\nKeep this.\n\n${block('- [[New]]')}\n`,
    ],
    [
      'markers inside a ``` fence do not count',
      `# T\n\n\`\`\`md\n${block('- [[Code]]')}\n\`\`\`\n\nAfter.\n`,
      null,
      `# T\n\n\`\`\`md\n${block('- [[Code]]')}\n\`\`\`\n\nAfter.\n\n${block('- [[New]]')}\n`,
    ],
    [
      'markers inside a ~~~~ fence (closed only by ~~~~) do not count',
      `# T\n\n~~~~\n${OPEN}\n~~~\n${CLOSE}\n~~~~\n`,
      null,
      `# T\n\n~~~~\n${OPEN}\n~~~\n${CLOSE}\n~~~~\n\n${block('- [[New]]')}\n`,
    ],
    [
      'a fence never closed hides every marker after it',
      `# T\n\n\`\`\`\n${block('- [[Code]]')}\n`,
      null,
      `# T\n\n\`\`\`\n${block('- [[Code]]')}\n\n${block('- [[New]]')}\n`,
    ],
    [
      'markers inside a line or in inline code do not count',
      `# T\n\nSee ${OPEN} here and \`${CLOSE}\`.\n`,
      null,
      `# T\n\nSee ${OPEN} here and \`${CLOSE}\`.\n\n${block('- [[New]]')}\n`,
    ],
    [
      'an indented marker (code, a list item) does not count',
      `# T\n\n    ${OPEN}\n    x\n    ${CLOSE}\n`,
      null,
      `# T\n\n    ${OPEN}\n    x\n    ${CLOSE}\n\n${block('- [[New]]')}\n`,
    ],
    [
      'another section name is left alone',
      `# T\n\n<!-- kb:other -->\nx\n<!-- /kb:other -->\n`,
      null,
      `# T\n\n<!-- kb:other -->\nx\n<!-- /kb:other -->\n\n${block('- [[New]]')}\n`,
    ],
    [
      "of two complete sections the last one is kb's",
      `# T\n\n${block('- [[Quoted]]')}\n\nMiddle.\n\n${block('- [[Old]]')}\n`,
      '## Backlinks\n\n- [[Old]]',
      `# T\n\n${block('- [[Quoted]]')}\n\nMiddle.\n\n${block('- [[New]]')}\n`,
    ],
    [
      'trailing spaces (hard breaks) and indentation around the section keep every byte',
      `# T\n\nLine one  \nLine two\t\n\n${block('- [[Old]]')}\n\n    indented after  \n`,
      '## Backlinks\n\n- [[Old]]',
      `# T\n\nLine one  \nLine two\t\n\n${block('- [[New]]')}\n\n    indented after  \n`,
    ],
    [
      'CRLF line ends',
      `# T\r\n\r\n${OPEN}\r\n- [[Old]]\r\n${CLOSE}\r\n`,
      '- [[Old]]',
      `# T\n\n${block('- [[New]]')}\n`,
    ],
  ];
  it.each(table)('%s', (_case, body, section, after) => {
    expect(getSection(body, 'backlinks')).toBe(section);
    expect(setSection(body, 'backlinks', NEW)).toBe(after);
  });

  it('removing a section takes only the section', () => {
    const body = `# T\n\nBefore.\n${OPEN}\nKeep.\n\n${block('- [[Old]]')}\n\nAfter.\n`;
    expect(setSection(body, 'backlinks', null)).toBe(`# T\n\nBefore.\n${OPEN}\nKeep.\n\nAfter.\n`);
    expect(setSection('# T\n\nText.\n', 'backlinks', null)).toBe('# T\n\nText.\n');
  });

  it('findSection gives offsets of the whole block', () => {
    const body = `# T\n\n${block('- [[A]]')}\n`;
    const span = findSection(body, 'backlinks')!;
    expect(body.slice(span.start, span.end)).toBe(block('- [[A]]'));
  });

  it('setting a section again and again never loses text around a stray marker', () => {
    let body = `# T\n\nIntro.\n${OPEN}\nMiddle text.\n\n## Sources\n\n- [[S]]\n`;
    for (const n of [1, 2, 3, 4]) body = setSection(body, 'backlinks', `## Backlinks\n\n- [[E${n}]]`);
    expect(body).toContain('Intro.');
    expect(body).toContain('Middle text.');
    expect(body).toContain('## Sources\n\n- [[S]]');
    expect(getSection(body, 'backlinks')).toBe('## Backlinks\n\n- [[E4]]');
  });
});

describe('neutralizeMarkers', () => {
  const table: [string, string, string][] = [
    ['a marker line is escaped', `a\n${OPEN}\nb\n${CLOSE}\n`, `a\n\\${OPEN}\nb\n\\${CLOSE}\n`],
    ['loose spellings too', '  <!--kb:backlinks-->\n<!-- / kb : x -->', '  \\<!--kb:backlinks-->\n\\<!-- / kb : x -->'],
    ['inside a fence it stays', `\`\`\`\n${OPEN}\n\`\`\`\n`, `\`\`\`\n${OPEN}\n\`\`\`\n`],
    ['inside a line it stays (never read as a marker)', `See ${OPEN}.`, `See ${OPEN}.`],
    ['an ordinary comment stays', '<!-- note -->', '<!-- note -->'],
    ['Chinese text around it is kept', `中文\n${OPEN}\n内容`, `中文\n\\${OPEN}\n内容`],
  ];
  it.each(table)('%s', (_case, text, out) => {
    expect(neutralizeMarkers(text)).toBe(out);
    expect(neutralizeMarkers(out)).toBe(out);
  });

  it("a neutralized body holds no section, and kb's own block is found after it", () => {
    const text = neutralizeMarkers(`# T\n\n${block('- [[Fake]]')}\n\nMore.\n`);
    expect(getSection(text, 'backlinks')).toBeNull();
    const body = setSection(text, 'backlinks', '## Backlinks\n\n- [[Real]]');
    expect(getSection(body, 'backlinks')).toBe('## Backlinks\n\n- [[Real]]');
    expect(setSection(body, 'backlinks', null)).toBe(text);
  });
});
