import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { DEFAULT_CONFIG } from '../config/defaults.js';
import { KbError } from '../diagnostics/errors.js';
import { packagePath } from '../kb/package-root.js';
import { kbPaths } from '../kb/paths.js';
import { obsidianFileTexts } from './obsidian.js';

export interface InitOptions {
  /** Skip `git init` and the first commit. */
  git?: boolean;
  env?: NodeJS.ProcessEnv;
}

export interface InitReport {
  root: string;
  /** Files written, relative to the root, sorted. */
  files: string[];
  /** `created`: new repository with a first commit; `existing`: committed into the repository already there; `skipped`/`unavailable`: no commit. */
  git: 'created' | 'existing' | 'skipped' | 'unavailable';
  commit?: string;
  /** Why git was unavailable or the commit failed. */
  gitNote?: string;
}

export const GITIGNORE = `# kb: derived and private state (rebuildable from raw/ and wiki/)
wiki/embeddings.db
wiki/embeddings.db-*
.kb/
*.tmp
# Obsidian rewrites its open tabs constantly
wiki/.obsidian/workspace*.json
.DS_Store
`;

export const INDEX_MD = `# Index

Nothing compiled yet. Drop documents into \`raw/\` (Markdown, text, HTML, code, images, \`.url\` links),
then run \`kb compile\`, or leave \`kb watch\` running and it compiles as you add them.
`;

/** The kb.config.json `kb init` writes: every setting at its default. */
export function defaultConfigText(): string {
  return `${JSON.stringify({ $schema: './schemas/kb-config.schema.json', ...DEFAULT_CONFIG }, null, 2)}\n`;
}

/**
 * Make a folder holding raw/ a knowledge base, as its first `kb compile` does: write the
 * kb.config.json `kb init` writes (never over one already there). Returns the file written.
 */
export function adoptKb(root: string): string {
  const { config } = kbPaths(root);
  try {
    writeFileSync(config, defaultConfigText(), { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return config;
    throw new KbError(`Cannot write ${config}: ${(err as Error).message}`, 1, { cause: err });
  }
  return config;
}

/** What `kb init` will not scaffold over: a knowledge base, or a folder holding raw/ or wiki/ already. */
export function existingKbMarker(root: string): string | undefined {
  const p = kbPaths(root);
  if (existsSync(p.config)) return 'kb.config.json';
  for (const [name, dir] of [
    ['raw/', p.raw],
    ['wiki/', p.wiki],
  ] as const) {
    try {
      if (statSync(dir).isDirectory()) return name;
    } catch {
      // not there
    }
  }
  return undefined;
}

/** Every file of a shipped folder (schemas/, templates/) whose name ends in one of `exts`. */
function shippedFiles(folder: string, exts: string[]): string[] {
  const dir = packagePath(folder);
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isFile() && !d.name.startsWith('.') && exts.some((e) => d.name.endsWith(e)))
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * `kb init [dir]`: scaffold a knowledge base — raw/, wiki/ (index.md home page and an Obsidian
 * config), changelog/, schemas/ and templates/ (copies of the shipped defaults, editable),
 * kb.config.json with every setting at its default, .gitignore, and a git repository with a first
 * commit. Refuses a folder that already holds a knowledge base; writes nothing then.
 */
export function initKb(dir: string, opts: InitOptions = {}): InitReport {
  const root = resolve(dir);
  const marker = existsSync(root) ? existingKbMarker(root) : undefined;
  if (marker === 'kb.config.json') {
    throw new KbError(
      `${root} is already a knowledge base (it has kb.config.json); nothing was changed. Use it as it is (\`kb status --kb ${dir}\`), or pick another folder.`,
      1,
    );
  }
  if (marker) {
    throw new KbError(
      `${root} already holds ${marker} (but no kb.config.json); nothing was changed. ${marker === 'raw/' ? `Run \`kb compile --kb ${dir}\` to make it a knowledge base as it is, or pick` : 'Pick'} another folder.`,
      1,
    );
  }
  if (existsSync(root) && !statSync(root).isDirectory())
    throw new KbError(`${root} exists and is not a folder; pick another name.`, 1);
  const paths = kbPaths(root);
  const files: string[] = [];
  const write = (abs: string, text: string) => {
    makeFolder(dirname(abs));
    writeFileSync(abs, text, { flag: 'wx' });
    files.push(relative(root, abs).split('\\').join('/'));
  };
  const copy = (src: string, abs: string) => {
    makeFolder(dirname(abs));
    copyFileSync(src, abs);
    files.push(relative(root, abs).split('\\').join('/'));
  };

  try {
    for (const d of [paths.raw, paths.wiki, paths.changelog, paths.schemas, paths.templates]) makeFolder(d);
    // Git keeps no empty folders: these make raw/ and changelog/ part of the first commit (kb skips hidden files).
    write(join(paths.raw, '.gitkeep'), '');
    write(join(paths.changelog, '.gitkeep'), '');
    for (const name of shippedFiles('schemas', ['.json']))
      copy(packagePath('schemas', name), join(paths.schemas, name));
    for (const name of shippedFiles('templates', ['.md']))
      copy(packagePath('templates', name), join(paths.templates, name));
    if (!files.some((f) => f.startsWith('templates/'))) write(join(paths.templates, '.gitkeep'), '');
    write(paths.config, defaultConfigText());
    write(join(root, '.gitignore'), GITIGNORE);
    write(join(paths.wiki, 'index.md'), INDEX_MD);
    for (const [name, text] of Object.entries(obsidianFileTexts())) write(join(paths.wiki, '.obsidian', name), text);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (!e.code) throw err;
    throw new KbError(
      `Cannot create ${e.path ?? root} (${e.code}: ${e.message.replace(/^\w+: /, '').replace(/,.*$/, '')}), so no knowledge base in ${root}; pick a folder you can write to.`,
      1,
      { cause: err },
    );
  }
  files.sort();

  const report: InitReport = { root, files, git: 'skipped' };
  if (opts.git === false) return report;
  return { ...report, ...firstCommit(root, opts.env ?? process.env) };
}

/**
 * `mkdir -p`, one level at a time: Node's recursive mkdir never returns where the kernel answers
 * "no such file" for a parent that exists (a folder under /proc); this fails at the first level.
 */
function makeFolder(dir: string): void {
  const missing: string[] = [];
  for (let d = dir; !existsSync(d); ) {
    missing.unshift(d);
    const up = dirname(d);
    if (up === d) break;
    d = up;
  }
  for (const d of missing) {
    try {
      mkdirSync(d);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

function firstCommit(root: string, env: NodeJS.ProcessEnv): Pick<InitReport, 'git' | 'commit' | 'gitNote'> {
  const git = (args: string[]) =>
    execFileSync('git', args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' }).trim();
  try {
    git(['--version']);
  } catch {
    return {
      git: 'unavailable',
      gitNote:
        'git was not found on PATH; the knowledge base works without it, but `kb lint --heal` needs a repository.',
    };
  }
  const had = existsSync(join(root, '.git'));
  try {
    if (!had) git(['-c', 'init.defaultBranch=main', 'init', '--quiet']);
    // Work where no global identity is configured (fresh machines, CI).
    const ident: string[] = [];
    const has = (key: string) => {
      try {
        return git(['config', key]) !== '';
      } catch {
        return false;
      }
    };
    if (!has('user.name')) ident.push('-c', 'user.name=kb');
    if (!has('user.email')) ident.push('-c', 'user.email=kb@localhost');
    git(['add', '--', '.gitignore', 'kb.config.json', 'raw', 'wiki', 'changelog', 'schemas', 'templates']);
    git([...ident, 'commit', '--quiet', '--no-verify', '-m', 'kb init: new knowledge base']);
    return { git: had ? 'existing' : 'created', commit: git(['rev-parse', '--short', 'HEAD']) };
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    return {
      git: had ? 'existing' : 'created',
      gitNote: `the first commit failed: ${(e.stderr || e.message).trim().split('\n')[0]}`,
    };
  }
}
