import fs from 'node:fs';
import path from 'node:path';
import { message, type KbMessage } from '../diagnostics/message.js';
import type { RawPath } from '../types.js';
import type { RawFile, WalkResult } from './types.js';

/**
 * Turn simple globs into one matcher: `*` is any run of characters except `/`, `**` any run,
 * `?` one character. A pattern without `/` matches the file or folder name, one with `/` the
 * path relative to raw/. Case-insensitive, because the file systems most people use are.
 */
export function compileIgnore(patterns: readonly string[]): (name: string, rel: string) => boolean {
  const byName: RegExp[] = [];
  const byPath: RegExp[] = [];
  for (const raw of patterns) {
    const pattern = raw.trim().replace(/^\/+|\/+$/g, '');
    if (!pattern) continue;
    let source = '';
    for (let i = 0; i < pattern.length; i++) {
      const ch = pattern[i] as string;
      if (ch === '*') {
        if (pattern[i + 1] === '*') {
          source += '.*';
          i++;
        } else source += '[^/]*';
      } else if (ch === '?') source += '[^/]';
      else source += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
    (pattern.includes('/') ? byPath : byName).push(new RegExp(`^${source}$`, 'iu'));
  }
  if (byName.length === 0 && byPath.length === 0) return () => false;
  return (name, rel) => byName.some((re) => re.test(name)) || byPath.some((re) => re.test(rel));
}

interface Walker {
  rawDir: string;
  ignored: (name: string, rel: string) => boolean;
  /** Real path of raw/ itself: a link may only lead inside it. */
  realRoot: string;
  files: RawFile[];
  messages: KbMessage[];
}

const shown = (rel: string): string => (rel ? `raw/${rel}` : 'raw/');

/**
 * Every file under `rawDir` at any depth, sorted by path. Hidden names are skipped silently,
 * `ignore` patterns skip files and folders. A symlink to a file inside raw/ is read under the link's
 * path; a link whose real path leaves raw/ is never followed (`ingest-symlink-outside`: nothing
 * outside raw/ is read, e.g. `ln -s /etc raw/etc`), nor one to a folder inside raw/, read under its
 * own path anyway (`ingest-symlink-loop`); broken links get `ingest-unreadable`.
 * A missing `rawDir` is an empty result: there is nothing to ingest yet.
 */
export function walkRaw(rawDir: string, opts: { ignore: string[] }): WalkResult {
  const root = path.resolve(rawDir);
  const w: Walker = {
    rawDir: root,
    ignored: compileIgnore(opts.ignore),
    realRoot: root,
    files: [],
    messages: [],
  };
  try {
    w.realRoot = fs.realpathSync(root);
  } catch (err) {
    if (errorCode(err) !== 'ENOENT') {
      w.messages.push(unreadable('', err));
    }
    return { files: [], messages: w.messages };
  }
  walkDir(w, root, '');
  distinctKeys(w);
  w.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files: w.files, messages: w.messages };
}

function walkDir(w: Walker, abs: string, rel: string): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(abs, { withFileTypes: true });
  } catch (err) {
    w.messages.push(unreadable(rel, err));
    return;
  }
  // Sorted so that which of two links to one folder counts as the duplicate is stable.
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const name = entry.name;
    if (name.startsWith('.')) continue;
    const childRel = rel ? `${rel}/${name}` : name;
    if (w.ignored(name, childRel)) continue;
    const childAbs = path.join(abs, name);

    if (entry.isFile()) {
      addFile(w, childAbs, childRel);
    } else if (entry.isDirectory()) {
      walkDir(w, childAbs, childRel);
    } else if (entry.isSymbolicLink()) {
      followLink(w, childAbs, childRel);
    } else {
      w.messages.push(
        message(
          shown(childRel),
          'ingest-unreadable',
          'Unexpected special file (device, socket or pipe), expected a regular file or folder',
          {
            note: 'kb skips it; move it out of raw/',
          },
        ),
      );
    }
  }
}

function followLink(w: Walker, abs: string, rel: string): void {
  let target = '';
  try {
    target = fs.readlinkSync(abs);
  } catch {
    // unknown target
  }
  let real: string;
  let stat: fs.Stats;
  try {
    real = fs.realpathSync(abs);
    stat = fs.statSync(real);
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ELOOP') {
      w.messages.push(loop(rel, target, 'a chain of links that never ends'));
      return;
    }
    w.messages.push(
      message(
        shown(rel),
        'ingest-unreadable',
        `Unexpected broken symlink${target ? ` to \`${target}\`` : ''}, expected a link to an existing file or folder`,
        {
          note: 'fix or delete the link',
        },
      ),
    );
    return;
  }
  // Checked on the real path, so that `../..` chains and links to links cannot smuggle a file in.
  if (real !== w.realRoot && !isInside(real, w.realRoot)) {
    w.messages.push(outside(rel, target || real));
    return;
  }
  if (stat.isFile()) {
    w.files.push(rawFile(abs, rel, stat));
    return;
  }
  if (!stat.isDirectory()) return;
  // Every folder inside raw/ is read under its own path: following a link to one would read it twice.
  w.messages.push(
    loop(rel, real, real === w.realRoot ? 'raw/ itself' : 'a folder inside raw/, read under its own path'),
  );
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

function addFile(w: Walker, abs: string, rel: string): void {
  try {
    w.files.push(rawFile(abs, rel, fs.statSync(abs)));
  } catch (err) {
    w.messages.push(unreadable(rel, err));
  }
}

/**
 * Paths are keyed in NFC, so a name macOS wrote in NFD is the same document wherever the folder is
 * synced. Two files whose names differ only in that form (possible on Linux) stay two documents:
 * the one spelled in NFC (else the first) keeps the NFC key, the others their exact spelling.
 */
function distinctKeys(w: Walker): void {
  const byKey = new Map<string, { file: RawFile; exact: string }[]>();
  for (const file of w.files) {
    const exact = path.relative(w.rawDir, file.absPath).split(path.sep).join('/');
    const list = byKey.get(file.path);
    if (list) list.push({ file, exact });
    else byKey.set(file.path, [{ file, exact }]);
  }
  for (const [key, group] of byKey) {
    if (group.length < 2) continue;
    group.sort((a, b) => Number(b.exact === key) - Number(a.exact === key) || (a.exact < b.exact ? -1 : 1));
    for (const g of group.slice(1)) g.file.path = g.exact as RawPath;
    const forms = group.map((g) =>
      g.exact === g.exact.normalize('NFC') ? 'NFC' : g.exact === g.exact.normalize('NFD') ? 'NFD' : 'mixed',
    );
    w.messages.push(
      message(
        shown(key),
        'ingest-name-form',
        `Unexpected ${group.length} files named \`${key}\` in different Unicode forms (${forms.join(', ')}), expected one spelling per name; each is compiled as a document of its own`,
        {
          note: 'rename one of them: macOS, Obsidian and many sync tools show them as one file',
        },
      ),
    );
  }
}

function rawFile(abs: string, rel: string, stat: fs.Stats): RawFile {
  return { path: rel.normalize('NFC') as RawPath, absPath: abs, size: stat.size, mtimeMs: stat.mtimeMs };
}

function loop(rel: string, target: string, what: string): KbMessage {
  return message(
    shown(rel),
    'ingest-symlink-loop',
    `Unexpected symlink to ${what}${target ? ` (\`${target}\`)` : ''}, expected a link to a file inside raw/`,
    {
      note: 'kb does not follow it; remove the link or point it elsewhere',
    },
  );
}

function outside(rel: string, target: string): KbMessage {
  return message(
    shown(rel),
    'ingest-symlink-outside',
    `Unexpected symlink to \`${target}\`, outside raw/, expected a link to a file inside raw/`,
    {
      note: 'kb did not follow it, so nothing outside raw/ is read; copy or move what you want compiled into raw/',
    },
  );
}

function unreadable(rel: string, err: unknown): KbMessage {
  const code = errorCode(err);
  // A name whose bytes are not UTF-8 comes back from the file system with U+FFFD in their place,
  // and no file has that name: the name, not the permissions, is what to fix.
  if (code === 'ENOENT' && rel.includes('\uFFFD'))
    return message(
      shown(rel),
      'ingest-unreadable',
      'Unexpected file name that is not UTF-8 (shown with � for the bytes that are not), expected a name in UTF-8',
      { note: 'rename it (for example with `convmv -f gbk -t utf-8 --notest`); kb reads it then' },
    );
  const why = code === 'EACCES' || code === 'EPERM' ? 'no permission to read it' : (code ?? String(err));
  return message(
    shown(rel),
    'ingest-unreadable',
    `Unexpected unreadable path (${why}), expected a readable file or folder`,
    {
      note: 'fix its permissions or move it out of raw/',
    },
  );
}

function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string'
    ? err.code
    : undefined;
}

/**
 * Finds raw files by key (`notes/café.md`, with or without `raw/`) at the path the walker found
 * them: a name written in NFD is found under its NFC key, a link out of raw/ is never found. Walks
 * `rawDir` once, on the first look-up.
 */
export function rawFileFinder(
  rawDir: string,
  opts: { ignore: string[] } = { ignore: [] },
): (key: string) => string | undefined {
  let byKey: Map<string, string> | undefined;
  return (key) => {
    byKey ??= new Map(walkRaw(rawDir, opts).files.map((f) => [f.path, f.absPath]));
    const k = key.replace(/^raw\//, '');
    return byKey.get(k) ?? byKey.get(k.normalize('NFC'));
  };
}
