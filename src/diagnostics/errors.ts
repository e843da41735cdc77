/**
 * Typed errors. The core throws these; only the CLI entry point turns them into exit codes
 * (changesets' ExitError): 1 failure, 2 usage, 130 interrupted (143 for SIGTERM).
 */
export class KbError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KbError';
    this.exitCode = exitCode;
  }
}

/** Wrong arguments or a command used where it cannot work. Exit 2. */
export class UsageError extends KbError {
  constructor(message: string) {
    super(message, 2);
    this.name = 'UsageError';
  }
}

/** Another writer holds the lock. */
export class LockError extends KbError {
  readonly holderPid: number;
  constructor(message: string, holderPid: number) {
    super(message, 1);
    this.name = 'LockError';
    this.holderPid = holderPid;
  }
}

/** The run was interrupted by a signal. Exit 130 (the CLI reports 143 when it was SIGTERM). */
export class InterruptedError extends KbError {
  constructor(message = 'Interrupted') {
    super(message, 130);
    this.name = 'InterruptedError';
  }
}

/** The configuration file is invalid. */
export class ConfigError extends KbError {
  constructor(message: string) {
    super(message, 2);
    this.name = 'ConfigError';
  }
}

/** An answer kb will not file (empty or malformed, or it would replace a better or hand-edited one). */
export class NotSavedError extends KbError {
  constructor(message: string) {
    super(message, 1);
    this.name = 'NotSavedError';
  }
}
