/**
 * The three Redis calls the stores make, as a structural type: an `ioredis` client fits as is, and so does
 * any wrapper (node-redis through a small adapter, a test double), without this package depending on one.
 */
export interface RedisClientLike {
  set(key: string, value: string, px: 'PX', milliseconds: number, nx: 'NX'): Promise<'OK' | null>;
  eval(script: string, numberOfKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
}
