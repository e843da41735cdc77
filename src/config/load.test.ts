import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../diagnostics/errors.js';
import { loadConfig } from './load.js';

function configFile(value: unknown): string {
  const p = join(mkdtempSync(join(tmpdir(), 'kb-config-')), 'kb.config.json');
  writeFileSync(p, JSON.stringify(value));
  return p;
}

function problem(value: unknown): string {
  const p = configFile(value);
  try {
    loadConfig(p);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message.replace(p, '<file>');
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('names an unknown key by its dotted name, the file, and the keys that may stand there', () => {
    const table: [unknown, RegExp][] = [
      [
        { model: { nmae: 'claude' } },
        /^<file>: Unexpected key `model\.nmae`, expected one of provider, name, .*timeoutSeconds.* in model \(or remove it\)$/,
      ],
      [{ modle: {} }, /^<file>: Unexpected key `modle`, expected one of model, embedding, .*lint \(or remove it\)$/],
      [{ model: { timeoutSeconds: 0 } }, /^<file>: `model\.timeoutSeconds` must be > 0$/],
    ];
    for (const [value, message] of table) expect(problem(value)).toMatch(message);
  });

  it('reads a valid file over the defaults', () => {
    expect(loadConfig(configFile({ ask: { budget: 1234 } })).ask.budget).toBe(1234);
  });
});
