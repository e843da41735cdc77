import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { codeId } from './code-id.js';
import { packagePath } from './package-root.js';

describe('codeId', () => {
  it('from the sources, a hash of them; the build writes its own beside the bundle', () => {
    expect(codeId()).toMatch(/^[0-9a-f]{64}$/);
    expect(codeId()).toBe(codeId());
    // The test setup builds dist/: its id names what was built, not the sources.
    const built = readFileSync(packagePath('dist', 'build-id'), 'utf8').trim();
    expect(built).toMatch(/^[0-9a-f]{64}$/);
    expect(built).not.toBe(codeId());
  });
});
