import type { Converted } from './types.js';

/** The target of a Windows `.url` file: `[InternetShortcut]` then `URL=…`. */
export function urlFromShortcut(text: string): string | undefined {
  const found = /^[ \t]*URL[ \t]*=[ \t]*(\S.*?)[ \t]*$/im.exec(text)?.[1];
  return found ? normaliseUrl(found) : undefined;
}

/** The target of a macOS `.webloc`: an XML plist `<key>URL</key><string>…</string>`, or a binary plist searched for a URL. */
export function urlFromWebloc(bytes: Uint8Array): string | undefined {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
  const found =
    /<key>\s*URL\s*<\/key>\s*<string>\s*([^<]+?)\s*<\/string>/i.exec(text)?.[1] ??
    (text.startsWith('bplist') ? /[a-z][a-z0-9+.-]*:\/\/[\x21-\x7e]+/i.exec(text)?.[0] : undefined);
  return found ? normaliseUrl(Buffer.from(decodeXmlEntities(found), 'latin1').toString('utf8')) : undefined;
}

export function convertUrl(url: string, title: string): Converted {
  return { title, markdown: `# ${title}\n\nLink: <${url}>\n`, meta: { url }, url };
}

/** An absolute URL with a scheme, serialised so that a `<…>` autolink holds it. */
function normaliseUrl(s: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(s)) return undefined;
  try {
    return new URL(s).href.replace(/[<> ]/g, encodeURIComponent);
  } catch {
    return undefined;
  }
}

function decodeXmlEntities(s: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return s.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => named[e] ?? '');
}
