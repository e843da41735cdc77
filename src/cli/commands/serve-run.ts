import { spawn } from 'node:child_process';
import { closeKb, openKb } from '../../kb/context.js';
import { findKbRoot } from '../../kb/paths.js';
import { startServer } from '../../serve/server.js';
import { paint } from '../io.js';
import type { CliRuntime } from '../runtime.js';
import type { ServeFlags } from '../flags.js';
import { positiveInt } from './ask-shared.js';

/** The platform's way to open a URL in the default browser. */
function openInBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
  child.on('error', () => {});
  child.unref();
}

/** `kb serve`: print the URL, serve until Ctrl-C. */
export async function runServe(flags: ServeFlags, rt: CliRuntime): Promise<number> {
  const port = flags.port === undefined ? 0 : positiveInt('--port', flags.port, 0);
  const ctx = openKb(findKbRoot(flags.kb), { readOnly: true });
  ctx.store.mapForSearch();
  try {
    const running = await startServer(ctx, {
      host: flags.host ?? '127.0.0.1',
      port,
      token: flags.token,
      offline: Boolean(flags.offline),
    });
    rt.io.out(running.url);
    rt.io.err(paint(rt.io, 'dim', `Serving ${ctx.paths.wiki} (Ctrl-C to stop).`));
    if (flags.open) openInBrowser(running.url);
    await new Promise<void>((resolve) => {
      if (rt.signal.aborted) resolve();
      else rt.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await running.close();
  } finally {
    closeKb(ctx);
  }
  return 0;
}
