import type { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { MODEL_OPTION, PROVIDER_OPTION } from '../model-options.js';
import type { CompileFlags } from '../flags.js';

export function defineCompile(program: Command, rt: CliRuntime): void {
  program
    .command('compile')
    .description('compile what changed in raw/ into wiki/')
    .option('--kb <dir>', 'knowledge base folder (default: nearest folder upward holding kb.config.json)')
    .option('--force', 'recompile every document, changed or not')
    .option(...PROVIDER_OPTION)
    .option(...MODEL_OPTION)
    .option('--offline', 'use the offline compiler even when a model is configured')
    .option('--estimate', 'print the calls, tokens and dollars a model compile would take, without calling the API')
    .option('--max-cost <usd>', 'stop before model spending would pass this many US dollars')
    .option('--batch', 'send source compiles through the Message Batches API (half price; resumes an unfinished batch)')
    .option('--strict', 'exit 1 when any file gets a warning')
    .option('--json', 'print the report as JSON')
    .option('-v, --verbose', 'one line per file')
    .action(async (opts: CompileFlags) => {
      const { runCompile } = await import('./compile-run.js');
      rt.setExit(await runCompile(opts, rt));
    });
}
