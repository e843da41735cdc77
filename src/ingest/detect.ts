import type { RawDocument, RawType } from '../types.js';
import { isText } from './decode.js';

export interface Detected {
  type: RawType;
  /** Code fence language of a code file. */
  language?: string;
  /** MIME type of an attachment. */
  mime?: string;
}

const MARKDOWN = new Set(['.md', '.markdown', '.mdx', '.mdown', '.mkd']);
const TEXT = new Set(['.txt', '.text', '.log']);
const HTML = new Set(['.html', '.htm', '.xhtml']);
const URL_FILES = new Set(['.url', '.webloc']);
// Not .ass/.ssa: subsrt-ts 2 drops the first character of their lines.
const SUBTITLES = new Set(['.srt', '.vtt', '.sbv']);
const MAIL = new Set(['.eml', '.mbox']);
const FEEDS = new Set(['.rss', '.atom']);

/** Binary documents kb reads the text of, by extension. */
export const DOCUMENT_MIME: Readonly<Record<string, string>> = {
  '.pdf': 'application/pdf',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.odt': 'application/vnd.oasis.opendocument.text',
  '.ods': 'application/vnd.oasis.opendocument.spreadsheet',
  '.odp': 'application/vnd.oasis.opendocument.presentation',
  '.epub': 'application/epub+zip',
};

/** Images OCR reads (what sharp decodes). */
export const OCR_MIME = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/tiff']);

/** Code files by extension, with the fence language most highlighters know them by. */
export const CODE_LANGUAGES: Readonly<Record<string, string>> = {
  '.py': 'python',
  '.pyi': 'python',
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'jsx',
  '.go': 'go',
  '.rs': 'rust',
  '.java': 'java',
  '.c': 'c',
  '.h': 'c',
  '.cpp': 'cpp',
  '.hpp': 'cpp',
  '.cc': 'cpp',
  '.cxx': 'cpp',
  '.hh': 'cpp',
  '.cs': 'csharp',
  '.rb': 'ruby',
  '.php': 'php',
  '.swift': 'swift',
  '.kt': 'kotlin',
  '.kts': 'kotlin',
  '.scala': 'scala',
  '.dart': 'dart',
  '.jl': 'julia',
  '.sh': 'sh',
  '.bash': 'bash',
  '.zsh': 'zsh',
  '.fish': 'fish',
  '.ps1': 'powershell',
  '.bat': 'batch',
  '.sql': 'sql',
  '.r': 'r',
  '.lua': 'lua',
  '.pl': 'perl',
  '.hs': 'haskell',
  '.ml': 'ocaml',
  '.ex': 'elixir',
  '.exs': 'elixir',
  '.erl': 'erlang',
  '.clj': 'clojure',
  '.cljs': 'clojure',
  '.vue': 'vue',
  '.svelte': 'svelte',
  '.css': 'css',
  '.scss': 'scss',
  '.sass': 'sass',
  '.less': 'less',
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.toml': 'toml',
  '.json': 'json',
  '.jsonc': 'jsonc',
  '.ini': 'ini',
  '.xml': 'xml',
  '.graphql': 'graphql',
  '.proto': 'protobuf',
  '.tf': 'hcl',
};

/** Code files known by their whole name. */
const CODE_NAMES: Readonly<Record<string, string>> = {
  dockerfile: 'dockerfile',
  makefile: 'makefile',
  gnumakefile: 'makefile',
  justfile: 'just',
};

export const ATTACHMENT_MIME: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.bmp': 'image/bmp',
  '.ico': 'image/x-icon',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.heic': 'image/heic',
  '.avif': 'image/avif',
  '.rtf': 'application/rtf',
  '.doc': 'application/msword',
  '.xls': 'application/vnd.ms-excel',
  '.ppt': 'application/vnd.ms-powerpoint',
  '.pages': 'application/vnd.apple.pages',
  '.key': 'application/vnd.apple.keynote',
  '.numbers': 'application/vnd.apple.numbers',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.m4a': 'audio/mp4',
  '.flac': 'audio/flac',
  '.aac': 'audio/aac',
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
  '.mkv': 'video/x-matroska',
  '.avi': 'video/x-msvideo',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.tgz': 'application/gzip',
  '.tar': 'application/x-tar',
  '.7z': 'application/x-7z-compressed',
  '.rar': 'application/vnd.rar',
  '.bz2': 'application/x-bzip2',
  '.xz': 'application/x-xz',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.sqlite': 'application/vnd.sqlite3',
  '.db': 'application/octet-stream',
  '.bin': 'application/octet-stream',
  '.exe': 'application/octet-stream',
  '.dmg': 'application/octet-stream',
  '.wasm': 'application/wasm',
};

/** Type of a raw file: by extension, then (unknown extension) by its bytes. */
export function detectType(path: string, bytes: Uint8Array): Detected {
  const ext = extension(path);
  if (MARKDOWN.has(ext)) return { type: 'markdown' };
  if (TEXT.has(ext)) return { type: 'text' };
  if (HTML.has(ext)) return { type: 'html' };
  if (URL_FILES.has(ext)) return { type: 'url' };
  if (SUBTITLES.has(ext)) return { type: 'subtitle' };
  if (MAIL.has(ext)) return { type: 'mail' };
  if (FEEDS.has(ext) || (ext === '.xml' && isFeed(bytes))) return { type: 'feed' };
  const document = DOCUMENT_MIME[ext];
  if (document) return { type: 'document', mime: document };
  const language = CODE_LANGUAGES[ext] ?? (ext === '' ? CODE_NAMES[fileName(path).toLowerCase()] : undefined);
  if (language) return { type: 'code', language };
  const mime = ATTACHMENT_MIME[ext];
  if (mime) return { type: 'attachment', mime };
  const sniffed = sniffMime(bytes);
  if (sniffed === 'application/pdf') return { type: 'document', mime: sniffed };
  if (sniffed) return { type: 'attachment', mime: sniffed };
  if (isText(bytes)) return { type: 'text' };
  return { type: 'attachment', mime: 'application/octet-stream' };
}

/** An XML file whose root element is an RSS, RDF or Atom feed. */
function isFeed(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).toString('utf8');
  return /^(?:\uFEFF)?\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*|<\?[^>]*>\s*)*<(?:rss\b|rdf:RDF\b|feed\b[^>]*xmlns=["']http:\/\/www\.w3\.org\/2005\/Atom)/.test(
    head,
  );
}

/** The largest file of this path's type that kb reads: documents and images may be larger than text. */
export function maxBytesFor(path: string, limits: { maxFileBytes: number; maxDocumentBytes: number }): number {
  const ext = extension(path);
  return DOCUMENT_MIME[ext] || OCR_MIME.has(ATTACHMENT_MIME[ext] ?? '')
    ? Math.max(limits.maxFileBytes, limits.maxDocumentBytes)
    : limits.maxFileBytes;
}

/** Documents whose text kb reads: everything but links and attachments, and images in which OCR found text. */
export function readsText(doc: Pick<RawDocument, 'type' | 'meta'>): boolean {
  if (doc.type === 'url') return false;
  return doc.type !== 'attachment' || typeof doc.meta['ocr'] === 'object';
}

/** Files whose ingest is slow (PDF, Office, e-books, OCR): worth worker threads even when few. */
export function isHeavy(path: string): boolean {
  const d = detectType(path, new Uint8Array(0));
  return d.type === 'document' || (d.type === 'attachment' && OCR_MIME.has(d.mime ?? ''));
}

/**
 * Bump when ingest reads files of some type differently (new formats, OCR): compile then reads
 * again the files `rereadOnUpgrade` names, even though their bytes did not change.
 */
export const INGEST_VERSION = '3';

/** Files an older kb filed as attachments or plain text, or could not read, that it now reads. */
export function rereadOnUpgrade(path: string, prevStatus: string): boolean {
  const t = detectType(path, new Uint8Array(0)).type;
  return prevStatus !== 'ok' || isHeavy(path) || t === 'subtitle' || t === 'mail' || t === 'feed' || t === 'html';
}

/** Headings that only anchor a place (PDF pages, transcript times), not the document's outline. */
export const PLACE_HEADING = /^(?:p\. \d+|\d{2}:\d{2}:\d{2})$/;

/** MIME type from the magic bytes at the start of a file, for the common binary formats. */
export function sniffMime(b: Uint8Array): string | undefined {
  const ascii = (start: number, s: string): boolean => {
    for (let i = 0; i < s.length; i++) if (b[start + i] !== s.charCodeAt(i)) return false;
    return true;
  };
  if (ascii(0, '\x89PNG\r\n\x1a\n')) return 'image/png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'image/gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  if (ascii(0, 'RIFF') && ascii(8, 'WAVE')) return 'audio/wav';
  if (ascii(0, '%PDF-')) return 'application/pdf';
  if (ascii(0, 'PK\x03\x04')) return 'application/zip';
  if (b[0] === 0x1f && b[1] === 0x8b) return 'application/gzip';
  if (ascii(0, '7z\xbc\xaf\x27\x1c')) return 'application/x-7z-compressed';
  if (ascii(0, 'ID3')) return 'audio/mpeg';
  if (ascii(4, 'ftyp')) return 'video/mp4';
  if (ascii(0, 'SQLite format 3\x00')) return 'application/vnd.sqlite3';
  return undefined;
}

/** Lowercase extension with the dot, '' if none (`.bashrc`-style names have none). */
export function extension(path: string): string {
  const name = fileName(path);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

export function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** File name without its extension: the title of last resort. */
export function stem(path: string): string {
  const name = fileName(path);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}
