import type { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import type { ContextFlags } from '../flags.js';

export function defineContext(program: Command, rt: CliRuntime): void {
  program
    .command('context')
    .description(
      'print the wiki entries for a question as <kb_entry> XML within a token budget, to pipe into any agent',
    )
    .argument('<question...>', 'the question or topic')
    .option('--kb <dir>', 'knowledge base folder (default: nearest folder upward holding kb.config.json)')
    .option('--budget <tokens>', 'token budget (default: ask.budget in kb.config.json, 4000)')
    .option('--json', 'print {xml, tokens, budget, entries} as JSON')
    .action(async (question: string[], opts: ContextFlags) => {
      const { runContext } = await import('./context-run.js');
      rt.setExit(await runContext(question.join(' '), opts, rt));
    });
}
