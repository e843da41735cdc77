import type { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { MODEL_OPTION, PROVIDER_OPTION } from '../model-options.js';
import type { DoctorFlags } from '../flags.js';

export function defineDoctor(program: Command, rt: CliRuntime): void {
  program
    .command('doctor')
    .description('check the configured model provider(s) and embedder with one tiny call each: what works, and why not')
    .option('--kb <dir>', 'knowledge base folder (default: nearest folder upward holding kb.config.json)')
    .option(...PROVIDER_OPTION)
    .option(...MODEL_OPTION)
    .option('--json', 'print the checks as JSON')
    .action(async (opts: DoctorFlags) => {
      const { runDoctor } = await import('./doctor-run.js');
      rt.setExit(await runDoctor(opts, rt));
    });
}
