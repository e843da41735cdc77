import { Command, CommanderError } from 'commander';
import { KbError } from '../diagnostics/errors.js';
import { type Io, isStdoutGone, onStdoutGone, printMessages, processIo, writeOut } from './io.js';
import type { CliRuntime } from './runtime.js';
import { isCorruption, onRecovery, openedDatabases, recoverOpened, recoveryMessage } from '../store/recover.js';
import { asDiskFull } from '../diagnostics/disk-full.js';
import { COMMANDS } from './commands/index.js';
import { applyModelOptions } from './model-options.js';

function program(rt: CliRuntime, own: boolean): Command {
  // Help and usage errors go where the command prints when the caller chose where (tests run kb in process).
  const out = own ? writeOut : (s: string) => rt.io.out(s.replace(/\n$/, ''));
  const err = own ? (s: string) => process.stderr.write(s) : (s: string) => rt.io.err(s.replace(/\n$/, ''));
  const program = new Command('kb')
    .description(
      'Compile a folder of documents (raw/) into an Obsidian wiki (wiki/), ask it questions, keep it healthy.',
    )
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: out, writeErr: err });
  for (const define of COMMANDS) define(program, rt);
  program.hook('preAction', (_program, command) => applyModelOptions(command.opts()));
  return program;
}

/** Exit code of a run stopped by a signal: 130 for Ctrl-C (SIGINT), 143 for SIGTERM (128 + its number, as shells report it). */
export function interruptedExit(signal: NodeJS.Signals | undefined): number {
  return signal === 'SIGTERM' ? 143 : 130;
}

/** The one exit point: parse, run, map typed errors to exit codes (0 ok, 1 failure, 2 usage, 130/143 interrupted). */
export async function main(argv: string[], given?: Io): Promise<number> {
  const io = given ?? processIo();
  const abort = new AbortController();
  let exit = 0;
  let interrupts = 0;
  let stoppedBy: NodeJS.Signals | undefined;
  const onSigint = (signal: NodeJS.Signals) => {
    interrupts++;
    stoppedBy ??= signal;
    if (interrupts > 1) process.exit(interruptedExit(stoppedBy));
    io.err(
      signal === 'SIGTERM'
        ? 'Terminated: stopping after the current step…'
        : 'Interrupted: finishing the current step (Ctrl-C again to quit at once)…',
    );
    abort.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  const rt: CliRuntime = { io, signal: abort.signal, setExit: (c) => (exit = Math.max(exit, c)) };
  const stopRecoveries = onRecovery((r) => printMessages(io, [recoveryMessage(r)]));
  // The end of a pipe closed (`| head -1`): the reader has what it wanted; stop as after Ctrl-C, but quietly.
  const stopOnGone = onStdoutGone(() => abort.abort());
  try {
    try {
      await program(rt, !given).parseAsync(argv, { from: 'user' });
    } catch (err) {
      // A database found damaged while in use: set aside what is damaged and run the command once more.
      if (!isCorruption(err) || abort.signal.aborted || recoverOpened().length === 0) throw err;
      exit = 0;
      await program(rt, !given).parseAsync(argv, { from: 'user' });
    }
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help')
        return 0;
      return err.exitCode === 0 ? 0 : 2;
    }
    if (isStdoutGone() && abort.signal.aborted && !stoppedBy) return 0;
    if (err instanceof KbError) {
      if (err.exitCode !== 130 || abort.signal.aborted) io.err(`kb: ${err.message}`);
      return err.exitCode === 130 && stoppedBy ? interruptedExit(stoppedBy) : err.exitCode;
    }
    if (abort.signal.aborted) return interruptedExit(stoppedBy);
    const full = asDiskFull(err, openedDatabases());
    if (full) {
      io.err(`kb: ${full.message}`);
      return full.exitCode;
    }
    io.err(`kb: unexpected error: ${(err as Error).stack ?? String(err)}`);
    return 1;
  } finally {
    stopOnGone();
    stopRecoveries();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
  if (abort.signal.aborted && !stoppedBy && isStdoutGone()) return exit;
  return abort.signal.aborted ? interruptedExit(stoppedBy) : exit;
}
