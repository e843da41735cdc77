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

export function processIo(): Io {
  const isTTY = Boolean(process.stderr.isTTY);
  return {
    out: (l) => process.stdout.write(`${l}\n`),
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
