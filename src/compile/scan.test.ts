import { describe, expect, it } from 'vitest';
import { checkAbort, heedSignals } from './scan.js';

describe('heedSignals', () => {
  it('hears a signal that came while the thread was busy, and stops there', async () => {
    const abort = new AbortController();
    const onSignal = () => abort.abort();
    process.on('SIGUSR2', onSignal);
    try {
      process.kill(process.pid, 'SIGUSR2');
      // A long synchronous stage: the handler cannot run, so a check alone sees nothing.
      const until = Date.now() + 300;
      while (Date.now() < until);
      expect(() => checkAbort(abort.signal)).not.toThrow();
      await expect(heedSignals(abort.signal)).rejects.toThrow(/Compile interrupted/);
    } finally {
      process.off('SIGUSR2', onSignal);
    }
  });

  it('goes on when no signal came', async () => {
    await expect(heedSignals(new AbortController().signal)).resolves.toBeUndefined();
    await expect(heedSignals(undefined)).resolves.toBeUndefined();
  });
});
