import { describe, expect, it } from 'vitest';
import { lockRetryMs } from './watch-run.js';

describe('lockRetryMs: when watch tries again after a round lost to the lock', () => {
  it('within five seconds, sooner for a short --lock-wait, never more than once a second', () => {
    expect(lockRetryMs(10_000)).toBe(5000);
    expect(lockRetryMs(5000)).toBe(5000);
    expect(lockRetryMs(2000)).toBe(2000);
    expect(lockRetryMs(300)).toBe(1000);
    expect(lockRetryMs(0)).toBe(1000);
  });
});
