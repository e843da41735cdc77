import type { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import type { StatusFlags } from '../flags.js';

export function defineStatus(program: Command, rt: CliRuntime): void {
  program
    .command('status')
    .description(
      'sources compiled, pending, stale and failed; entries, links, last compile and heal, store, model spend',
    )
    .option('--kb <dir>', 'knowledge base folder (default: nearest folder upward holding kb.config.json)')
    .option('--json', 'print the status as JSON')
    .option('-v, --verbose', 'list every pending, stale and failed source and every broken link')
    .action(async (opts: StatusFlags) => {
      const { runStatus } = await import('./status-run.js');
      rt.setExit(await runStatus(opts, rt));
    });
}
