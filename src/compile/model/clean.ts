import type { KbEntryXml } from '../../model/xml.js';

/**
 * What a model's reply is cleaned of before kb uses it, as data: each rule with replies that must
 * and must not change (clean.test.ts reads the examples).
 */

/** Quotes and brackets a model puts around a name: 「…」, 【…】, 《…》, “…”, "…", '…'. */
const WRAPS: readonly [string, string][] = [
  ['「', '」'],
  ['『', '』'],
  ['【', '】'],
  ['《', '》'],
  ['〈', '〉'],
  ['“', '”'],
  ['‘', '’'],
  ['"', '"'],
  ["'", "'"],
  ['*', '*'],
  ['_', '_'],
  ['`', '`'],
];

/** Punctuation that ends a clause, never a name (。，、；： and the ASCII ones; a title may ask a question). */
const TRAILING = /[\s。，、；：,;:]+$/u;

/** Full-width Latin letters and digits (ＲＡＧ, ２０２４) as ASCII: a name is spelt one way. */
function halfWidth(s: string): string {
  return s.replace(/[\uFF10-\uFF19\uFF21-\uFF3A\uFF41-\uFF5A]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
}

/**
 * A title, alias or link target as a name: no quotes or brackets around it, no sentence
 * punctuation after it, full-width letters made plain. A full stop inside an abbreviation
 * (`U.S.`, `Node.js`) stays; one after a Chinese name (`检索增强生成入门。`) goes.
 */
export function cleanName(name: string): string {
  let s = halfWidth(name.normalize('NFC')).trim();
  for (let again = true; again; ) {
    again = false;
    const t = s.replace(TRAILING, '').replace(/(?<=[\p{Script=Han}\s])\.+$/u, '');
    if (t !== s) {
      s = t;
      again = true;
    }
    for (const [open, close] of WRAPS)
      if (s.length > open.length + close.length && s.startsWith(open) && s.endsWith(close)) {
        s = s.slice(open.length, -close.length).trim();
        again = true;
      }
  }
  return s;
}

/** `[[target|label]]` and `[[target#heading]]` with their targets cleaned as names. */
export function cleanLinks(body: string): string {
  return body.replace(
    /(!?)\[\[([^\]\n|#]+)((?:[#|][^\]\n]*)?)\]\]/g,
    (_m, bang: string, target: string, rest: string) => {
      const t = cleanName(target);
      return t ? `${bang}[[${t}${rest}]]` : _m;
    },
  );
}

/** A YAML block a model wrote at the start of the body (kb writes the frontmatter). */
const BODY_YAML = /^\s*---[ \t]*\n(?:[^\n]*\n)*?---[ \t]*(?:\n|$)/;

export function withoutBodyYaml(body: string): string {
  const m = BODY_YAML.exec(body);
  // Only a block of `key: value` lines: a thematic break before a list is text.
  if (!m || !/^\s*---[ \t]*\n(?:[ \t]*(?:[\w-]+[ \t]*:|-[ \t])[^\n]*\n|[ \t]*\n)+---/.test(m[0])) return body;
  return body.slice(m[0].length);
}

/**
 * The example text of kb's templates: a reply that repeats it echoed the shape instead of filling
 * it in ("The work's own title", "other name", "Markdown content").
 */
export const TEMPLATE_EXAMPLES: readonly string[] = [
  "the work's own title",
  'the concept title exactly as given',
  'other name',
  'concept name',
  'abbreviation or translation',
  'markdown content',
  'one paragraph: what the concept is.',
];

/** Why a reply is the template's example rather than an entry, or undefined. */
export function echoedTemplate(e: KbEntryXml): string | undefined {
  const is = (s: string) => TEMPLATE_EXAMPLES.includes(s.trim().toLowerCase());
  const title = e.title.replace(/\s*\((?:source|part)\s*\d+\)\s*$/i, '');
  if (is(title)) return `Unexpected <title> "${e.title}", the template's example, expected the entry's own title`;
  if (is(e.body) || e.summary.trim().toLowerCase().startsWith('1–3 sentences'))
    return "Unexpected <summary> or <body> that repeats the template's example, expected the entry's own text";
  const alias = e.aliases.find(is);
  if (alias) return `Unexpected <alias> "${alias}", the template's example, expected another name of the entry or none`;
  return undefined;
}

/** The reply with its names cleaned (cleanName) and its body without a YAML block, its link targets cleaned. */
export function cleanEntry(e: KbEntryXml): KbEntryXml {
  const names = (xs: readonly string[]) => [...new Set(xs.map(cleanName).filter(Boolean))];
  return {
    ...e,
    title: cleanName(e.title) || e.title.trim(),
    aliases: names(e.aliases),
    summary: e.summary.trim(),
    entities: e.entities.map((x) => ({ ...x, name: cleanName(x.name) || x.name, aliases: names(x.aliases) })),
    body: cleanLinks(withoutBodyYaml(e.body)),
  };
}

/** Languages a reply can be checked against: what its text is mostly written in. */
export type WrittenLanguage = 'en' | 'zh';

/** Whether a text reads as English or Chinese, without code, links and addresses (undefined: too little to say). */
export function writtenIn(text: string): WrittenLanguage | undefined {
  const prose = text
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/`[^`\n]*`/g, ' ')
    .replace(/\[\[[^\]\n]*\]\]/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ');
  const han = (prose.match(/\p{Script=Han}/gu) ?? []).length;
  const words = (prose.match(/[A-Za-z]{2,}/g) ?? []).length;
  if (han + words < 8) return undefined;
  return han >= words ? 'zh' : 'en';
}

const NAMES: Record<WrittenLanguage, string> = { en: 'English', zh: 'Chinese' };

/**
 * Why a reply is in the wrong language, or undefined: its summary and body must be in `want`; and,
 * where the source's own language rules (`ownTitle` given), a title in the other language than the
 * work's own title is a translation the work does not carry.
 */
export function wrongLanguage(e: KbEntryXml, want: WrittenLanguage, ownTitle?: string): string | undefined {
  const got = writtenIn(`${e.summary}\n${e.body}`);
  if (got && got !== want)
    return `Unexpected entry written in ${NAMES[got]}, expected ${NAMES[want]} (the ${ownTitle === undefined ? 'wiki.language setting' : "source's language"})`;
  if (ownTitle !== undefined) {
    const own = /\p{Script=Han}/u.test(ownTitle);
    const title = /\p{Script=Han}/u.test(e.title);
    if (own !== title && /[A-Za-z\p{Script=Han}]/u.test(ownTitle))
      return `Unexpected <title> "${e.title}" in another language than the work's own title "${ownTitle}", expected the work's own title as written`;
  }
  return undefined;
}
