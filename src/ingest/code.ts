import type { Converted } from './types.js';

const HASH_COMMENTS = new Set([
  'python',
  'ruby',
  'sh',
  'bash',
  'zsh',
  'fish',
  'perl',
  'r',
  'yaml',
  'toml',
  'elixir',
  'julia',
  'powershell',
  'makefile',
  'dockerfile',
  'just',
  'hcl',
]);
const DASH_COMMENTS = new Set(['sql', 'lua', 'haskell']);
const MAX_INTRO = 1500;

/**
 * A code file as one fenced block under a heading with the file name. A leading comment or
 * docstring (not a licence header) also goes before the fence as prose, for summaries and search.
 */
export function convertCode(text: string, name: string, language: string): Converted {
  const code = text.replace(/(?<!\n)\n+$/, '');
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(code) + 1));
  const intro = leadingComment(code, language);
  const markdown = `# ${name}\n\n${intro ? `${intro}\n\n` : ''}${fence}${language}\n${code}\n${fence}\n`;
  return { title: name, markdown, meta: {} };
}

function longestBacktickRun(s: string): number {
  let longest = 0;
  for (const m of s.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return longest;
}

/** The comment block or docstring a file starts with, without comment marks. */
export function leadingComment(code: string, language: string): string | undefined {
  const lines = code.split('\n', 200);
  let i = 0;
  // Shebang, encoding and blank lines before the comment.
  while (
    i < lines.length &&
    (/^#!|^#.*coding[:=]|^\s*$/.test(lines[i] as string) ||
      (i === 0 && /^\s*['"]use strict['"];?\s*$/.test(lines[0] as string)))
  )
    i++;
  const first = lines[i] ?? '';
  let taken: string[] = [];

  const docstring = language === 'python' ? /^[rRuU]?("""|''')(.*)$/.exec(first) : null;
  if (docstring) {
    const quote = docstring[1] as string;
    const rest = docstring[2] as string;
    const close = rest.indexOf(quote);
    if (close !== -1) taken = [rest.slice(0, close)];
    else {
      taken = [rest];
      for (let j = i + 1; j < lines.length; j++) {
        const line = lines[j] as string;
        const end = line.indexOf(quote);
        if (end !== -1) {
          taken.push(line.slice(0, end));
          break;
        }
        taken.push(line);
      }
    }
  } else if (/^\s*\/\*/.test(first)) {
    for (let j = i; j < lines.length; j++) {
      const line = lines[j] as string;
      const end = line.indexOf('*/');
      taken.push((end === -1 ? line : line.slice(0, end)).replace(/^\s*\/\*+!?/, '').replace(/^\s*\*(?!\/)\s?/, ''));
      if (end !== -1) break;
    }
  } else {
    const mark = /^\s*(\/\/[/!]?|#|--|;;+)/.exec(first)?.[1];
    const allowed =
      mark === undefined
        ? false
        : mark.startsWith('//')
          ? !HASH_COMMENTS.has(language) && !DASH_COMMENTS.has(language)
          : mark === '#'
            ? HASH_COMMENTS.has(language)
            : mark === '--'
              ? DASH_COMMENTS.has(language)
              : language === 'clojure';
    if (mark && allowed) {
      for (let j = i; j < lines.length; j++) {
        const line = (lines[j] as string).trimStart();
        if (!line.startsWith(mark)) break;
        taken.push(line.slice(mark.length).replace(/^ /, ''));
      }
    }
  }

  const intro = taken
    .map((l) => l.trimEnd())
    .join('\n')
    .trim();
  if (!intro || intro.length > MAX_INTRO || /copyright|licen[cs]e|spdx-/i.test(intro)) return undefined;
  // Comment lines that look like Markdown block syntax must not become headings or fences.
  return intro.replace(/^(\s*)(#{1,6}\s|`{3,}|~{3,})/gm, '$1\\$2');
}
