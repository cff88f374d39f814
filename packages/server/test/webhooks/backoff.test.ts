import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, retryDelayMs } from '../../src/features/webhooks/backoff.js';

describe('retry schedule (spec 6.5)', () => {
  it('waits 1, 2, 4, 8, 16, 32, 60, 60, 60 s after attempts 1 to 9 and gives up after the tenth', () => {
    const delays = Array.from({ length: 10 }, (_, i) => retryDelayMs(i + 1, () => 0));
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000, undefined]);
    expect(MAX_ATTEMPTS).toBe(10);
  });

  it('adds up to 10% of jitter, never less than the schedule', () => {
    for (const r of [0, 0.25, 0.5, 0.999999, 1, 7, -3]) {
      for (let attempts = 1; attempts < 10; attempts++) {
        const base = retryDelayMs(attempts, () => 0)!;
        const d = retryDelayMs(attempts, () => r)!;
        expect(d).toBeGreaterThanOrEqual(base);
        expect(d).toBeLessThanOrEqual(base * 1.1);
      }
    }
    expect(retryDelayMs(1, () => 0.5)).toBe(1050);
    expect(retryDelayMs(7, () => 0.5, 0.2)).toBe(66000);
  });
});
