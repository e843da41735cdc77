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

function isKbRoot(dir: string): boolean {
  return existsSync(join(dir, 'kb.config.json')) || isDir(join(dir, 'raw')) || isDir(join(dir, 'wiki'));
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** `--kb <dir>`, or the nearest folder upward holding kb.config.json, raw/ or wiki/. */
export function findKbRoot(explicit: string | undefined, cwd = process.cwd()): string {
  if (explicit) {
    const r = resolve(cwd, explicit);
    if (!isDir(r))
      throw new UsageError(
        `No such folder: ${explicit}. Pass an existing knowledge base with --kb, or create one with \`kb init ${explicit}\`.`,
      );
    return r;
  }
  let dir = resolve(cwd);
  for (;;) {
    if (isKbRoot(dir)) return dir;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  throw new UsageError(
    `No knowledge base found in ${cwd} or any folder above it (looked for kb.config.json, raw/ or wiki/). Run \`kb init\` to create one, or pass --kb <dir>.`,
  );
}
