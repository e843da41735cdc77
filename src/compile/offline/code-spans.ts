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
