import { existsSync, readFileSync } from 'node:fs';
import type { ErrorObject } from 'ajv';
import { compileSchema } from '../util/ajv.js';
import { ConfigError } from '../diagnostics/errors.js';
import { packagePath } from '../kb/package-root.js';
import { DEFAULT_CONFIG, type KbConfig } from './defaults.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep merge of plain objects; arrays and scalars from `over` replace those in `base`. */
function merge<T>(base: T, over: unknown): T {
  if (!isObject(base) || !isObject(over)) return (over === undefined ? base : over) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = k in out ? merge(out[k], v) : v;
  return out as T;
}

/** A setting by its dotted name, as a person finds it in the file: `/model/name` is `model.name`. */
function keyName(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

/** One schema violation, naming the key: an unknown one with the keys that may stand there. */
function configProblem(e: ErrorObject, schema: unknown): string {
  const at = keyName(e.instancePath);
  if (e.keyword === 'additionalProperties') {
    const extra = String((e.params as { additionalProperty?: unknown }).additionalProperty);
    const key = at ? `${at}.${extra}` : extra;
    const known = knownKeys(schema, e.schemaPath).filter((k) => k !== '$schema');
    return `Unexpected key \`${key}\`${known.length ? `, expected one of ${known.join(', ')}${at ? ` in ${at}` : ''}` : ''} (or remove it)`;
  }
  return `\`${at || '(root)'}\` ${e.message ?? 'is invalid'}`;
}

/** The properties the schema names beside an `additionalProperties: false` at `schemaPath` (`#/properties/model/additionalProperties`). */
function knownKeys(schema: unknown, schemaPath: string): string[] {
  let node = schema;
  for (const part of schemaPath.replace(/^#\/?/, '').split('/').slice(0, -1)) {
    if (!isObject(node)) return [];
    node = node[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return isObject(node) && isObject(node['properties']) ? Object.keys(node['properties']) : [];
}

/** kb.config.json merged over the defaults, validated against schemas/kb-config.schema.json. */
export function loadConfig(configPath: string): KbConfig {
  if (!existsSync(configPath)) return structuredClone(DEFAULT_CONFIG);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(configPath, 'utf8'));
  } catch (err) {
    throw new ConfigError(`${configPath}: Unexpected invalid JSON, expected a JSON object (${(err as Error).message})`);
  }
  const schemaText = readFileSync(packagePath('schemas', 'kb-config.schema.json'), 'utf8');
  const validate = compileSchema(schemaText);
  if (!validate(raw)) {
    const schema = JSON.parse(schemaText) as unknown;
    const errs = (validate.errors ?? []).map((e) => configProblem(e, schema)).join('; ');
    throw new ConfigError(`${configPath}: ${errs}`);
  }
  return merge(structuredClone(DEFAULT_CONFIG), raw);
}
