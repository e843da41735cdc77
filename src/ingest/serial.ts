let tail: Promise<unknown> = Promise.resolve();

/**
 * Runs slow conversions (OCR, PDF, Office) one at a time per thread: a worker is handed many files
 * at once, and each of these holds a whole decoded image or document in memory while it runs.
 */
export function serially<T>(fn: () => Promise<T>): Promise<T> {
  const run = tail.then(fn, fn);
  tail = run.catch(() => undefined);
  return run;
}
