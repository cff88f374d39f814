import { describe, expect, it } from 'vitest';
import { createMemoryNonceStore, type NonceStore } from '../src/index.js';
import { builds, NONCE, NOW, outcome, SECRET, signed } from './helpers.js';

const TOLERANCE = 300_000;

describe.each(builds)('$name build: nonce replay', ({ verifyWebhook }) => {
  const verifyAt = (now: number, store: NonceStore | undefined, delivery = signed(), webhookId?: string) =>
    outcome(() =>
      verifyWebhook({
        payload: delivery.body,
        headers: delivery.headers,
        secret: SECRET,
        now: () => now,
        ...(store === undefined ? {} : { nonceStore: store }),
        webhookId,
      }),
    );

  it('the same delivery twice is nonce_replayed', async () => {
    const store = createMemoryNonceStore();
    expect(await verifyAt(NOW, store)).toBe('ok');
    expect(await verifyAt(NOW + 1, store)).toBe('nonce_replayed');
  });

  it('the nonce is remembered until timestamp + tolerance, inclusive, for a delivery on time', async () => {
    const store = createMemoryNonceStore();
    expect(await verifyAt(NOW, store)).toBe('ok');
    expect(await verifyAt(NOW + TOLERANCE, store)).toBe('nonce_replayed');
    expect(await verifyAt(NOW + TOLERANCE + 1, store)).toBe('timestamp_out_of_range');
  });

  it('a future-dated delivery stays remembered until max(receivedAt, timestamp) + tolerance', async () => {
    const store = createMemoryNonceStore();
    const future = signed({ timestamp: NOW + 240_000 });
    expect(await verifyAt(NOW, store, future)).toBe('ok');
    // With an expiry of receivedAt + tolerance the nonce would be forgotten at NOW + 300001, while the
    // timestamp stays acceptable until NOW + 540000: that window must still be a replay.
    expect(await verifyAt(NOW + TOLERANCE + 1, store, future)).toBe('nonce_replayed');
    expect(await verifyAt(NOW + 240_000 + TOLERANCE, store, future)).toBe('nonce_replayed');
    expect(await verifyAt(NOW + 240_000 + TOLERANCE + 1, store, future)).toBe('timestamp_out_of_range');
  });

  it('passes the store key `<webhookId>:<nonce>` and expiry max(receivedAt, timestamp) + tolerance', async () => {
    const calls: [string, number, number][] = [];
    const store: NonceStore = {
      checkAndStore(key, expiresAt, now) {
        calls.push([key, expiresAt, now]);
        return true;
      },
    };
    await verifyAt(NOW + 1000, store, signed(), 'wh_1');
    await verifyAt(NOW - 1000, store, signed());
    expect(calls).toEqual([
      [`wh_1:${NONCE}`, NOW + 1000 + TOLERANCE, NOW + 1000],
      [`:${NONCE}`, NOW + TOLERANCE, NOW - 1000],
    ]);
  });

  it('nonces are scoped by webhookId', async () => {
    const store = createMemoryNonceStore();
    expect(await verifyAt(NOW, store, signed(), 'wh_a')).toBe('ok');
    expect(await verifyAt(NOW, store, signed(), 'wh_b')).toBe('ok');
    expect(await verifyAt(NOW, store, signed(), 'wh_a')).toBe('nonce_replayed');
  });

  it('the store is consulted only after the signature is valid (junk cannot fill it)', async () => {
    let calls = 0;
    const store: NonceStore = {
      checkAndStore: () => {
        calls++;
        return true;
      },
    };
    const { body, headers } = signed();
    await outcome(() =>
      verifyWebhook({ payload: `${body} `, headers, secret: SECRET, now: () => NOW, nonceStore: store }),
    );
    expect(calls).toBe(0);
  });

  it('nonce_replayed comes before invalid_payload', async () => {
    const store = createMemoryNonceStore();
    const junk = signed({ body: 'not json' });
    expect(await verifyAt(NOW, store, junk)).toBe('invalid_payload');
    expect(await verifyAt(NOW, store, junk)).toBe('nonce_replayed');
  });

  it('an asynchronous store works', async () => {
    const inner = createMemoryNonceStore();
    const store: NonceStore = { checkAndStore: async (k, e, n) => inner.checkAndStore(k, e, n) };
    expect(await verifyAt(NOW, store)).toBe('ok');
    expect(await verifyAt(NOW, store)).toBe('nonce_replayed');
  });

  it('nonceStore: false turns replay protection off', async () => {
    const d = signed();
    const run = () =>
      outcome(() =>
        verifyWebhook({
          payload: d.body,
          headers: d.headers,
          secret: SECRET,
          now: () => NOW,
          nonceStore: false,
        }),
      );
    expect(await run()).toBe('ok');
    expect(await run()).toBe('ok');
  });
});

describe('default nonce store', () => {
  it('is on when nonceStore is omitted, and shared by both builds (one per process)', async () => {
    const nonce = 'abcdefabcdefabcdefabcdefabcdef99';
    const d = signed({ nonce });
    const [web, node] = builds;
    const opts = {
      payload: d.body,
      headers: d.headers,
      secret: SECRET,
      now: () => NOW,
      webhookId: 'default-store-test',
    };
    expect(await outcome(() => web.verifyWebhook(opts))).toBe('ok');
    expect(await outcome(() => web.verifyWebhook(opts))).toBe('nonce_replayed');
    expect(await outcome(() => node.verifyWebhook(opts))).toBe('nonce_replayed');
  });
});

describe('createMemoryNonceStore', () => {
  it('answers true for a new key, false for a live one, true again after expiry', () => {
    const store = createMemoryNonceStore();
    expect(store.checkAndStore('a', 100, 0)).toBe(true);
    expect(store.checkAndStore('a', 200, 100)).toBe(false);
    expect(store.checkAndStore('a', 300, 101)).toBe(true);
  });

  it('sweeps expired entries lazily on the next write', () => {
    const store = createMemoryNonceStore();
    for (let i = 0; i < 10; i++) store.checkAndStore(`k${i}`, 100 + i, 0);
    expect(store.size).toBe(10);
    store.checkAndStore('late', 1000, 105);
    expect(store.size).toBe(6); // k5 (expires at 105, inclusive) .. k9, and late
  });

  it('never grows beyond maxEntries, evicting the soonest-expiring first', () => {
    const store = createMemoryNonceStore({ maxEntries: 3 });
    store.checkAndStore('long', 10_000, 0);
    store.checkAndStore('short', 50, 0);
    store.checkAndStore('mid', 5_000, 0);
    store.checkAndStore('new', 6_000, 1);
    expect(store.size).toBe(3);
    expect(store.checkAndStore('short', 100, 2)).toBe(true); // evicted, so forgotten
    expect(store.checkAndStore('long', 10_000, 3)).toBe(false);
    expect(store.checkAndStore('new', 6_000, 3)).toBe(false);
  });

  // One expect over the whole stream instead of 50,000, and a timeout with room for a loaded machine: beside
  // the whole suite on 2 cores this test has failed now and then.
  it('stays bounded under a long stream of distinct nonces', () => {
    const store = createMemoryNonceStore({ maxEntries: 1000 });
    const refused: number[] = [];
    for (let i = 0; i < 50_000; i++)
      if (store.checkAndStore(`n${i}`, i + 300_000, i) !== true) refused.push(i);
    expect(refused).toEqual([]);
    expect(store.size).toBe(1000);
    expect(store.checkAndStore('n49999', 400_000, 50_000)).toBe(false);
    expect(store.checkAndStore('n0', 400_000, 50_000)).toBe(true);
  }, 30_000);

  it('rejects a bad bound with a TypeError', () => {
    expect(() => createMemoryNonceStore({ maxEntries: 0 })).toThrow(TypeError);
    expect(() => createMemoryNonceStore({ maxEntries: 1.5 })).toThrow(TypeError);
  });
});
