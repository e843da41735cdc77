import { statSync } from 'node:fs';
import { delimiter, isAbsolute, join, relative } from 'node:path';
import { initKb } from '../../init/init.js';
import { paint } from '../io.js';
import type { CliRuntime } from '../runtime.js';
import type { InitFlags } from '../flags.js';

/** A folder as a person would type it from here: relative below the current folder, absolute elsewhere. */
export function shownPath(abs: string): string {
  const rel = relative(process.cwd(), abs);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? abs : rel;
}

/**
 * How to type kb in the hints: `kb` when that command is on PATH (installed with
 * `npm install -g kb-wiki`), else `npx kb-wiki` (a bare `npx kb` would fetch npm's other `kb`).
 */
export function kbCommand(env: NodeJS.ProcessEnv = process.env): string {
  const names = process.platform === 'win32' ? ['kb.cmd', 'kb.exe', 'kb'] : ['kb'];
  for (const dir of (env['PATH'] ?? '').split(delimiter).filter(Boolean))
    for (const name of names) {
      try {
        if (statSync(join(dir, name)).isFile()) return 'kb';
      } catch {
        // not here
      }
    }
  return 'npx kb-wiki';
}

export async function runInit(dir: string, flags: InitFlags, rt: CliRuntime): Promise<number> {
  const report = initKb(dir, { git: flags.git !== false });
  if (flags.json) {
    rt.io.out(JSON.stringify(report, null, 2));
    return 0;
  }
  const shown = shownPath(report.root);
  rt.io.out(`Created a knowledge base in ${report.root} (${report.files.length} files).`);
  if (report.commit)
    rt.io.out(
      `git: ${report.git === 'created' ? 'new repository' : 'existing repository'}, first commit ${report.commit}.`,
    );
  if (report.gitNote) rt.io.err(paint(rt.io, 'yellow', `git: ${report.gitNote}`));
  rt.io.out('');
  rt.io.out('Next:');
  if (shown !== '.') rt.io.out(`  cd ${/\s/.test(shown) ? JSON.stringify(shown) : shown}`);
  const kb = kbCommand();
  const hints = [
    [`${kb} watch`, 'compile every document you drop into raw/'],
    [`${kb} ask "…"`, 'ask the wiki a question'],
  ] as const;
  const width = Math.max(17, ...hints.map(([c]) => c.length + 2));
  for (const [c, what] of hints) rt.io.out(`  ${c.padEnd(width)}${what}`);
  rt.io.out('  open wiki/ as a vault in Obsidian: index.md is the home page');
  return 0;
}
