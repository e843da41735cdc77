import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../kb/package-root.js';
import * as kbConfig from '../schema-code/kb-config.js';
import { compileSchema } from './ajv.js';

const root = packagePath();

describe('compileSchema', () => {
  it('the precompiled validators are generated from the schemas as they are now', async () => {
    // @ts-expect-error: a plain JavaScript build script
    const gen = (await import('../../scripts/gen-validators.js')) as {
      NAMES: string[];
      generated(name: string): string;
    };
    for (const name of gen.NAMES) {
      const onDisk = readFileSync(join(root, 'src', 'schema-code', `${name}.ts`), 'utf8');
      expect(onDisk, `run npm run gen:validators (${name})`).toBe(gen.generated(name));
    }
  });

  it('uses the precompiled validator for a shipped schema, and it judges as Ajv does', () => {
    const text = readFileSync(packagePath('schemas', 'kb-config.schema.json'), 'utf8');
    const fn = compileSchema(text);
    expect(fn).toBe(kbConfig.validate);
    const { Ajv } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
    const schema = JSON.parse(text) as Record<string, unknown>;
    delete schema['$schema'];
    const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false, meta: false, addUsedSchema: false });
    const byAjv = ajv.compile(schema);
    const configs: unknown[] = [
      {},
      { model: { name: 'claude' } },
      { model: 7 },
      { embedding: { dims: -1 } },
      { wiki: { backlinksSection: 'yes' } },
      { nonsense: true },
      [],
    ];
    for (const c of configs) {
      expect(fn(c), JSON.stringify(c)).toBe(byAjv(c));
      expect(fn.errors ?? null).toEqual(byAjv.errors ?? null);
    }
  });

  it('compiles a schema a person changed at run time', () => {
    const text = readFileSync(packagePath('schemas', 'wiki-entry.schema.json'), 'utf8');
    const own = JSON.parse(text) as { required: string[] };
    own.required = [...own.required, 'owner'];
    const fn = compileSchema(JSON.stringify(own));
    expect(fn).not.toBe(compileSchema(text));
    expect(fn({})).toBe(false);
    expect(
      fn.errors?.some((e) => e.params && (e.params as { missingProperty?: string }).missingProperty === 'owner'),
    ).toBe(true);
  });
});
