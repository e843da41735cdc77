import { execFile } from 'node:child_process';
import { KbError } from '../diagnostics/errors.js';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Git run in one folder. Never prompts; output is returned, never printed. */
export class Git {
  constructor(
    readonly cwd: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  at(cwd: string): Git {
    return new Git(cwd, this.env);
  }

  try(args: string[], input?: string): Promise<GitResult> {
    return new Promise((resolve) => {
      const child = execFile(
        'git',
        args,
        { cwd: this.cwd, env: { ...this.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' }, maxBuffer: 64 * 1024 * 1024 },
        (err, stdout, stderr) => {
          const code = err
            ? typeof (err as { code?: unknown }).code === 'number'
              ? (err as { code: number }).code
              : 1
            : 0;
          resolve({ code, stdout: String(stdout), stderr: String(stderr) });
        },
      );
      if (input !== undefined) child.stdin?.end(input);
    });
  }

  async run(args: string[], input?: string): Promise<string> {
    const r = await this.try(args, input);
    if (r.code !== 0)
      throw new KbError(
        `git ${args.join(' ')} failed in ${this.cwd}: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ')}`,
      );
    return r.stdout;
  }

  /** `-c` settings for commits: the person's identity when git has one, else kb's; no signing prompts. */
  async commitConfig(): Promise<string[]> {
    const cfg = ['-c', 'commit.gpgsign=false'];
    const email = (await this.try(['config', 'user.email'])).stdout.trim();
    if (!email && !this.env['GIT_COMMITTER_EMAIL'] && !this.env['EMAIL']) cfg.push('-c', 'user.email=kb@localhost');
    const name = (await this.try(['config', 'user.name'])).stdout.trim();
    if (!name && !this.env['GIT_COMMITTER_NAME']) cfg.push('-c', 'user.name=kb heal');
    return cfg;
  }
}

/** The repository the knowledge base is in, or a clear error naming the way out. */
export async function openRepo(
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ git: Git; top: string; head: string }> {
  const git = new Git(root, env);
  const top = await git.try(['rev-parse', '--show-toplevel']);
  if (top.code !== 0) {
    throw new KbError(
      `${root} is not in a git repository, and heal works on git branches. Run \`git init && git add -A && git commit -m "Knowledge base"\` in it first, then \`kb lint --heal\` again.`,
    );
  }
  const head = await git.try(['rev-parse', '--verify', '-q', 'HEAD']);
  if (head.code !== 0) {
    throw new KbError(
      `The git repository at ${top.stdout.trim()} has no commit yet, and heal branches from one. Run \`git add -A && git commit -m "Knowledge base"\` first.`,
    );
  }
  return { git: git.at(top.stdout.trim()), top: top.stdout.trim(), head: head.stdout.trim() };
}
