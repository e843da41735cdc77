import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../diagnostics/errors.js';

export interface KbPaths {
  root: string;
  raw: string;
  wiki: string;
  changelog: string;
  schemas: string;
  templates: string;
  state: string;
  /** What ingest read from documents slow to read (PDF, OCR), by content hash. */
  ingestCache: string;
  config: string;
  db: string;
}

export function kbPaths(root: string): KbPaths {
  const r = resolve(root);
  return {
    root: r,
    raw: join(r, 'raw'),
    wiki: join(r, 'wiki'),
    changelog: join(r, 'changelog'),
    schemas: join(r, 'schemas'),
    templates: join(r, 'templates'),
    state: join(r, '.kb'),
    ingestCache: join(r, '.kb', 'ingest'),
    config: join(r, 'kb.config.json'),
    db: join(r, 'wiki', 'embeddings.db'),
  };
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** What makes a folder a knowledge base: its kb.config.json (written by `kb init`, or by the first `kb compile`). */
export function isKbRoot(dir: string): boolean {
  return existsSync(join(dir, 'kb.config.json'));
}

/** The nearest folder from `dir` upward holding kb.config.json. */
function configUpward(dir: string): string | undefined {
  for (let d = resolve(dir); ; ) {
    if (isKbRoot(d)) return d;
    const up = dirname(d);
    if (up === d) return undefined;
    d = up;
  }
}

function explicitRoot(explicit: string, cwd: string): string {
  const r = resolve(cwd, explicit);
  if (!isDir(r))
    throw new UsageError(
      `No such folder: ${explicit}. Pass an existing knowledge base with --kb, or create one with \`kb init ${explicit}\`.`,
    );
  return r;
}

/**
 * The knowledge base a command that only reads (or heals) works on: `--kb <dir>`, or the nearest
 * folder upward holding kb.config.json — never a parent found by a stray wiki/ or raw/. A folder
 * named with --kb may also be one holding raw/ or wiki/ that has no kb.config.json yet (the
 * defaults apply).
 */
export function findKbRoot(explicit: string | undefined, cwd = process.cwd()): string {
  if (explicit) {
    const r = explicitRoot(explicit, cwd);
    if (!isKbRoot(r) && !isDir(join(r, 'raw')) && !isDir(join(r, 'wiki')))
      throw new UsageError(
        `${r} is not a knowledge base (it has no kb.config.json, raw/ or wiki/). Run \`kb init ${explicit}\` to make it one, or pass --kb the folder that holds kb.config.json.`,
      );
    return r;
  }
  const found = configUpward(cwd);
  if (found) return found;
  const here = resolve(cwd);
  throw new UsageError(
    `No knowledge base in ${here} or any folder above it (none holds kb.config.json). Run \`kb init\` to make one, or pass --kb <dir>${isDir(join(here, 'raw')) ? '; or run `kb compile` here to make this folder one from its raw/' : ''}.`,
  );
}

export interface CompileRoot {
  root: string;
  /**
   * The folder holds raw/ but no kb.config.json (nor does any folder above it): compiling it
   * makes it a knowledge base, and the caller writes its kb.config.json first.
   */
  adopt: boolean;
}

/**
 * The knowledge base `kb compile` and `kb watch` work on: as findKbRoot, except that a folder
 * holding raw/ with no kb.config.json anywhere up the tree (the current folder, or the one named
 * with --kb) is taken, to become a knowledge base.
 */
export function findCompileRoot(explicit: string | undefined, cwd = process.cwd()): CompileRoot {
  if (explicit) {
    const r = explicitRoot(explicit, cwd);
    if (isKbRoot(r)) return { root: r, adopt: false };
    if (isDir(join(r, 'raw'))) return { root: r, adopt: true };
    throw new UsageError(
      `${r} is not a knowledge base (it has no kb.config.json, and no raw/ to compile). Run \`kb init ${explicit}\` to make it one, or pass --kb the folder that holds kb.config.json.`,
    );
  }
  const found = configUpward(cwd);
  if (found) return { root: found, adopt: false };
  const here = resolve(cwd);
  if (isDir(join(here, 'raw'))) return { root: here, adopt: true };
  throw new UsageError(
    `No knowledge base in ${here} or any folder above it (none holds kb.config.json), and no raw/ here to compile. Run \`kb init\` to make one, or pass --kb <dir>.`,
  );
}
