import { describe, expect, it } from 'vitest';
import type { WebhookSignOptions, WebhookVerifyOptions } from '../src/index.js';
import * as node from '../src/node.js';
import { BODY, builds, NOW, SECRET, signed } from './helpers.js';

/** Options with deliberately wrong types: misuse a TypeScript user could still commit through `any` or JS. */
const bad = (options: Record<string, unknown>) => options as unknown as WebhookVerifyOptions;

describe.each(builds)(
  '$name build: misuse is a TypeError, never a verification failure',
  ({ verifyWebhook, signWebhook }) => {
    const { body, headers } = signed();
    const base = { payload: body, headers, secret: SECRET, now: () => NOW, nonceStore: false as const };

    it.each([
      ['no options', undefined],
      ['no secret', { ...base, secret: undefined }],
      ['an empty secret', { ...base, secret: '' }],
      ['an empty secret list', { ...base, secret: [] }],
      ['an empty string in the list', { ...base, secret: [SECRET, ''] }],
      ['a non-string secret', { ...base, secret: 42 }],
      ['a number payload', { ...base, payload: 42 }],
      ['a null payload', { ...base, payload: null }],
      ['a DataView payload', { ...base, payload: new DataView(new ArrayBuffer(2)) }],
      ['headers missing', { ...base, headers: undefined }],
      ['headers as a string', { ...base, headers: 'x-svc-nonce: 1' }],
      ['zero toleranceMs', { ...base, toleranceMs: 0 }],
      ['negative toleranceMs', { ...base, toleranceMs: -1 }],
      ['NaN toleranceMs', { ...base, toleranceMs: Number.NaN }],
      ['infinite toleranceMs', { ...base, toleranceMs: Number.POSITIVE_INFINITY }],
      ['a nonceStore without checkAndStore', { ...base, nonceStore: {} }],
      ['nonceStore true', { ...base, nonceStore: true }],
      ['a non-string webhookId', { ...base, webhookId: 7 }],
      ['now not a function', { ...base, now: 5 }],
      ['now returning NaN', { ...base, now: () => Number.NaN }],
    ])('%s', async (_, options) => {
      await expect(verifyWebhook(bad(options as Record<string, unknown>))).rejects.toThrow(TypeError);
    });

    it('an already-parsed body: the message says so and how to get the raw bytes', async () => {
      const error = await verifyWebhook(bad({ ...base, payload: JSON.parse(body) })).then(
        () => new Error('resolved'),
        (e: unknown) => e as Error,
      );
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toMatch(/parsed .*before verifying/);
      expect(error.message).toContain('express.raw');
      expect(error.message).toContain('parseAs: "buffer"');
      expect(error.message).toContain('request.arrayBuffer()');
    });

    it('a NonceStore that returns a non-boolean is a TypeError', async () => {
      const store = { checkAndStore: () => 'OK' as unknown as boolean };
      await expect(verifyWebhook({ ...base, nonceStore: store })).rejects.toThrow(/must return a boolean/);
    });

    it('a NonceStore that throws or rejects propagates unchanged (it is the store failing, not the delivery)', async () => {
      const boom = new Error('redis down');
      await expect(
        verifyWebhook({
          ...base,
          nonceStore: {
            checkAndStore: () => {
              throw boom;
            },
          },
        }),
      ).rejects.toBe(boom);
      await expect(
        verifyWebhook({ ...base, nonceStore: { checkAndStore: () => Promise.reject(boom) } }),
      ).rejects.toBe(boom);
    });

    it.each([
      ['no secret', { payload: BODY }],
      ['a secret list (sign with one secret)', { payload: BODY, secret: [SECRET] }],
      ['a parsed object payload', { payload: { eventType: 'x' }, secret: SECRET }],
      ['a fractional timestamp', { payload: BODY, secret: SECRET, timestamp: 1.5 }],
      ['a negative timestamp', { payload: BODY, secret: SECRET, timestamp: -1 }],
      ['a 17-digit timestamp', { payload: BODY, secret: SECRET, timestamp: 1e16 }],
      ['a short nonce', { payload: BODY, secret: SECRET, nonce: 'abc' }],
      ['a non-hex nonce', { payload: BODY, secret: SECRET, nonce: 'z'.repeat(32) }],
    ])('signWebhook with %s', async (_, options) => {
      await expect(signWebhook(options as unknown as WebhookSignOptions)).rejects.toThrow(TypeError);
    });
  },
);

describe('node build, synchronous API', () => {
  it('verifyWebhookSync refuses an asynchronous nonce store', () => {
    const { body, headers } = signed();
    expect(() =>
      node.verifyWebhookSync({
        payload: body,
        headers,
        secret: SECRET,
        now: () => NOW,
        nonceStore: { checkAndStore: async () => true },
      }),
    ).toThrow(/asynchronous; use verifyWebhook/);
  });

  it('signWebhookSync and verifyWebhookSync throw TypeError synchronously', () => {
    expect(() => node.signWebhookSync({ secret: '', payload: BODY })).toThrow(TypeError);
    expect(() => node.verifyWebhookSync(bad({ payload: {}, headers: {}, secret: SECRET }))).toThrow(/parsed/);
  });

  it('the async Node functions name themselves in messages, like the Web build', async () => {
    await expect(node.signWebhook({ secret: '', payload: BODY })).rejects.toThrow(/^signWebhook:/);
    await expect(builds[0].signWebhook({ secret: '', payload: BODY })).rejects.toThrow(/^signWebhook:/);
  });
});
