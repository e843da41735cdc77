/** Sections kb regenerates between `<!-- kb:name -->` and `<!-- /kb:name -->`. */
export function setSection(body: string, name: string, content: string | null): string {
  const open = `<!-- kb:${name} -->`;
  const close = `<!-- /kb:${name} -->`;
  const start = body.indexOf(open);
  const end = start >= 0 ? body.indexOf(close, start) : -1;
  const block = content === null ? '' : `${open}\n${content.trim()}\n${close}`;
  // Only blank lines around the section are kb's: the text on either side keeps every byte
  // (trailing spaces are Markdown hard breaks, leading ones indentation).
  if (start >= 0 && end >= 0) {
    const before = dropTrailingBlankLines(body.slice(0, start));
    const after = dropTrailingBlankLines(body.slice(end + close.length).replace(/^(?:[ \t]*\r?\n)+/, ''));
    return [before, block, after].filter((x) => x.trim()).join('\n\n') + '\n';
  }
  if (!block) return body;
  return `${dropTrailingBlankLines(body)}\n\n${block}\n`;
}

function dropTrailingBlankLines(s: string): string {
  return s.replace(/(?:\r?\n[ \t]*)+$/, '').replace(/^[ \t]+$/, '');
}

export function getSection(body: string, name: string): string | null {
  const open = `<!-- kb:${name} -->`;
  const close = `<!-- /kb:${name} -->`;
  const start = body.indexOf(open);
  if (start < 0) return null;
  const end = body.indexOf(close, start);
  if (end < 0) return null;
  return body.slice(start + open.length, end).trim();
}
