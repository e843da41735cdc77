/** Sections kb regenerates between `<!-- kb:name -->` and `<!-- /kb:name -->`. */
export function setSection(body: string, name: string, content: string | null): string {
  const open = `<!-- kb:${name} -->`;
  const close = `<!-- /kb:${name} -->`;
  const start = body.indexOf(open);
  const end = start >= 0 ? body.indexOf(close, start) : -1;
  const block = content === null ? '' : `${open}\n${content.trim()}\n${close}`;
  if (start >= 0 && end >= 0) {
    const before = body.slice(0, start).trimEnd();
    const after = body.slice(end + close.length).trim();
    return [before, block, after].filter(Boolean).join('\n\n') + '\n';
  }
  if (!block) return body;
  return `${body.trimEnd()}\n\n${block}\n`;
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
