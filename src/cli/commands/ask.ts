import type { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { MODEL_OPTION, PROVIDER_OPTION } from '../model-options.js';
import type { AskFlags } from '../flags.js';

export function defineAsk(program: Command, rt: CliRuntime): void {
  program
    .command('ask')
    .description('answer a question from the wiki, citing entries as [[Title]]')
    .argument('<question...>', 'the question')
    .option('--kb <dir>', 'knowledge base folder (default: nearest folder upward holding kb.config.json)')
    .option('--budget <tokens>', 'context budget in tokens (default: ask.budget in kb.config.json, 4000)')
    .option(...PROVIDER_OPTION)
    .option(...MODEL_OPTION)
    .option('--offline', 'extractive answer without the model, even when one is configured')
    .option('--save', 'file the answer into wiki/answers/ and link it from the entries it cites')
    .option('--format <format>', 'answer format: markdown or marp (a slide deck; implies --save)', 'markdown')
    .option('--no-cache', 'do not use or fill the answer cache')
    .option('--json', 'print answer, citations, context tokens and timings as JSON')
    .option(
      '--strict',
      'exit 1 when the answer comes with a warning (a citation of no given entry, no citation, a malformed reply)',
    )
    .action(async (question: string[], opts: AskFlags) => {
      const { runAsk } = await import('./ask-run.js');
      rt.setExit(await runAsk(question.join(' '), opts, rt));
    });
}
