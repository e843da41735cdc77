import { isAbsolute, relative } from 'node:path';
import { initKb } from '../../init/init.js';
import { paint } from '../io.js';
import type { CliRuntime } from '../runtime.js';
import type { InitFlags } from '../flags.js';

/** A folder as a person would type it from here: relative below the current folder, absolute elsewhere. */
export function shownPath(abs: string): string {
  const rel = relative(process.cwd(), abs);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? abs : rel;
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
  rt.io.out('  kb watch         compile every document you drop into raw/');
  rt.io.out('  kb ask "…"       ask the wiki a question');
  rt.io.out('  open wiki/ as a vault in Obsidian: index.md is the home page');
  return 0;
}
