/** `--provider` and `--model` for the commands that call a model. */
export const PROVIDER_OPTION = [
  '--provider <name>',
  'model provider for this run: anthropic, openai, ollama, llamacpp, vllm, lmstudio, deepseek, qwen, kimi',
] as const;
export const MODEL_OPTION = ['--model <name>', 'model name for this run (every task uses it)'] as const;

/**
 * The per-run choice goes where the core reads it, the environment (as KB_PROVIDER / KB_MODEL
 * would), so every command and stage sees the same model.
 */
export function applyModelOptions(
  opts: { provider?: unknown; model?: unknown },
  env: NodeJS.ProcessEnv = process.env,
): void {
  if (typeof opts.provider === 'string' && opts.provider) env['KB_PROVIDER'] = opts.provider;
  if (typeof opts.model === 'string' && opts.model) env['KB_MODEL'] = opts.model;
}
