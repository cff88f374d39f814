/** Redis implementations of the verifier's `NonceStore` and `DedupeStore`, for receivers with several processes. */
export type { RedisClientLike } from './redis-client.js';
export { createRedisDedupeStore, type RedisDedupeStoreOptions } from './redis-dedupe-store.js';
export { createRedisNonceStore, type RedisNonceStoreOptions } from './redis-nonce-store.js';
