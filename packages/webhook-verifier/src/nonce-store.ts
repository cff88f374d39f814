import { ExpirySet } from './expiry-set.js';
import { positiveInteger } from './validate.js';

/**
 * Remembers nonces to reject replays (spec 6.4 rule 3). Implement it on shared storage (Redis `SET key 1 PX
 * <ttl> NX`) when several processes receive the same endpoint. The verifier calls it only after the signature
 * is valid, so unsigned junk can never fill it. A store that throws or rejects is a fault of the store: the
 * error propagates unchanged (answer 5xx, the sender retries), it is never reported as a verification failure.
 */
export interface NonceStore {
  /**
   * Atomically records `key` until `expiresAt` (epoch ms, inclusive) unless it is already recorded.
   * Returns `true` for a new key, `false` for a replay. `now` is the verifier's clock, so stores that keep
   * their own time (Redis TTLs) can turn `expiresAt` into a duration.
   */
  checkAndStore(key: string, expiresAt: number, now: number): boolean | Promise<boolean>;
}

/** Options of {@link createMemoryNonceStore}. */
export interface MemoryNonceStoreOptions {
  /** Upper bound on remembered nonces; when full the soonest-expiring is forgotten. Default 100000. */
  readonly maxEntries?: number | undefined;
}

/** A {@link NonceStore} in process memory, with its size for monitoring and tests. */
export interface MemoryNonceStore extends NonceStore {
  readonly size: number;
}

/**
 * A bounded in-memory {@link NonceStore} for a single process. Synchronous, so it also works with
 * `verifyWebhookSync`. 100000 entries at a 5-minute window cover about 330 deliveries per second.
 */
export function createMemoryNonceStore(options: MemoryNonceStoreOptions = {}): MemoryNonceStore {
  const maxEntries = positiveInteger(options.maxEntries ?? 100_000, 'createMemoryNonceStore: maxEntries');
  const seen = new ExpirySet(maxEntries);
  return {
    checkAndStore(key, expiresAt, now) {
      return seen.add(key, expiresAt, now);
    },
    get size() {
      return seen.size;
    },
  };
}

const DEFAULT_STORE = Symbol.for('@xsvc/webhook-verifier/default-nonce-store');

/**
 * The store used when `nonceStore` is omitted: one per process, kept on `globalThis` under a registry symbol
 * so that the ESM and CJS builds (or two installed copies) share it instead of each letting the other's
 * nonces through. Created on first use, so importing the package has no side effects.
 */
export function defaultNonceStore(): NonceStore {
  const holder = globalThis as { [DEFAULT_STORE]?: NonceStore };
  let store = holder[DEFAULT_STORE];
  if (store === undefined) {
    store = createMemoryNonceStore();
    Object.defineProperty(holder, DEFAULT_STORE, { value: store, configurable: true });
  }
  return store;
}
