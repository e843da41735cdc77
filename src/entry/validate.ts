import { Ajv, type ValidateFunction } from 'ajv';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packagePath } from '../kb/package-root.js';

const cache = new Map<string, ValidateFunction>();

/**
 * The entry validator for a knowledge base: its own `schemas/wiki-entry.schema.json` when it has
 * one (a person may tighten it), else the one shipped with kb.
 */
export function entryValidator(root: string): ValidateFunction {
  const own = join(root, 'schemas', 'wiki-entry.schema.json');
  const path = existsSync(own) ? own : packagePath('schemas', 'wiki-entry.schema.json');
  const text = readFileSync(path, 'utf8');
  const hit = cache.get(text);
  if (hit) return hit;
  const ajv = new Ajv({ allErrors: true, strict: false });
  const fn = ajv.compile(JSON.parse(text) as object);
  cache.set(text, fn);
  return fn;
}

/** Human-readable schema errors, e.g. `/summary must NOT have fewer than 1 characters`. */
export function schemaErrors(validate: ValidateFunction, data: unknown): string[] {
  if (validate(data)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
}
