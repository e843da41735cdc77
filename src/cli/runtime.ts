import type { Io } from './io.js';

/** Shared by every command: where to print, the interrupt signal, and the exit code to return. */
export interface CliRuntime {
  io: Io;
  signal: AbortSignal;
  setExit(code: number): void;
}
