import type { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import type { InitFlags } from '../flags.js';

export function defineInit(program: Command, rt: CliRuntime): void {
  program
    .command('init')
    .description(
      'create a knowledge base: raw/, wiki/, changelog/, schemas/, templates/, kb.config.json, .gitignore, git',
    )
    .argument('[dir]', 'folder to create it in (made if missing)', '.')
    .option('--no-git', 'do not create a git repository and first commit')
    .option('--json', 'print what was created as JSON')
    .action(async (dir: string, opts: InitFlags) => {
      const { runInit } = await import('./init-run.js');
      rt.setExit(await runInit(dir, opts, rt));
    });
}
