import { Ajv, type ValidateFunction } from 'ajv';

let shared: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

/**
 * One Ajv for the process, compiling each schema text once. The draft-07 meta-schema is not
 * compiled (`validateSchema: false`): it costs hundreds of milliseconds at every start and the
 * schemas are ours or a person's tightening of ours.
 */
export function compileSchema(text: string): ValidateFunction {
  const hit = compiled.get(text);
  if (hit) return hit;
  shared ??= new Ajv({ allErrors: true, strict: false, validateSchema: false, meta: false, addUsedSchema: false });
  const schema = JSON.parse(text) as Record<string, unknown>;
  delete schema['$schema'];
  const fn = shared.compile(schema);
  compiled.set(text, fn);
  return fn;
}
