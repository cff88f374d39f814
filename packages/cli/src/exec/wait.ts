import type { WriteAction, WriteActionData } from '@xsvc/sdk';
import type { Clock } from '../io.js';

/** Options of {@link waitForAction}. */
export interface WaitForActionOptions {
  readonly clock: Clock;
  /** Give up waiting (not the write) after this long. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  /** Called with every polled state. */
  readonly onProgress?: (data: WriteActionData) => void;
}

/** The least time between two polls, whatever the service suggests. */
const MIN_POLL_MS = 250;
const DEFAULT_POLL_MS = 1_000;

/**
 * Polls a write action until it is terminal or the wait runs out, on the injected clock (tests never sleep
 * for real). Never re-sends the write. Resolves true when terminal, false when still pending.
 */
export async function waitForAction(action: WriteAction, options: WaitForActionOptions): Promise<boolean> {
  const deadline = options.clock.now() + options.timeoutMs;
  while (!action.terminal) {
    const delay = Math.max(MIN_POLL_MS, action.data.pollAfterMs ?? DEFAULT_POLL_MS);
    if (options.clock.now() + delay > deadline) return false;
    await options.clock.sleep(delay, options.signal);
    await action.refresh(options.signal ? { signal: options.signal } : {});
    options.onProgress?.(action.data);
  }
  return true;
}
