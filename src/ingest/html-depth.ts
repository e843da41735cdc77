import { Parser } from 'htmlparser2';

/**
 * Elements nested deeper than this are unwrapped (their text kept): the HTML and Markdown trees
 * are walked by recursion, and a page of 60,000 nested `<div>`s would overflow the stack. Real
 * pages nest a few dozen deep.
 */
export const MAX_HTML_DEPTH = 256;

/** Elements that have no end tag (they never deepen the tree). */
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

/**
 * The HTML as it was when no element is nested deeper than `maxDepth`; otherwise the same markup
 * with the elements below that depth unwrapped (their text and shallower structure kept), read by
 * a streaming parser (htmlparser2), which keeps no tree. A page with fewer tags than `maxDepth`
 * cannot nest that deep and is returned without parsing.
 */
export function flattenDeepHtml(html: string, maxDepth = MAX_HTML_DEPTH): string {
  let tags = 0;
  for (let i = html.indexOf('<'); i >= 0 && tags <= maxDepth; i = html.indexOf('<', i + 1)) tags++;
  if (tags <= maxDepth) return html;
  let depth = 0;
  let deepest = 0;
  new Parser(
    {
      onopentag(name) {
        if (VOID.has(name)) return;
        depth++;
        if (depth > deepest) deepest = depth;
      },
      onclosetag(name) {
        if (!VOID.has(name)) depth--;
      },
    },
    { decodeEntities: false },
  ).end(html);
  if (deepest <= maxDepth) return html;
  const out: string[] = [];
  depth = 0;
  new Parser(
    {
      onopentag(name, attrs) {
        if (VOID.has(name)) {
          if (depth < maxDepth) out.push(`<${name}${attributes(attrs)}>`);
          return;
        }
        depth++;
        if (depth <= maxDepth) out.push(`<${name}${attributes(attrs)}>`);
      },
      ontext(text) {
        out.push(text);
      },
      onclosetag(name) {
        if (VOID.has(name)) return;
        if (depth <= maxDepth) out.push(`</${name}>`);
        depth--;
      },
      oncomment(data) {
        out.push(`<!--${data}-->`);
      },
      onprocessinginstruction(_name, data) {
        out.push(`<${data}>`);
      },
    },
    { decodeEntities: false },
  ).end(html);
  return out.join('');
}

function attributes(attrs: Record<string, string>): string {
  let s = '';
  // Values as written (entities not decoded): only a quote inside needs escaping.
  for (const [k, v] of Object.entries(attrs)) s += v === '' ? ` ${k}` : ` ${k}="${v.replace(/"/g, '&quot;')}"`;
  return s;
}
