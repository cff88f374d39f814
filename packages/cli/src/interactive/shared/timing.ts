import { UsageError } from './usage-error.js';

/**
 * Waiting and measuring, injectable: tests pass a sleep that returns at once and a clock they advance, so
 * no test waits for real time.
 */

/** Waits `ms`, or less when `signal` aborts; never rejects (an abort is how a live command stops). */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** A monotonic clock in milliseconds (for latencies). */
export type Clock = () => number;

/** The real {@link Sleep}: a timer, cleared on abort. */
export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/** The real {@link Clock}. */
export const realClock: Clock = () => performance.now();

/** The environment variable that sets the poll interval of live commands (the end-to-end tests set it low). */
export const POLL_INTERVAL_ENV = 'XSVC_POLL_INTERVAL_MS';

/** The default poll interval: monitors check every second (spec 6.2), so polling faster finds nothing new. */
export const DEFAULT_POLL_INTERVAL_MS = 1_000;

/** The poll interval from the environment, or the default; a malformed value is a usage error. */
export function pollIntervalFromEnv(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env[POLL_INTERVAL_ENV];
  if (raw === undefined || raw.trim() === '') return DEFAULT_POLL_INTERVAL_MS;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 0 || ms > 3_600_000) {
    throw new UsageError(
      `${POLL_INTERVAL_ENV} must be a whole number of milliseconds (0-3600000), got ${JSON.stringify(raw)}`,
      POLL_INTERVAL_ENV,
    );
  }
  return ms;
}
