import type { Converted } from './types.js';

/**
 * HTML to Markdown (html-convert.ts). Its parsers (rehype, remark-gfm, htmlparser2) take ~160 ms
 * to load, which a compile of Markdown and text never needs: they are loaded by the first ingest
 * that reads HTML (a page, a feed, mail, an Office file), through loadHtml.
 */
let impl: typeof import('./html-convert.js') | undefined;

/** Loads the HTML converter (once); convertHtml may be called after it. */
export async function loadHtml(): Promise<void> {
  impl ??= await import('./html-convert.js');
}

/** html-convert.ts's convertHtml, once loadHtml has loaded it. */
export function convertHtml(html: string, fallbackTitle: string, opts: { headingOffset?: number } = {}): Converted {
  if (!impl) throw new Error('internal: the HTML converter was used before loadHtml()');
  return impl.convertHtml(html, fallbackTitle, opts);
}

/** html-convert.ts's convertWebPage, loading the converter first. */
export async function convertWebPage(page: string, fallbackTitle: string): Promise<Converted> {
  await loadHtml();
  return impl!.convertWebPage(page, fallbackTitle);
}

/** The charset an HTML page declares in its first bytes (`<meta charset>` or http-equiv). */
export function declaredCharset(bytes: Uint8Array): string | undefined {
  const start = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 2048)).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?\s*([\w-]+)/i.exec(start)?.[1];
}
