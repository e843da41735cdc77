import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KbError } from '../diagnostics/errors.js';
import { packagePath } from '../kb/package-root.js';
import { sha256 } from '../util/hash.js';

export interface Template {
  name: string;
  text: string;
  /** sha256 of the text: part of every cache key, so an edited template recompiles what it affects. */
  hash: string;
  /** Where it was read from. */
  path: string;
}

/** `<root>/templates/<name>.md` when the knowledge base has one, else the one shipped with kb. */
export function loadTemplate(root: string, name: string): Template {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name))
    throw new KbError(`Unexpected template name \`${name}\`, expected lowercase letters, digits and dashes`);
  const own = join(root, 'templates', `${name}.md`);
  const path = existsSync(own) ? own : packagePath('templates', `${name}.md`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new KbError(
      `Cannot read template ${path}; restore it from kb's templates/ folder (\`kb init\` writes them).`,
    );
  }
  return { name, text, hash: sha256(text), path };
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** Names of the `{{placeholders}}` a template uses. */
export function placeholders(tpl: Template | string): string[] {
  const text = typeof tpl === 'string' ? tpl : tpl.text;
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

/**
 * Fill `{{name}}` placeholders. A placeholder with no value is an error (a typo in an edited
 * template must not silently send a prompt with a hole in it). Values are inserted verbatim,
 * once: a value that itself contains `{{x}}` is not expanded again.
 */
export function renderTemplate(tpl: Template | string, vars: Record<string, string>): string {
  const text = typeof tpl === 'string' ? tpl : tpl.text;
  const where = typeof tpl === 'string' ? 'template' : tpl.path;
  const unknown = placeholders(text).filter((n) => !(n in vars));
  if (unknown.length) {
    throw new KbError(
      `${where}: Unexpected placeholder ${unknown.map((n) => `{{${n}}}`).join(', ')}, expected one of ${
        Object.keys(vars)
          .map((n) => `{{${n}}}`)
          .join(', ') || '(none)'
      }`,
    );
  }
  return text.replace(PLACEHOLDER, (_m, n: string) => vars[n] ?? '');
}

/**
 * A template in two parts: the instructions (system prompt, stable across documents — cached)
 * and, after a line `<!-- kb:input -->`, the per-call input. Without the marker it is all system.
 */
export function splitTemplate(text: string): { system: string; input: string } {
  const m = /^[ \t]*<!--\s*kb:input\s*-->[ \t]*$/m.exec(text);
  if (!m) return { system: text.trim(), input: '' };
  return { system: text.slice(0, m.index).trim(), input: text.slice(m.index + m[0].length).trim() };
}
