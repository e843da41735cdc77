/** Tokens a model call used, as the API reports them; and what a call returns. */

export interface ModelUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export interface ModelResponse {
  text: string;
  /** 'end_turn', 'max_tokens', 'stop_sequence', 'tool_use', … */
  stopReason: string;
  usage: ModelUsage;
  /** True when the answer came from .kb/cache.db (no API call was made). */
  cached: boolean;
}

export function zeroUsage(): ModelUsage {
  return { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}

export function addUsage(a: ModelUsage, b: Partial<ModelUsage> | null | undefined): ModelUsage {
  return {
    input_tokens: a.input_tokens + (b?.input_tokens ?? 0),
    output_tokens: a.output_tokens + (b?.output_tokens ?? 0),
    cache_creation_input_tokens: a.cache_creation_input_tokens + (b?.cache_creation_input_tokens ?? 0),
    cache_read_input_tokens: a.cache_read_input_tokens + (b?.cache_read_input_tokens ?? 0),
  };
}
