import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** The `<kb_entry>` reply shape of DESIGN.md, parsed. */
export interface KbEntryXml {
  id?: string;
  title: string;
  aliases: string[];
  summary: string;
  entities: { name: string; kind: string; aliases: string[] }[];
  body: string;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

const TAGS = ['kb_entry', 'title', 'aliases', 'alias', 'summary', 'entities', 'entity', 'body'];
const TAG_RE = new RegExp(`<(?!(?:/?(?:${TAGS.join('|')})\\b[^<>]*>)|!\\[CDATA\\[)`, 'g');
const STRAY_AMP = /&(?!(?:amp|lt|gt|quot|apos|#\d{1,7}|#x[0-9a-fA-F]{1,6});)/g;

const MAX_TITLE = 200;

/**
 * Take the `<kb_entry>…</kb_entry>` block out of a reply and make it well-formed XML: prose around
 * it dropped, the Markdown body wrapped in CDATA (it may hold `<`, `&`, HTML, code), stray `&` and
 * `<` elsewhere escaped. Returns an error string when there is no complete block.
 */
export function extractKbEntry(reply: string): ParseResult<string> {
  const start = reply.search(/<kb_entry[\s>]/);
  if (start < 0)
    return {
      ok: false,
      error: 'Unexpected reply without a <kb_entry> element, expected exactly one <kb_entry>…</kb_entry> block',
    };
  const end = reply.lastIndexOf('</kb_entry>');
  if (end < start)
    return {
      ok: false,
      error:
        'Unexpected end of reply: <kb_entry> is never closed, expected </kb_entry> (the reply may have been cut off)',
    };
  let block = reply.slice(start, end + '</kb_entry>'.length);
  // The body is Markdown: keep it verbatim in CDATA rather than guessing which `<` are tags.
  const bOpen = /<body(?:\s[^<>]*)?>/.exec(block);
  const bClose = block.lastIndexOf('</body>');
  let bodyCdata = '';
  if (bOpen && bClose > bOpen.index) {
    let inner = block.slice(bOpen.index + bOpen[0].length, bClose);
    const cd = /^\s*<!\[CDATA\[([\s\S]*)\]\]>\s*$/.exec(inner);
    if (cd) inner = cd[1]!;
    bodyCdata = `<body><![CDATA[${inner.replace(/\]\]>/g, ']]]]><![CDATA[>')}]]></body>`;
    block = `${block.slice(0, bOpen.index)}\u0000BODY\u0000${block.slice(bClose + '</body>'.length)}`;
  }
  block = block.replace(STRAY_AMP, '&amp;').replace(TAG_RE, '&lt;');
  block = block.replace('\u0000BODY\u0000', () => bodyCdata);
  return { ok: true, value: block };
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  isArray: (name) => name === 'alias' || name === 'entity',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: false,
});

function text(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v && typeof v === 'object' && '#text' in v) return text((v as Record<string, unknown>)['#text']);
  return '';
}

/** One line, no link syntax, no control characters: what a title may be. */
export function cleanTitle(t: string): string {
  return (
    t
      // biome-ignore lint/suspicious/noControlCharactersInRegex: a title must hold no control characters
      .replace(/[\u0000-\u001f\u007f]/g, ' ')
      .replace(/\[\[|\]\]/g, '')
      .replace(/[|#^]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

function aliasList(node: unknown): string[] {
  if (!node || typeof node !== 'object') return [];
  const raw = (node as Record<string, unknown>)['alias'];
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return [...new Set(list.map((a) => cleanTitle(text(a))).filter((a) => a.length > 0 && a.length <= MAX_TITLE))];
}

/**
 * Parse a model reply into a `<kb_entry>`: clean, check well-formedness with XMLValidator, parse
 * with fast-xml-parser, then check the fields. The error string is what the repair round shows
 * the model ("Unexpected X, expected Y").
 */
export function parseKbEntry(reply: string): ParseResult<KbEntryXml> {
  const block = extractKbEntry(reply);
  if (!block.ok) return block;
  const valid = XMLValidator.validate(block.value);
  if (valid !== true) {
    const e = valid.err;
    return { ok: false, error: `Unexpected malformed XML at line ${e.line}, column ${e.col}: ${e.msg}` };
  }
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(block.value) as Record<string, unknown>;
  } catch (err) {
    return { ok: false, error: `Unexpected malformed XML: ${(err as Error).message}` };
  }
  const root = doc['kb_entry'];
  if (!root || typeof root !== 'object')
    return { ok: false, error: 'Unexpected empty <kb_entry>, expected <title>, <summary> and <body> inside it' };
  const r = root as Record<string, unknown>;
  const problems: string[] = [];
  const rawTitle = text(r['title']);
  const title = cleanTitle(rawTitle);
  if (!title) problems.push('Unexpected missing or empty <title>, expected the entry title');
  else if (title.length > MAX_TITLE)
    problems.push(`Unexpected <title> of ${title.length} characters, expected at most ${MAX_TITLE}`);
  const summary = text(r['summary']).replace(/\s+/g, ' ').trim();
  if (!summary) problems.push('Unexpected missing or empty <summary>, expected one paragraph');
  const body = text(r['body']).trim();
  if (!body) problems.push('Unexpected missing or empty <body>, expected the Markdown content of the entry');
  const entities: KbEntryXml['entities'] = [];
  const ents = r['entities'];
  if (ents && typeof ents === 'object') {
    const list = (ents as Record<string, unknown>)['entity'];
    for (const e of Array.isArray(list) ? list : []) {
      const name = cleanTitle(
        typeof e === 'object' && e ? text((e as Record<string, unknown>)['@_name']) || text(e) : text(e),
      );
      if (!name || name.length > MAX_TITLE) continue;
      const kind = typeof e === 'object' && e ? text((e as Record<string, unknown>)['@_kind']) || 'concept' : 'concept';
      entities.push({ name, kind, aliases: aliasList(e) });
    }
  }
  if (problems.length) return { ok: false, error: problems.join('; ') };
  const out: KbEntryXml = {
    title,
    aliases: aliasList(r['aliases']).filter((a) => a.toLowerCase() !== title.toLowerCase()),
    summary,
    entities,
    body,
  };
  const id = text(r['@_id']).trim();
  if (id) out.id = id;
  return { ok: true, value: out };
}

/** Escape text for an XML element or attribute (what kb puts inside the tags it sends). */
export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
