import type { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { MODEL_OPTION, PROVIDER_OPTION } from '../model-options.js';
import type { McpFlags } from '../flags.js';

export function defineMcp(program: Command, rt: CliRuntime): void {
  program
    .command('mcp')
    .description(
      'serve the knowledge base to agents over MCP on stdio (tools: search, ask, read, context, save, status)',
    )
    .option('--kb <dir>', 'knowledge base folder (default: nearest folder upward holding kb.config.json)')
    .option(...PROVIDER_OPTION)
    .option(...MODEL_OPTION)
    .option('--offline', 'never call the model, even when one is configured')
    .action(async (opts: McpFlags) => {
      const { runMcp } = await import('./mcp-run.js');
      rt.setExit(await runMcp(opts, rt));
    });
}
