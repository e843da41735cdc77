import type { ValidateFunction } from 'ajv';
import { compileSchema } from '../util/ajv.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packagePath } from '../kb/package-root.js';

/**
 * The entry validator for a knowledge base: its own `schemas/wiki-entry.schema.json` when it has
 * one (a person may tighten it), else the one shipped with kb.
 */
export function entryValidator(root: string): ValidateFunction {
  const own = join(root, 'schemas', 'wiki-entry.schema.json');
  const path = existsSync(own) ? own : packagePath('schemas', 'wiki-entry.schema.json');
  return compileSchema(path === own ? upgradeSchema(readFileSync(path, 'utf8')) : readFileSync(path, 'utf8'));
}

/**
 * A knowledge base's copy of the schema from before dates were ISO (`updated` and
 * `last_heal_timestamp` as integers) takes today's definitions of those two fields, so that its
 * entries can be written; everything else a person tightened stays.
 */
function upgradeSchema(text: string): string {
  let own: { properties?: Record<string, { type?: unknown }> };
  try {
    own = JSON.parse(text) as typeof own;
  } catch {
    return text;
  }
  const props = own.properties;
  if (!props || (props['updated']?.type !== 'integer' && props['last_heal_timestamp']?.type !== 'integer')) return text;
  const shipped = JSON.parse(readFileSync(packagePath('schemas', 'wiki-entry.schema.json'), 'utf8')) as typeof own;
  for (const k of ['updated', 'last_heal_timestamp'])
    if (props[k]?.type === 'integer' && shipped.properties?.[k]) props[k] = shipped.properties[k];
  return JSON.stringify(own);
}

/** Human-readable schema errors, e.g. `/summary must NOT have fewer than 1 characters`. */
export function schemaErrors(validate: ValidateFunction, data: unknown): string[] {
  if (validate(data)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
}
