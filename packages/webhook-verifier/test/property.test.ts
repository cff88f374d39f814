import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WebhookPayload } from '../src/index.js';
import * as node from '../src/node.js';
import { builds, outcome } from './helpers.js';

const TOLERANCE = 300_000;
const encoder = new TextEncoder();

const hexString = (length: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length });
const secret = fc.string({ unit: 'binary', minLength: 1, maxLength: 80 });
const timestamp = fc.integer({ min: 4 * TOLERANCE, max: 4_102_444_800_000 });
// Arbitrary JSON objects with arbitrary Unicode (astral planes included) in keys and values.
const eventBody = fc
  .record({
    eventType: fc.string({ unit: 'binary' }),
    data: fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue({ stringUnit: 'binary', maxDepth: 3 })),
    extra: fc.jsonValue({ stringUnit: 'binary', maxDepth: 2 }),
  })
  .map((o) => JSON.stringify(o));
const delivery = fc.record({ secret, timestamp, nonce: hexString(32), body: eventBody });

type Delivery = { secret: string; timestamp: number; nonce: string; body: string };
type Headers3 = Record<string, string>;

/** Verifies with both builds and asserts they agree; returns the shared outcome. */
async function both(
  payload: WebhookPayload,
  headers: Headers3,
  d: Delivery,
  now = d.timestamp,
): Promise<string> {
  const results = await Promise.all(
    builds.map((b) =>
      outcome(() =>
        b.verifyWebhook({ payload, headers, secret: d.secret, now: () => now, nonceStore: false }),
      ),
    ),
  );
  let sync: string;
  try {
    node.verifyWebhookSync({ payload, headers, secret: d.secret, now: () => now, nonceStore: false });
    sync = 'ok';
  } catch (error) {
    sync = node.isWebhookVerificationError(error) ? error.reason : String(error);
  }
  expect(results[1]).toBe(results[0]);
  expect(sync).toBe(results[0]);
  return results[0]!;
}

function sign(d: Delivery): Headers3 {
  return {
    ...node.signWebhookSync({ secret: d.secret, payload: d.body, timestamp: d.timestamp, nonce: d.nonce }),
  };
}

describe('properties (fast-check), both builds', () => {
  it('sign then verify succeeds and returns the body, for string and byte payloads; both builds sign alike', async () => {
    await fc.assert(
      fc.asyncProperty(delivery, fc.integer({ min: -TOLERANCE, max: TOLERANCE }), async (d, skew) => {
        const headers = sign(d);
        const webHeaders = await builds[0].signWebhook({ ...d, payload: encoder.encode(d.body) });
        expect({ ...webHeaders }).toEqual(headers);
        for (const payload of [d.body, encoder.encode(d.body), Buffer.from(d.body)]) {
          expect(await both(payload, headers, d, d.timestamp + skew)).toBe('ok');
        }
        const event = await builds[0].verifyWebhook({
          payload: d.body,
          headers,
          secret: d.secret,
          now: () => d.timestamp,
          nonceStore: false,
        });
        expect(event).toEqual(JSON.parse(d.body));
      }),
    );
  });

  it('any change to the body bytes is signature_mismatch', async () => {
    await fc.assert(
      fc.asyncProperty(delivery, fc.nat(), fc.integer({ min: 1, max: 255 }), async (d, at, xor) => {
        const bytes = encoder.encode(d.body);
        bytes[at % bytes.length]! ^= xor;
        expect(await both(bytes, sign(d), d)).toBe('signature_mismatch');
      }),
    );
  });

  it('appending or removing bytes is signature_mismatch', async () => {
    await fc.assert(
      fc.asyncProperty(delivery, fc.string({ unit: 'binary', minLength: 1 }), async (d, tail) => {
        const headers = sign(d);
        expect(await both(d.body + tail, headers, d)).toBe('signature_mismatch');
        expect(await both(d.body.slice(0, -1), headers, d)).toBe('signature_mismatch');
      }),
    );
  });

  it('a changed timestamp: in range is signature_mismatch, out of range is timestamp_out_of_range', async () => {
    await fc.assert(
      fc.asyncProperty(
        delivery,
        fc.integer({ min: -3 * TOLERANCE, max: 3 * TOLERANCE }).filter((x) => x !== 0),
        async (d, delta) => {
          const headers = { ...sign(d), 'X-Svc-Timestamp': String(d.timestamp + delta) };
          const expected = Math.abs(delta) <= TOLERANCE ? 'signature_mismatch' : 'timestamp_out_of_range';
          expect(await both(d.body, headers, d)).toBe(expected);
        },
      ),
    );
  });

  it('a changed nonce: valid hex is signature_mismatch, anything else is malformed_header', async () => {
    const validNonce = fc.oneof(
      hexString(32),
      hexString(32).map((s) => s.toUpperCase()),
    );
    const malformedNonce = fc
      .string({ unit: 'binary', maxLength: 40 })
      .filter((s) => !/^[0-9a-fA-F]{32}$/.test(s));
    await fc.assert(
      fc.asyncProperty(delivery, validNonce, malformedNonce, async (d, other, junk) => {
        fc.pre(other !== d.nonce);
        const headers = sign(d);
        expect(await both(d.body, { ...headers, 'X-Svc-Nonce': other }, d)).toBe('signature_mismatch');
        expect(await both(d.body, { ...headers, 'X-Svc-Nonce': junk }, d)).toBe('malformed_header');
      }),
    );
  });

  it('a changed signature: another hex value is signature_mismatch, anything else is malformed_header', async () => {
    const malformedSignature = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 80 }),
      hexString(64).map((h) => `sha256=${h}x`),
      hexString(63).map((h) => `sha256=${h}`),
      hexString(64).map((h) => `sha512=${h}`),
    );
    await fc.assert(
      fc.asyncProperty(
        delivery,
        fc.integer({ min: 0, max: 63 }),
        fc.integer({ min: 1, max: 15 }),
        malformedSignature,
        async (d, at, xor, junk) => {
          fc.pre(!/^sha256=[0-9a-fA-F]{64}$/.test(junk));
          const headers = sign(d);
          const hex = headers['X-Svc-Signature']!.slice(7);
          const flipped = (Number.parseInt(hex[at]!, 16) ^ xor).toString(16);
          const changed = `sha256=${hex.slice(0, at)}${flipped}${hex.slice(at + 1)}`;
          expect(await both(d.body, { ...headers, 'X-Svc-Signature': changed }, d)).toBe(
            'signature_mismatch',
          );
          expect(await both(d.body, { ...headers, 'X-Svc-Signature': junk }, d)).toBe('malformed_header');
        },
      ),
    );
  });

  it('arbitrary header values never escape as anything but a verification reason, identically in both builds', async () => {
    const value = fc.option(fc.oneof(fc.string({ unit: 'binary' }), hexString(32), fc.nat().map(String)), {
      nil: undefined,
    });
    await fc.assert(
      fc.asyncProperty(delivery, value, value, value, async (d, ts, nonce, sig) => {
        const headers: Headers3 = {};
        if (ts !== undefined) headers['x-svc-timestamp'] = ts;
        if (nonce !== undefined) headers['x-svc-nonce'] = nonce;
        if (sig !== undefined) headers['x-svc-signature'] = sig;
        const result = await both(d.body, headers, d);
        expect([
          'missing_header',
          'malformed_header',
          'timestamp_out_of_range',
          'signature_mismatch',
        ]).toContain(result);
      }),
    );
  });
});
