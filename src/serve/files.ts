import { realpathSync, statSync } from 'node:fs';
import { extname, join, sep } from 'node:path';
import { ATTACHMENT_MIME } from '../ingest/detect.js';

/** Files of wiki/ the server never hands out: the store and its journal (derived data, not pages). */
const PRIVATE = /^embeddings\.db/;

/** What a file of wiki/ is served as: an attachment's type as ingest knows it, and the pages' own files. */
export const MIME: Readonly<Record<string, string>> = {
  ...ATTACHMENT_MIME,
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};

export function mimeOf(path: string): string {
  return MIME[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The file under `wikiDir` a URL path (after `/wiki/`) names, or undefined: a path that decodes
 * to `..`, a hidden name, a NUL, a backslash, the store, or a symlink whose real path leaves
 * wiki/ is refused. The path is decoded once, as the URL parser leaves `%2f` encoded.
 */
export function wikiFile(wikiDir: string, urlPath: string): string | undefined {
  let rel: string;
  try {
    rel = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const parts = rel.split('/');
  if (
    rel.includes('\0') ||
    rel.includes('\\') ||
    parts.some((p) => p === '' || p === '.' || p === '..' || p.startsWith('.'))
  )
    return undefined;
  if (PRIVATE.test(parts[parts.length - 1] ?? '')) return undefined;
  try {
    const root = realpathSync(wikiDir);
    const real = realpathSync(join(wikiDir, ...parts));
    if (!real.startsWith(root + sep) || !statSync(real).isFile()) return undefined;
    return real;
  } catch {
    return undefined;
  }
}
