import type { KbMessage } from '../diagnostics/message.js';
import { formatMessage } from '../diagnostics/message.js';

/** Where a command prints. The core never prints; commands do, through this. */
export interface Io {
  out(line: string): void;
  err(line: string): void;
  /** stderr is a terminal: progress bars may be drawn. */
  isTTY: boolean;
  color: boolean;
}

let stdoutGone = false;
let watching = false;
const goneListeners = new Set<() => void>();

/**
 * The reader of stdout went away (`kb search … | head -1`): what is left to print is dropped, and
 * `fn` hears of it once, to stop the command quietly. Writing to a closed pipe fails after the
 * write returns, so the listener on stdout stays for the life of the process.
 */
export function onStdoutGone(fn: () => void): () => void {
  if (!watching) {
    watching = true;
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
      if (stdoutGone) return;
      stdoutGone = true;
      for (const l of goneListeners) l();
    });
  }
  goneListeners.add(fn);
  if (stdoutGone) fn();
  return () => goneListeners.delete(fn);
}

export function isStdoutGone(): boolean {
  return stdoutGone;
}

/** Print to stdout unless its reader went away. */
export function writeOut(text: string): void {
  if (!stdoutGone) process.stdout.write(text);
}

export function processIo(): Io {
  const isTTY = Boolean(process.stderr.isTTY);
  return {
    out: (l) => writeOut(`${l}\n`),
    err: (l) => process.stderr.write(`${l}\n`),
    isTTY,
    color: isTTY && !process.env['NO_COLOR'] && process.env['TERM'] !== 'dumb',
  };
}

const codes = { red: 31, yellow: 33, green: 32, dim: 2, bold: 1, cyan: 36 } as const;

export function paint(io: Io, color: keyof typeof codes, text: string): string {
  return io.color ? `\u001b[${codes[color]}m${text}\u001b[0m` : text;
}

export function printMessages(io: Io, messages: KbMessage[]): void {
  for (const m of messages) {
    const line = formatMessage(m);
    io.err(
      m.severity === 'error'
        ? paint(io, 'red', line)
        : m.severity === 'warning'
          ? paint(io, 'yellow', line)
          : paint(io, 'dim', line),
    );
  }
}
