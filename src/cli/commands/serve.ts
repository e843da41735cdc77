import type { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { MODEL_OPTION, PROVIDER_OPTION } from '../model-options.js';
import type { ExportFlags, ServeFlags } from '../flags.js';

export function defineServe(program: Command, rt: CliRuntime): void {
  program
    .command('serve')
    .description('browse, search and ask the wiki in a web page (http://127.0.0.1, a free port)')
    .option('--kb <dir>', 'knowledge base folder (default: nearest folder upward holding kb.config.json)')
    .option('--port <n>', 'port to listen on (default: any free port)')
    .option('--host <host>', 'address to listen on; anything but loopback needs --token', '127.0.0.1')
    .option('--token <secret>', 'a secret every request must carry (required with a --host other than loopback)')
    .option('--open', 'open the page in the default browser')
    .option(...PROVIDER_OPTION)
    .option(...MODEL_OPTION)
    .option('--offline', 'answer questions without the model, even when one is configured')
    .action(async (opts: ServeFlags) => {
      const { runServe } = await import('./serve-run.js');
      rt.setExit(await runServe(opts, rt));
    });
}

export function defineExport(program: Command, rt: CliRuntime): void {
  program
    .command('export')
    .description('write the wiki as a static web site (pages, search, graph) with llms.txt, no server needed')
    .requiredOption(
      '--html <dir>',
      'folder to write the site into (made if missing; files kb wrote there before are replaced)',
    )
    .option('--kb <dir>', 'knowledge base folder (default: nearest folder upward holding kb.config.json)')
    .option('--json', 'print what was written as JSON')
    .action(async (opts: ExportFlags) => {
      const { runExport } = await import('./export-run.js');
      rt.setExit(await runExport(opts, rt));
    });
}
