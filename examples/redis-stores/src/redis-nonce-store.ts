import type { NonceStore } from '@xsvc/webhook-verifier';
import type { RedisClientLike } from './redis-client.js';

/** Options of {@link createRedisNonceStore}. */
export interface RedisNonceStoreOptions {
  /** Prefix of every key, to share a database safely. Default `xsvc:nonce:`. */
  readonly prefix?: string;
}

/**
 * A `NonceStore` shared by every process that receives the endpoint: one atomic `SET key 1 PX <ttl> NX`
 * per delivery. `NX` makes check-and-store a single step (two processes given the same replay cannot both
 * win), and the TTL, computed from the verifier's `expiresAt`, lets Redis forget the nonce exactly when the
 * delivery's timestamp can no longer pass. A Redis error propagates: the receiver answers 500 and the
 * sender retries, which is safer than accepting a delivery whose nonce could not be recorded.
 */
export function createRedisNonceStore(
  redis: RedisClientLike,
  options: RedisNonceStoreOptions = {},
): NonceStore {
  const prefix = options.prefix ?? 'xsvc:nonce:';
  return {
    async checkAndStore(key, expiresAt, now) {
      // +1: the verifier's expiry is inclusive, a Redis TTL ends just before its last millisecond.
      const ttl = Math.max(1, Math.ceil(expiresAt - now) + 1);
      return (await redis.set(prefix + key, '1', 'PX', ttl, 'NX')) === 'OK';
    },
  };
}
