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
  return compileSchema(readFileSync(path, 'utf8'));
}

/** Human-readable schema errors, e.g. `/summary must NOT have fewer than 1 characters`. */
export function schemaErrors(validate: ValidateFunction, data: unknown): string[] {
  if (validate(data)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
}
