import type { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import type { SearchFlags } from '../flags.js';

export function defineSearch(program: Command, rt: CliRuntime): void {
  program
    .command('search')
    .description('ranked entries and passages with scores (keywords + vectors + one link hop), no model')
    .argument('<query...>', 'what to look for')
    .option('--kb <dir>', 'knowledge base folder (default: nearest folder upward holding kb.config.json)')
    .option('-n, --limit <n>', 'entries to show', '10')
    .option('--passages <n>', 'passages to show', '5')
    .option('--json', 'print the results as JSON')
    .action(async (query: string[], opts: SearchFlags) => {
      const { runSearch } = await import('./search-run.js');
      rt.setExit(await runSearch(query.join(' '), opts, rt));
    });
}
