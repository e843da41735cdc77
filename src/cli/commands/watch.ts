import type { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { MODEL_OPTION, PROVIDER_OPTION } from '../model-options.js';
import type { WatchFlags } from '../flags.js';

export function defineWatch(program: Command, rt: CliRuntime): void {
  program
    .command('watch')
    .description('compile on every change in raw/ and re-index your edits in wiki/, until Ctrl-C')
    .option('--kb <dir>', 'knowledge base folder (default: nearest folder upward holding kb.config.json)')
    .option('--debounce <ms>', 'quiet time after the last change before compiling', '300')
    .option(
      '--lock-wait <ms>',
      'how long to wait for another kb process holding the lock before trying again later (within 5 s)',
      '10000',
    )
    .option('--no-initial', 'do not compile at start (only on changes)')
    .option(...PROVIDER_OPTION)
    .option(...MODEL_OPTION)
    .option('--offline', 'use the offline compiler even when a model is configured')
    .option('--poll', 'poll the file system instead of native events (network drives)')
    .option('--json', 'print one JSON event per line')
    .option('-v, --verbose', 'one line per changed file and per file compile writes')
    .action(async (opts: WatchFlags) => {
      const { runWatch } = await import('./watch-run.js');
      rt.setExit(await runWatch(opts, rt));
    });
}
