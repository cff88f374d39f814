import { ExpirySet } from './expiry-set.js';
import { positiveDuration, positiveInteger } from './validate.js';

/**
 * What {@link DedupeStore.reserve} found: `reserved` (process it now), `duplicate` (already processed:
 * answer 2xx, spec 6.4 rule 4) or `in_progress` (another delivery holds it right now: answer a non-2xx,
 * not 410, so the sender retries and then gets `duplicate` or, if that attempt failed, processes it).
 */
export type DedupeReservation = 'reserved' | 'duplicate' | 'in_progress';

/**
 * Remembers which deliveries were processed, keyed by `deliveryId` and `streamEventId`. A redelivery carries
 * a fresh signature and nonce, so the nonce store cannot catch it; this can. Three steps so a Redis version is
 * a few commands (a Lua script for `reserve`, `SET ... PX` for `complete`, a compare-and-delete for
 * `release`); every method may be async. `token` identifies one attempt, so only it can release its hold.
 */
export interface DedupeStore {
  /**
   * Atomically over all `keys`: `duplicate` if any was completed, else `in_progress` if any is held, else
   * holds all of them for `token` for a lease (so a crash mid-handler cannot block the event forever).
   */
  reserve(keys: readonly string[], token: string): DedupeReservation | Promise<DedupeReservation>;
  /** Marks `keys` as processed for the store's window (replacing the hold). */
  complete(keys: readonly string[], token: string): void | Promise<void>;
  /** Drops the hold on `keys` if `token` still owns it, so the sender's retry is processed. */
  release(keys: readonly string[], token: string): void | Promise<void>;
}

/**
 * The retry period a dedupe window must outlast: 10 attempts, waits of 1, 2, 4, 8, 16, 32, 60, 60 and 60 s
 * (spec 6.5) and up to 10 s per attempt, about 5.7 minutes. The default window (24 h) covers it with room for
 * batched retries, manual redeliveries and backfill reprocessing.
 */
export const RETRY_PERIOD_MS = (1 + 2 + 4 + 8 + 16 + 32 + 60 + 60 + 60) * 1000 + 10 * 10_000;

/** Default de-duplication window: 24 hours. */
export const DEFAULT_DEDUPE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Options of {@link createMemoryDedupeStore}. */
export interface MemoryDedupeStoreOptions {
  /** How long a processed id is remembered. Default 24 h; must exceed {@link RETRY_PERIOD_MS}. */
  readonly windowMs?: number | undefined;
  /** How long a hold lasts if its handler never finishes (a crash). Default 60 s. */
  readonly leaseMs?: number | undefined;
  /** Upper bound on remembered ids; when full the soonest-expiring is forgotten. Default 100000. */
  readonly maxEntries?: number | undefined;
  /** Clock in epoch ms, injectable for tests. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

type Mark = { readonly state: 'held'; readonly token: string } | { readonly state: 'done' };
const DONE: Mark = { state: 'done' };

/**
 * A bounded in-memory {@link DedupeStore} for one process. Every method is synchronous, so a reservation is
 * atomic with respect to concurrent deliveries in the same event loop.
 */
export function createMemoryDedupeStore(options: MemoryDedupeStoreOptions = {}): DedupeStore {
  const windowMs = positiveDuration(
    options.windowMs ?? DEFAULT_DEDUPE_WINDOW_MS,
    'createMemoryDedupeStore: windowMs',
  );
  if (windowMs < RETRY_PERIOD_MS) {
    throw new TypeError(
      `createMemoryDedupeStore: windowMs (${windowMs}) is shorter than the retry period (${RETRY_PERIOD_MS} ms); redeliveries would be processed twice.`,
    );
  }
  const leaseMs = positiveDuration(options.leaseMs ?? 60_000, 'createMemoryDedupeStore: leaseMs');
  // Which keys are remembered and until when; the marks beside it say held (by whom) or done.
  const marks = new Map<string, Mark>();
  const live = new ExpirySet(
    positiveInteger(options.maxEntries ?? 100_000, 'createMemoryDedupeStore: maxEntries'),
    (key) => marks.delete(key),
  );
  const markOf = (key: string, now: number) => (live.has(key, now) ? marks.get(key) : undefined);
  const put = (key: string, mark: Mark, expiresAt: number, now: number) => {
    live.set(key, expiresAt, now);
    marks.set(key, mark);
  };
  const clock = options.now ?? Date.now;
  return {
    reserve(keys, token) {
      const now = clock();
      let held = false;
      for (const key of keys) {
        const mark = markOf(key, now);
        if (mark?.state === 'done') return 'duplicate';
        if (mark !== undefined) held = true;
      }
      if (held) return 'in_progress';
      for (const key of keys) put(key, { state: 'held', token }, now + leaseMs, now);
      return 'reserved';
    },
    complete(keys) {
      const now = clock();
      for (const key of keys) put(key, DONE, now + windowMs, now);
    },
    release(keys, token) {
      const now = clock();
      for (const key of keys) {
        const mark = markOf(key, now);
        if (mark?.state === 'held' && mark.token === token) {
          live.delete(key);
          marks.delete(key);
        }
      }
    },
  };
}
