import { randomUUID } from 'node:crypto';
import * as node from '@xsvc/webhook-verifier/node';
import * as web from '@xsvc/webhook-verifier/web';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createRedisDedupeStore, createRedisNonceStore } from '../src/index.js';

// The real Redis server on 127.0.0.1:6379; every key of this run lives under a random prefix, deleted after.
const redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, maxRetriesPerRequest: 1 });
const prefix = `xsvc-test:${randomUUID()}:`;

afterAll(async () => {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  expect(await redis.keys(`${prefix}*`)).toEqual([]);
  await redis.quit();
});

const SECRET = 'whsec_redis_example';
const NOW = Date.now();
const event = (deliveryId: string, streamEventId: string) => ({
  eventType: 'tweet.new',
  schemaVersion: 1,
  deliveryId,
  streamEventId,
  occurredAt: new Date(NOW).toISOString(),
  data: {},
});

describe('Redis NonceStore (SET key 1 PX ttl NX)', () => {
  const store = createRedisNonceStore(redis, { prefix: `${prefix}nonce:` });

  it('true for a new key, false for a replay, with a TTL that ends at expiresAt', async () => {
    expect(await store.checkAndStore('wh:abc', NOW + 300_000, NOW)).toBe(true);
    expect(await store.checkAndStore('wh:abc', NOW + 300_000, NOW + 5)).toBe(false);
    const ttl = await redis.pttl(`${prefix}nonce:wh:abc`);
    expect(ttl).toBeGreaterThan(290_000);
    expect(ttl).toBeLessThanOrEqual(300_001);
  });

  it('one winner among concurrent checks of the same nonce', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => store.checkAndStore('wh:race', NOW + 1000, NOW)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it.each([
    ['node', node.verifyWebhook, node.signWebhook],
    ['web', web.verifyWebhook, web.signWebhook],
  ] as const)('protects verifyWebhook (%s build) from a replay', async (_, verifyWebhook, signWebhook) => {
    const body = JSON.stringify(event('d', 'e'));
    const headers = { ...(await signWebhook({ secret: SECRET, payload: body })) };
    const options = { payload: body, headers, secret: SECRET, nonceStore: store, webhookId: 'wh_1' };
    await expect(verifyWebhook(options)).resolves.toMatchObject({ deliveryId: 'd' });
    await expect(verifyWebhook(options)).rejects.toMatchObject({ reason: 'nonce_replayed' });
    expect(await redis.exists(`${prefix}nonce:wh_1:${headers['X-Svc-Nonce']}`)).toBe(1);
  });
});

describe('Redis DedupeStore with handleOnce', () => {
  const store = createRedisDedupeStore(redis, { prefix: `${prefix}dedupe:`, leaseMs: 30_000 });

  it('processes once; a duplicate by deliveryId or by streamEventId is answered without running again', async () => {
    const handler = vi.fn(async () => 'ok');
    expect(await node.handleOnce(event('d1', 'e1'), store, handler)).toEqual({
      status: 'processed',
      result: 'ok',
    });
    expect(await node.handleOnce(event('d1', 'e1'), store, handler)).toEqual({ status: 'duplicate' });
    expect(await node.handleOnce(event('d1', 'e-other'), store, handler)).toEqual({ status: 'duplicate' });
    expect(await node.handleOnce(event('d-other', 'e1'), store, handler)).toEqual({ status: 'duplicate' });
    expect(handler).toHaveBeenCalledTimes(1);
    const ttl = await redis.pttl(`${prefix}dedupe:delivery:d1`);
    expect(ttl).toBeGreaterThan(86_000_000);
    expect(await redis.get(`${prefix}dedupe:event:e1`)).toBe('done');
  });

  it('a failing handler releases the ids, so the retry is processed', async () => {
    await expect(
      node.handleOnce(event('d2', 'e2'), store, () => Promise.reject(new Error('down'))),
    ).rejects.toThrow('down');
    expect(await redis.exists(`${prefix}dedupe:delivery:d2`, `${prefix}dedupe:event:e2`)).toBe(0);
    const handler = vi.fn();
    expect(await node.handleOnce(event('d2', 'e2'), store, handler)).toMatchObject({ status: 'processed' });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('concurrent deliveries of one event: one runs, the others are in_progress; the hold has the lease TTL', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const handler = vi.fn(() => gate);
    const first = node.handleOnce(event('d3', 'e3'), store, handler);
    await vi.waitFor(() => expect(handler).toHaveBeenCalled());
    const ttl = await redis.pttl(`${prefix}dedupe:event:e3`);
    expect(ttl).toBeGreaterThan(25_000);
    expect(ttl).toBeLessThanOrEqual(30_000);
    const others = await Promise.all([
      node.handleOnce(event('d3', 'e3'), store, handler),
      node.handleOnce(event('d4', 'e3'), store, handler),
    ]);
    expect(others).toEqual([{ status: 'in_progress' }, { status: 'in_progress' }]);
    release();
    expect(await first).toMatchObject({ status: 'processed' });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('release only drops a hold owned by the same token', async () => {
    expect(await store.reserve(['k'], 'owner')).toBe('reserved');
    await store.release(['k'], 'intruder');
    expect(await store.reserve(['k'], 'other')).toBe('in_progress');
    await store.release(['k'], 'owner');
    expect(await store.reserve(['k'], 'other')).toBe('reserved');
  });

  it('refuses a window shorter than the retry period', () => {
    expect(() => createRedisDedupeStore(redis, { windowMs: 60_000 })).toThrow(/retry period/);
  });
});
