import type { KbConfig } from '../config/defaults.js';
import type { ModelUsage } from './usage.js';

export interface ModelPrice {
  input: number;
  output: number;
  cacheWrite?: number;
  cacheRead?: number;
}

/** USD per million tokens for a model: exact name, else the longest configured name it starts with. */
export function priceFor(config: KbConfig, model: string): ModelPrice | undefined {
  const prices = config.model.prices;
  if (prices[model]) return prices[model];
  const prefix = Object.keys(prices)
    .filter((k) => model.startsWith(k))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? prices[prefix] : undefined;
}

/** Dollars for a usage record; batch calls cost half. Unknown price → 0. */
export function costUsd(u: ModelUsage, price: ModelPrice | undefined, batch = false): number {
  if (!price) return 0;
  const m = 1e-6 * (batch ? 0.5 : 1);
  return (
    m *
    (u.input_tokens * price.input +
      u.output_tokens * price.output +
      u.cache_creation_input_tokens * (price.cacheWrite ?? price.input * 1.25) +
      u.cache_read_input_tokens * (price.cacheRead ?? price.input * 0.1))
  );
}

export function formatUsd(usd: number): string {
  return usd < 0.01 && usd > 0 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}
