/*
 * Inline code quoted in a summary or on a concept page stays code: "写作 `[[倒数排名融合]]`" shows the
 * link syntax, it is no link (and the linker skips code). Stripping Markdown would drop the
 * backticks and read the brackets as a link, so a span is sealed first — its backticks and
 * markup characters as private-use characters that no Markdown rule touches — and opened again in
 * the sentences kept.
 */
const SEAL: Record<string, string> = {
  '`': '\ue000',
  '[': '\ue001',
  ']': '\ue002',
  '*': '\ue003',
  _: '\ue004',
  '~': '\ue005',
  '|': '\ue006',
  // Generics and tags written as code (`Rc<T>`, `<script setup>`) are code, not HTML to drop.
  '<': '\ue007',
  '>': '\ue008',
};
const OPEN = new Map(Object.entries(SEAL).map(([k, v]) => [v, k]));

/** Inline code spans (one line, single backticks) sealed against Markdown stripping. */
export function sealCode(md: string): string {
  return md.replace(/(?<!`)`([^`\n]{1,200})`(?!`)/g, (_m, body: string) => {
    const sealed = body.replace(/[`[\]*_~|<>]/g, (c) => SEAL[c]!);
    return `${SEAL['`']}${sealed}${SEAL['`']}`;
  });
}

/** A sealed text as Markdown again. */
export function openCode(s: string): string {
  return s.replace(/[\ue000-\ue008]/g, (c) => OPEN.get(c)!);
}

/**
 * Elements that are markup wherever they stand in a line, closed or not (`line<br>break`, an old
 * page's `<p>`): never a name a sentence talks about.
 */
const MARKUP_ALONE = new Set('area base br col embed hr img input link meta p param source track wbr'.split(' '));

/**
 * A tag the prose talks about (`把段落放进 <context> 标签`, "wrap it in a <context> tag") is a name,
 * sealed as code (after sealCode, so a tag inside a code span is code already) so that it stays
 * visible: a bare opening tag (no attributes) inside a line, whose closing tag the line does not
 * hold. Markup stays markup: a tag that opens a line (an HTML block), one with attributes, one
 * closed in the same line (`<kbd>Ctrl</kbd>`), a void element.
 */
export function sealNamedTags(md: string): string {
  return md.replace(/[^\n]+/g, (line) => {
    if (!line.includes('<')) return line;
    // Once a line, not once a tag: a line of thousands of tags stays linear.
    const first = line.search(/\S/);
    const lastClose = new Map<string, number>();
    for (const m of line.matchAll(/<\/([A-Za-z][\w-]*)>/g)) lastClose.set(m[1]!.toLowerCase(), m.index);
    return line.replace(/<([A-Za-z][\w-]*)>/g, (tag, name: string, at: number) => {
      const lower = name.toLowerCase();
      // Inside the line: some text before it.
      if (at <= first) return tag;
      if (MARKUP_ALONE.has(lower) || (lastClose.get(lower) ?? -1) > at) return tag;
      return `${SEAL['`']}${SEAL['<']}${name.replace(/_/g, SEAL._!)}${SEAL['>']}${SEAL['`']}`;
    });
  });
}

/** A line of Markdown with the tags its prose talks about written as code (sealNamedTags). */
export function namedTagsAsCode(line: string): string {
  return openCode(sealNamedTags(sealCode(line)));
}
