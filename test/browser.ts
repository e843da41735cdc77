import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { KB_BIN } from './helpers.js';

/** Debian's chromium: `.ci/run` installs it with apt-get; browser downloads are not reachable. */
export const CHROMIUM = process.env['KB_CHROMIUM'] ?? '/usr/bin/chromium';

/** A headless chromium of its own (playwright gives each launch a fresh temporary profile; nothing fetched in the background). Never skipped: no browser is a failure. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`No browser at ${CHROMIUM}: install it (apt-get install -y chromium) or set KB_CHROMIUM`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** `kb serve` run by the real CLI; resolves with the URL it prints on its first line. */
export async function startKbServe(
  root: string,
  args: string[] = [],
): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env['ANTHROPIC_API_KEY'];
  const child = spawn(process.execPath, [KB_BIN, 'serve', '--kb', root, ...args], { env });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = /^(http:\/\/\S+)\n/.exec(out);
      if (line) resolve(line[1]!);
    });
    child.on('close', (code) => reject(new Error(`kb serve exited ${code}: ${err}`)));
  });
  const closed = new Promise<void>((r) => child.on('close', () => r()));
  return {
    url,
    child,
    stop: async () => {
      child.kill('SIGINT');
      await closed;
    },
  };
}
