import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Ajv as AjvType, ValidateFunction } from 'ajv';
import * as kbConfig from '../schema-code/kb-config.js';
import * as wikiEntry from '../schema-code/wiki-entry.js';

/** Options of every validator, precompiled or not (scripts/gen-validators.js uses the same). */
const OPTIONS = { allErrors: true, strict: false, validateSchema: false, meta: false, addUsedSchema: false };

/** The shipped schemas, compiled at build time: most commands never load Ajv. */
const PRECOMPILED = new Map<string, ValidateFunction>([
  [kbConfig.schemaKey as string, kbConfig.validate as ValidateFunction],
  [wikiEntry.schemaKey as string, wikiEntry.validate as ValidateFunction],
]);

let shared: AjvType | undefined;
const compiled = new Map<string, ValidateFunction>();

/**
 * A validator for a schema text, made once per text: the precompiled one when the schema is one kb
 * ships, else compiled by one Ajv for the process. The draft-07 meta-schema is not compiled
 * (`validateSchema: false`): it costs hundreds of milliseconds at every start and the schemas are
 * ours or a person's tightening of ours.
 */
export function compileSchema(text: string): ValidateFunction {
  const hit = compiled.get(text);
  if (hit) return hit;
  const schema = JSON.parse(text) as Record<string, unknown>;
  delete schema['$schema'];
  const canonical = JSON.stringify(schema);
  let fn = PRECOMPILED.get(createHash('sha256').update(canonical).digest('hex'));
  if (!fn) {
    // Ajv is CommonJS: loaded on demand, synchronously, only for a schema a person changed.
    const { Ajv } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
    shared ??= new Ajv(OPTIONS);
    fn = shared.compile(schema);
  }
  compiled.set(text, fn);
  return fn;
}
