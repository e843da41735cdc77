import cliProgress from 'cli-progress';
import type { Io } from './io.js';

export interface Progress {
  update(phase: string, done: number, total: number): void;
  /** A short status after the bar (or on its own line when there is no bar), e.g. "waiting for the model (45 s)…"; undefined clears it. */
  note(text: string | undefined): void;
  stop(): void;
}

/** A progress bar on a terminal only; nothing at all when output is piped. */
export function progressBar(io: Io): Progress {
  if (!io.isTTY || process.env['CI']) return { update() {}, note() {}, stop() {} };
  let bar: cliProgress.SingleBar | undefined;
  let current = '';
  let note = '';
  // A status line drawn without a bar (a compile of one document has none).
  let line = false;
  const clearLine = () => {
    if (line) process.stderr.write('\r\u001b[2K');
    line = false;
  };
  return {
    update(phase, done, total) {
      if (total < 2) return;
      clearLine();
      if (phase !== current || !bar) {
        bar?.stop();
        current = phase;
        bar = new cliProgress.SingleBar(
          {
            format: `${phase.padEnd(7)} [{bar}] {value}/{total} {note}`,
            stream: process.stderr,
            clearOnComplete: true,
            hideCursor: true,
            noTTYOutput: false,
          },
          cliProgress.Presets.shades_classic,
        );
        bar.start(total, done, { note });
      }
      bar.update(done, { note });
    },
    note(text) {
      note = text ?? '';
      if (bar) {
        bar.update({ note });
        return;
      }
      clearLine();
      if (text) {
        process.stderr.write(text);
        line = true;
      }
    },
    stop() {
      clearLine();
      bar?.stop();
      bar = undefined;
    },
  };
}
