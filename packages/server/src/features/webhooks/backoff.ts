import { limits } from '@xsvc/sdk/contract';

/** Attempts a delivery gets before it is exhausted (spec 6.5, 8.3). */
export const MAX_ATTEMPTS: number = limits.webhookAttempts;

/**
 * When to try again after the `attempts`-th failed attempt (1-based), in ms from now; undefined once the
 * delivery is exhausted. The delays are those of spec 6.5 (1, 2, 4, 8, 16, 32, then 60 s), plus a jitter of
 * up to `jitterRatio` of the delay, never less: retries of many deliveries spread out instead of arriving
 * at the receiver together, and no retry comes earlier than the spec says.
 */
export function retryDelayMs(attempts: number, random: () => number, jitterRatio = 0.1): number | undefined {
  if (attempts >= MAX_ATTEMPTS) return undefined;
  const schedule = limits.webhookBackoffSeconds;
  const seconds = schedule[Math.min(Math.max(attempts, 1), schedule.length) - 1]!;
  const base = seconds * 1000;
  return base + Math.floor(base * jitterRatio * Math.min(Math.max(random(), 0), 1));
}
