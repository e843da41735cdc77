import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config/defaults.js';
import { kbPaths } from '../kb/paths.js';
import type { ModelClient, ModelRequest } from '../model/client.js';
import type { Embedder } from '../embed/types.js';
import { exampleEntry } from './entry-info.js';
import { loadLintInput } from './input.js';
import { lint } from './lint.js';

/** Every text gets the same vector: every pair is "most similar". */
const flat: Embedder = { fingerprint: 'flat', dims: 2, embed: async (t) => t.map(() => new Float32Array([1, 0])) };

function fakeModel(answer: (req: ModelRequest) => string): ModelClient & { calls: ModelRequest[] } {
  const calls: ModelRequest[] = [];
  return {
    model: 'fake',
    calls,
    async complete(req) {
      calls.push(req);
      return {
        text: answer(req),
        stopReason: 'end_turn',
        usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        cached: false,
      };
    },
    spent: () => ({
      calls: calls.length,
      usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      usd: 0,
    }),
  };
}

function kb(): string {
  const root = mkdtempSync(join(tmpdir(), 'kb-contra-'));
  const files = {
    'wiki/concepts/Luhmann.md': exampleEntry(
      { title: 'Luhmann' },
      '# Luhmann\n\nNiklas Luhmann kept his slip box in Bielefeld.\n',
    ),
    'wiki/concepts/Slip Box.md': exampleEntry(
      { title: 'Slip Box' },
      '# Slip Box\n\nLuhmann kept the slip box in Hamburg.\n',
    ),
  };
  for (const [p, t] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), t);
  }
  return root;
}

describe('contradiction with a model', () => {
  it('asks the model about the most similar pairs and reports what it finds', async () => {
    const model = fakeModel(
      () =>
        '<verdict>contradiction</verdict><subject>where the slip box was kept</subject><reason>One says Bielefeld, the other Hamburg.</reason>',
    );
    const input = await loadLintInput(kbPaths(kb()), DEFAULT_CONFIG, { embedder: flat, model });
    const { findings } = await lint(input, { rules: ['contradiction'] });
    expect(model.calls).toHaveLength(1);
    expect(model.calls[0]!.task).toBe('lint-contradiction');
    expect(model.calls[0]!.prompt).toContain('Bielefeld');
    expect(findings).toHaveLength(1);
    expect(findings[0]!.reason).toMatch(
      /^Unexpected disagreement with wiki\/concepts\/.+ about where the slip box was kept .*, expected entries that agree$/,
    );
    expect(findings[0]!.data?.['subject']).toBe('where the slip box was kept');
  });

  it('reports nothing when the model finds them consistent, and never runs offline', async () => {
    const model = fakeModel(() => '<verdict>consistent</verdict><subject></subject><reason>Fine.</reason>');
    let input = await loadLintInput(kbPaths(kb()), DEFAULT_CONFIG, { embedder: flat, model });
    expect((await lint(input, { rules: ['contradiction'] })).findings).toEqual([]);
    input = await loadLintInput(kbPaths(kb()), DEFAULT_CONFIG, { embedder: flat });
    expect((await lint(input, { rules: ['contradiction'] })).findings).toEqual([]);
  });
});
