import { shownPath } from './init-run.js';
import { closeKb, openKb } from '../../kb/context.js';
import { rootToCompile } from '../compile-root.js';
import { UsageError } from '../../diagnostics/errors.js';
import { watchKb, type WatchEvent } from '../../watch/watch.js';
import { paint, printMessages } from '../io.js';
import type { CliRuntime } from '../runtime.js';
import { loadModelWriter } from '../../compile/model/load.js';
import { summaryLine } from '../../compile/report.js';
import { formatUsd } from '../../model/price.js';
import type { ModelClient } from '../../model/client.js';
import type { WatchFlags } from '../flags.js';

const clock = () => new Date().toTimeString().slice(0, 8);

export async function runWatch(flags: WatchFlags, rt: CliRuntime): Promise<number> {
  const debounceMs = Number(flags.debounce ?? 300);
  if (!Number.isFinite(debounceMs) || debounceMs < 0)
    throw new UsageError(`Unexpected --debounce ${flags.debounce}, expected a number of milliseconds`);
  const lockWaitMs = Number(flags.lockWait ?? 10_000);
  if (!Number.isFinite(lockWaitMs) || lockWaitMs < 0)
    throw new UsageError(`Unexpected --lock-wait ${flags.lockWait}, expected a number of milliseconds`);
  const root = rootToCompile(flags.kb, rt, { write: true });
  const ctx = openKb(root);
  const { io } = rt;
  // The model compiler when a model is configured and usable (as `kb compile`); one for the whole watch.
  const writer = await loadModelWriter(ctx, { offline: Boolean(flags.offline) });
  const say = sayer(io);
  const onEvent = watchPrinter(flags, io, say, writer?.client);
  try {
    await watchKb(ctx, {
      signal: rt.signal,
      onEvent,
      debounceMs,
      lockWaitMs,
      retryMs: lockRetryMs(lockWaitMs),
      initialCompile: flags.initial !== false,
      usePolling: Boolean(flags.poll),
      compile: { writer, ...(flags.verbose ? { onFile: (l: string) => say(l, 'dim') } : {}) },
    });
  } finally {
    closeKb(ctx);
  }
  return 0;
}

/**
 * After a round lost to the lock, watch tries again within five seconds, and sooner when told to wait
 * less for the lock (`--lock-wait 300`: a second later), never in a loop faster than once a second.
 */
export function lockRetryMs(lockWaitMs: number): number {
  return Math.min(5000, Math.max(1000, lockWaitMs));
}

type Say = (line: string, color?: 'green' | 'yellow' | 'red' | 'dim') => void;

/** One line of `kb watch` output, after the time. */
function sayer(io: CliRuntime['io']): Say {
  return (line, color) => io.out(`${paint(io, 'dim', clock())} ${color ? paint(io, color, line) : line}`);
}

/** What `kb watch` prints for each event: one line with the time, or JSON lines with --json. */
function watchPrinter(
  flags: WatchFlags,
  io: CliRuntime['io'],
  say: Say,
  client: ModelClient | undefined,
): (e: WatchEvent) => void {
  let initial = flags.initial !== false;
  return (e: WatchEvent) => {
    if (flags.json) {
      const { type, ...rest } = e;
      io.out(JSON.stringify({ type, at: new Date().toISOString(), ...rest }));
      return;
    }
    switch (e.type) {
      case 'ready':
        say(`watching raw/ and wiki/ in ${shownPath(e.root)} (Ctrl-C to stop)`);
        break;
      case 'change':
        if (flags.verbose) say(`${e.change.padEnd(9)} raw/${e.path}`, 'dim');
        break;
      case 'compile-start':
        if (initial) say('catching up with raw/…', 'dim');
        else say(`${e.changes.length} change${e.changes.length === 1 ? '' : 's'} in raw/: compiling…`);
        initial = false;
        break;
      case 'compiled':
        printMessages(io, e.report.messages);
        if (
          e.report.new +
            e.report.updated +
            e.report.deleted +
            e.report.renamed +
            e.report.written +
            e.report.skipped ===
          0
        )
          say('up to date', 'dim');
        else say(`compiled: ${summaryLine(e.report)}`, 'green');
        if (client) {
          const spent = client.spent();
          say(
            `model ${client.model}: ${spent.calls} call${spent.calls === 1 ? '' : 's'} since watch started, ${formatUsd(spent.usd)}`,
            'dim',
          );
        }
        break;
      case 'compile-failed':
        say(`compile failed: ${e.reason}`, 'red');
        say(
          e.retryMs !== undefined
            ? `still watching; trying again in ${Math.round(e.retryMs / 1000)} s`
            : 'still watching; fix the cause and save again',
          'dim',
        );
        break;
      case 'wiki-edit': {
        const r = e.result;
        if (r.status === 'indexed')
          say(`re-indexed wiki/${e.path}${r.humanEdited ? ' (your edit; compile will leave it alone)' : ''}`);
        else if (r.status === 'removed') say(`removed wiki/${e.path} from the index`);
        else if (r.status === 'kept') say(`wiki/${e.path} was deleted: ${r.reason}`, 'yellow');
        else if (r.status === 'ignored' && flags.verbose) say(`ignored wiki/${e.path}: ${r.reason}`, 'dim');
        break;
      }
      case 'wiki-edit-failed':
        say(`could not re-index wiki/${e.path}: ${e.reason}`, 'red');
        break;
      case 'config-changed':
        say('kb.config.json changed: stop and start `kb watch` again to use the new settings', 'yellow');
        break;
      case 'error':
        say(`watch error: ${e.reason}`, 'red');
        break;
      case 'stopped':
        io.out('Stopped watching.');
        break;
    }
  };
}
