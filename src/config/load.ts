import { existsSync, readFileSync } from 'node:fs';
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

/** kb.config.json merged over the defaults, validated against schemas/kb-config.schema.json. */
export function loadConfig(configPath: string): KbConfig {
  if (!existsSync(configPath)) return structuredClone(DEFAULT_CONFIG);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(configPath, 'utf8'));
  } catch (err) {
    throw new ConfigError(`${configPath}: Unexpected invalid JSON, expected a JSON object (${(err as Error).message})`);
  }
  const validate = compileSchema(readFileSync(packagePath('schemas', 'kb-config.schema.json'), 'utf8'));
  if (!validate(raw)) {
    const errs = (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`).join('; ');
    throw new ConfigError(`${configPath}: invalid configuration: ${errs}`);
  }
  return merge(structuredClone(DEFAULT_CONFIG), raw);
}
