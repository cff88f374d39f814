import {
  DEFAULT_DEDUPE_WINDOW_MS,
  type DedupeReservation,
  type DedupeStore,
  RETRY_PERIOD_MS,
} from '@xsvc/webhook-verifier';
import type { RedisClientLike } from './redis-client.js';

/** Options of {@link createRedisDedupeStore}. */
export interface RedisDedupeStoreOptions {
  /** Prefix of every key. Default `xsvc:dedupe:`. On Redis Cluster use a hash tag (`{xsvc}:dedupe:`). */
  readonly prefix?: string;
  /** How long a processed id is remembered. Default 24 h; must exceed the retry period. */
  readonly windowMs?: number;
  /** How long a hold lasts if its handler never finishes (a crashed process). Default 60 s. */
  readonly leaseMs?: number;
}

// All keys are checked and held in one script, so two processes given the same event cannot both reserve it.
const RESERVE = `
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == 'done' then return 'duplicate' end
end
for i = 1, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then return 'in_progress' end
end
for i = 1, #KEYS do
  redis.call('SET', KEYS[i], 'held:' .. ARGV[1], 'PX', ARGV[2])
end
return 'reserved'`;

const COMPLETE = `
for i = 1, #KEYS do
  redis.call('SET', KEYS[i], 'done', 'PX', ARGV[1])
end
return 1`;

// Compare-and-delete: only the attempt that holds the ids may release them.
const RELEASE = `
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == 'held:' .. ARGV[1] then redis.call('DEL', KEYS[i]) end
end
return 1`;

/**
 * A `DedupeStore` on Redis, for `handleOnce` across processes: a value `held:<token>` with the lease as TTL
 * while the handler runs, then `done` with the window as TTL. Each step is one Lua script, so it is atomic.
 */
export function createRedisDedupeStore(
  redis: RedisClientLike,
  options: RedisDedupeStoreOptions = {},
): DedupeStore {
  const prefix = options.prefix ?? 'xsvc:dedupe:';
  const windowMs = options.windowMs ?? DEFAULT_DEDUPE_WINDOW_MS;
  const leaseMs = options.leaseMs ?? 60_000;
  if (windowMs < RETRY_PERIOD_MS) {
    throw new TypeError(`windowMs (${windowMs}) is shorter than the retry period (${RETRY_PERIOD_MS} ms).`);
  }
  const keysOf = (keys: readonly string[]) => keys.map((k) => prefix + k);
  return {
    async reserve(keys, token) {
      return (await redis.eval(RESERVE, keys.length, ...keysOf(keys), token, leaseMs)) as DedupeReservation;
    },
    async complete(keys) {
      await redis.eval(COMPLETE, keys.length, ...keysOf(keys), windowMs);
    },
    async release(keys, token) {
      await redis.eval(RELEASE, keys.length, ...keysOf(keys), token);
    },
  };
}
