import { describe, expect, it, vi } from 'vitest';
import {
  createMemoryDedupeStore,
  DEFAULT_DEDUPE_WINDOW_MS,
  type DedupeStore,
  dedupeKeys,
  handleOnce,
  type MonitorWebhookEvent,
  RETRY_PERIOD_MS,
  receiverAnswer,
  WEBHOOK_VERIFICATION_REASONS,
  type WebhookTestEvent,
  WebhookVerificationError,
} from '../src/index.js';

const event = (deliveryId: string, streamEventId: string): MonitorWebhookEvent => ({
  eventType: 'tweet.new',
  schemaVersion: 1,
  deliveryId,
  streamEventId,
  occurredAt: '2026-04-29T12:00:00.000Z',
  data: {},
});
const testEvent: WebhookTestEvent = { eventType: 'webhook.test', data: { message: 'hi' }, timestamp: 'x' };

describe('handleOnce', () => {
  it('processes once, then answers duplicate for the same deliveryId', async () => {
    const store = createMemoryDedupeStore();
    const handler = vi.fn(async () => 'done');
    expect(await handleOnce(event('d1', 'e1'), store, handler)).toEqual({
      status: 'processed',
      result: 'done',
    });
    expect(await handleOnce(event('d1', 'e1'), store, handler)).toEqual({ status: 'duplicate' });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('a duplicate by streamEventId alone (another delivery of the same event)', async () => {
    const store = createMemoryDedupeStore();
    const handler = vi.fn();
    await handleOnce(event('d1', 'e1'), store, handler);
    expect(await handleOnce(event('d2', 'e1'), store, handler)).toEqual({ status: 'duplicate' });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('a duplicate by deliveryId alone', async () => {
    const store = createMemoryDedupeStore();
    const handler = vi.fn();
    await handleOnce(event('d1', 'e1'), store, handler);
    expect(await handleOnce(event('d1', 'e2'), store, handler)).toEqual({ status: 'duplicate' });
  });

  it('a failing handler leaves the ids unmarked, so the retry is processed', async () => {
    const store = createMemoryDedupeStore();
    const boom = new Error('db down');
    await expect(handleOnce(event('d1', 'e1'), store, () => Promise.reject(boom))).rejects.toBe(boom);
    const handler = vi.fn(() => 'ok');
    expect(await handleOnce(event('d1', 'e1'), store, handler)).toEqual({
      status: 'processed',
      result: 'ok',
    });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('two concurrent deliveries of the same ids: one runs, the other is in_progress', async () => {
    const store = createMemoryDedupeStore();
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const handler = vi.fn(async () => {
      await gate;
      return 'ok';
    });
    const first = handleOnce(event('d1', 'e1'), store, handler);
    const second = handleOnce(event('d1', 'e1'), store, handler);
    const third = handleOnce(event('d9', 'e1'), store, handler); // same event, other delivery
    expect(await second).toEqual({ status: 'in_progress' });
    expect(await third).toEqual({ status: 'in_progress' });
    release();
    expect(await first).toEqual({ status: 'processed', result: 'ok' });
    expect(await handleOnce(event('d1', 'e1'), store, handler)).toEqual({ status: 'duplicate' });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('webhook.test deliveries (no ids) are never duplicates', async () => {
    const store = createMemoryDedupeStore();
    const handler = vi.fn(() => 1);
    expect(dedupeKeys(testEvent)).toEqual([]);
    await handleOnce(testEvent, store, handler);
    expect(await handleOnce(testEvent, store, handler)).toEqual({ status: 'processed', result: 1 });
    expect(handler).toHaveBeenCalledTimes(2);
  });

  it('keys the two id spaces apart', () => {
    expect(dedupeKeys(event('x', 'x'))).toEqual(['delivery:x', 'event:x']);
  });

  it('works with an asynchronous store', async () => {
    const inner = createMemoryDedupeStore();
    const store: DedupeStore = {
      reserve: async (k, t) => inner.reserve(k, t),
      complete: async (k, t) => inner.complete(k, t),
      release: async (k, t) => inner.release(k, t),
    };
    const handler = vi.fn();
    await handleOnce(event('d1', 'e1'), store, handler);
    expect(await handleOnce(event('d1', 'e1'), store, handler)).toEqual({ status: 'duplicate' });
  });

  it('a store breaking its contract is a TypeError, never a silent second run', async () => {
    const store = { reserve: () => 'OK', complete: () => {}, release: () => {} } as unknown as DedupeStore;
    await expect(handleOnce(event('d1', 'e1'), store, vi.fn())).rejects.toThrow(TypeError);
  });
});

describe('createMemoryDedupeStore', () => {
  it('the default window (24 h) outlasts the whole retry period (about 5.7 min)', () => {
    expect(RETRY_PERIOD_MS).toBe(343_000);
    expect(DEFAULT_DEDUPE_WINDOW_MS).toBe(86_400_000);
    expect(() => createMemoryDedupeStore({ windowMs: RETRY_PERIOD_MS - 1 })).toThrow(/retry period/);
  });

  it('forgets a processed id after the window, and a stuck hold after the lease', () => {
    let now = 0;
    const store = createMemoryDedupeStore({ now: () => now, leaseMs: 1000 });
    expect(store.reserve(['a'], 't1')).toBe('reserved');
    now = 1000;
    expect(store.reserve(['a'], 't2')).toBe('in_progress');
    now = 1001;
    expect(store.reserve(['a'], 't2')).toBe('reserved'); // t1 crashed: its lease lapsed
    store.complete(['a'], 't2');
    now = 1001 + DEFAULT_DEDUPE_WINDOW_MS;
    expect(store.reserve(['a'], 't3')).toBe('duplicate');
    now += 1;
    expect(store.reserve(['a'], 't3')).toBe('reserved');
  });

  it('release only drops the hold of its own token', () => {
    const store = createMemoryDedupeStore();
    store.reserve(['a'], 't1');
    store.release(['a'], 'someone-else');
    expect(store.reserve(['a'], 't2')).toBe('in_progress');
    store.release(['a'], 't1');
    expect(store.reserve(['a'], 't2')).toBe('reserved');
  });

  it('is bounded by maxEntries', () => {
    let now = 0;
    const store = createMemoryDedupeStore({ maxEntries: 2, now: () => now });
    for (const k of ['a', 'b', 'c']) {
      now += 1;
      store.reserve([k], k);
      store.complete([k], k);
    }
    expect(store.reserve(['a'], 'x')).toBe('reserved'); // evicted first (soonest expiry)
    expect(store.reserve(['c'], 'x')).toBe('duplicate');
  });
});

describe('receiverAnswer', () => {
  it('maps outcomes to the answers of spec 6.4 (never 410)', async () => {
    expect(receiverAnswer({ status: 'processed', result: 1 })).toEqual({ status: 200, body: { ok: true } });
    expect(receiverAnswer({ status: 'duplicate' })).toEqual({
      status: 200,
      body: { ok: true, duplicate: true },
    });
    expect(receiverAnswer({ status: 'in_progress' })).toEqual({
      status: 409,
      body: { error: 'in_progress' },
    });
    for (const reason of WEBHOOK_VERIFICATION_REASONS) {
      expect(receiverAnswer(new WebhookVerificationError(reason, 'x'))).toEqual({
        status: 400,
        body: { error: reason },
      });
    }
    expect(receiverAnswer(new TypeError('bug'))).toBeUndefined();
    expect(receiverAnswer(undefined)).toBeUndefined();
  });
});
