import type { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { MODEL_OPTION, PROVIDER_OPTION } from '../model-options.js';
import type { LintFlags } from '../flags.js';

export function defineLint(program: Command, rt: CliRuntime): void {
  program
    .command('lint')
    .description('find what is wrong with the wiki; --heal repairs it on git branches with a report in changelog/')
    .option('--kb <dir>', 'knowledge base folder (default: nearest folder upward holding kb.config.json)')
    .option('--rule <ids...>', 'run only these rules (repeat or separate with commas)')
    .option('--json', 'print findings (or the heal report) as JSON')
    .option('--frail', 'exit 1 on warnings too, not only on errors')
    .option('--network', 'also check web links (dead-url)')
    .option(...PROVIDER_OPTION)
    .option(...MODEL_OPTION)
    .option('--offline', 'never call the model, even when one is configured')
    .option('--heal', 'fix what can be fixed, one git branch per topic, report in changelog/')
    .option('--merge', 'with --heal: merge each branch whose re-lint is clean and that merges without conflict')
    .option('--dry-run', 'with --heal: print the plan, write nothing')
    .option('--web', 'with --heal: let the model use web search for what the sources cannot settle (cited by URL)')
    .option('--list-rules', 'print every rule with its severity, whether heal fixes it, and its documentation')
    .addHelpText(
      'after',
      '\nExit codes: 0 no errors, 1 errors (with --frail: warnings too), 2 usage error, 130 interrupted.\nFrom cron, every night at 3:00:\n  0 3 * * * cd /path/to/my-kb && kb lint --heal >> .kb/heal.log 2>&1',
    )
    .action(async (opts: LintFlags) => {
      const { runLint } = await import('./lint-run.js');
      rt.setExit(await runLint(opts, rt));
    });
}
