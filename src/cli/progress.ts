import cliProgress from 'cli-progress';
import type { Io } from './io.js';

export interface Progress {
  update(phase: string, done: number, total: number): void;
  stop(): void;
}

/** A progress bar on a terminal only; nothing at all when output is piped. */
export function progressBar(io: Io): Progress {
  if (!io.isTTY || process.env['CI']) return { update() {}, stop() {} };
  let bar: cliProgress.SingleBar | undefined;
  let current = '';
  return {
    update(phase, done, total) {
      if (total < 2) return;
      if (phase !== current || !bar) {
        bar?.stop();
        current = phase;
        bar = new cliProgress.SingleBar(
          { format: `${phase.padEnd(7)} [{bar}] {value}/{total}`, stream: process.stderr, clearOnComplete: true, hideCursor: true, noTTYOutput: false },
          cliProgress.Presets.shades_classic,
        );
        bar.start(total, done);
      }
      bar.update(done);
    },
    stop() {
      bar?.stop();
      bar = undefined;
    },
  };
}
