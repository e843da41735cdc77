import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exampleEntry } from '../src/lint/entry-info.js';
import { fixture, listTree, runKb, writeFile } from './helpers.js';

/** Git with a fixed identity and no global/system config, so CI without git config works. */
export const GIT_ENV: Record<string, string> = {
  GIT_AUTHOR_NAME: 'Test Person',
  GIT_AUTHOR_EMAIL: 'person@example.com',
  GIT_COMMITTER_NAME: 'Test Person',
  GIT_COMMITTER_EMAIL: 'person@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

export function git(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } });
}

export function gitInit(root: string): void {
  writeFile(root, '.gitignore', 'wiki/embeddings.db\nwiki/embeddings.db-*\n.kb/\n');
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'Knowledge base');
}

export function today(): string {
  const d = new Date();
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}`;
}

/** Every file of the person's checkout with its bytes, except what heal may write (changelog/) and derived state. */
export function snapshot(root: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of listTree(root)) {
    if (
      f.startsWith('.git/') ||
      f.startsWith('.kb/') ||
      f.startsWith('changelog/') ||
      f.startsWith('wiki/embeddings.db')
    )
      continue;
    out.set(f, readFileSync(join(root, f)).toString('base64'));
  }
  return out;
}

export function branches(root: string): string[] {
  return git(root, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/').split('\n').filter(Boolean).sort();
}

/** Knowledge bases compiled by the real CLI in this file's process, by their raw files. */
const compiled = new Map<string, Promise<string>>();

/**
 * A small compiled knowledge base in a git repository, with one commit. The same raw files are
 * compiled once (a real `kb compile`); each call gets its own copy, file times and all.
 */
export async function compiledKb(raw: Record<string, string>): Promise<string> {
  const key = JSON.stringify(raw);
  let first = compiled.get(key);
  if (!first) {
    first = (async () => {
      const root = fixture(raw);
      const r = await runKb(['compile'], { cwd: root });
      if (r.code !== 0) throw new Error(`compile failed: ${r.stderr}`);
      return root;
    })();
    compiled.set(key, first);
  }
  const root = mkdtempSync(join(tmpdir(), 'kb-test-'));
  cpSync(await first, root, { recursive: true, preserveTimestamps: true });
  gitInit(root);
  return root;
}

export const SAMPLE_RAW: Record<string, string> = {
  'raw/tea.md':
    '# Green Tea\n\nGreen tea is made from the leaves of Camellia sinensis. Green tea is steamed or pan-fired soon after picking. Matcha is a powdered green tea.\n',
  'raw/coffee.md':
    '# Coffee\n\nCoffee is brewed from roasted beans. Coffee is drunk all over the world. Espresso is a concentrated coffee.\n',
};

export { exampleEntry, runKb, writeFile };
