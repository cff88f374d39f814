import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as node from '../src/node.js';
import { builds } from './helpers.js';

/** Known answers from test/vectors/gen.sh: OpenSSL computed them, not this package. */
interface Vector {
  name: string;
  secret: string;
  timestamp: string;
  nonce: string;
  body: string;
  bodyBytes: number;
  signature: string;
}
const { vectors } = JSON.parse(readFileSync(new URL('./vectors/vectors.json', import.meta.url), 'utf8')) as {
  vectors: Vector[];
};

const encoder = new TextEncoder();
const payloadForms = {
  string: (body: string) => body,
  Uint8Array: (body: string) => encoder.encode(body),
  ArrayBuffer: (body: string) => encoder.encode(body).buffer,
  Buffer: (body: string) => Buffer.from(body, 'utf8'),
  // A pooled Buffer slice (non-zero byteOffset), as Node's HTTP stack hands out.
  'Buffer slice': (body: string) => Buffer.from(`prefix-bytes${body}`, 'utf8').subarray(12),
};

describe('known-answer vectors (OpenSSL)', () => {
  it('covers ASCII, UTF-8/emoji, webhook.test, empty and 1 KiB bodies under three secrets', () => {
    expect(vectors).toHaveLength(15);
    expect(new Set(vectors.map((v) => v.secret)).size).toBe(3);
    expect(vectors.map((v) => v.bodyBytes)).toContain(0);
    expect(vectors.map((v) => v.bodyBytes)).toContain(1024);
    expect(vectors.some((v) => v.body.includes('🎉 café 你好'))).toBe(true);
    for (const v of vectors) expect(encoder.encode(v.body).length).toBe(v.bodyBytes);
  });

  for (const build of builds) {
    describe(`${build.name} build`, () => {
      for (const v of vectors) {
        for (const [form, toPayload] of Object.entries(payloadForms)) {
          it(`${v.name}: signs to the vector and verifies it (payload as ${form})`, async () => {
            const headers = await build.signWebhook({
              secret: v.secret,
              payload: toPayload(v.body),
              timestamp: Number(v.timestamp),
              nonce: v.nonce,
            });
            expect(headers).toEqual({
              'X-Svc-Timestamp': v.timestamp,
              'X-Svc-Nonce': v.nonce,
              'X-Svc-Signature': v.signature,
            });
            const verify = build.verifyWebhook({
              payload: toPayload(v.body),
              headers: {
                'x-svc-timestamp': v.timestamp,
                'x-svc-nonce': v.nonce,
                'x-svc-signature': v.signature,
              },
              secret: v.secret,
              now: () => Number(v.timestamp),
              nonceStore: false,
            });
            if (v.bodyBytes === 0) {
              // The signature is right; an empty body is simply not an event.
              await expect(verify).rejects.toMatchObject({ reason: 'invalid_payload' });
            } else {
              await expect(verify).resolves.toEqual(JSON.parse(v.body));
            }
          });
        }
      }
    });
  }

  describe('node build, synchronous API', () => {
    for (const v of vectors) {
      it(`${v.name}: signWebhookSync gives the vector; verifyWebhookSync accepts it`, () => {
        const headers = node.signWebhookSync({
          secret: v.secret,
          payload: Buffer.from(v.body),
          timestamp: Number(v.timestamp),
          nonce: v.nonce,
        });
        expect(headers['X-Svc-Signature']).toBe(v.signature);
        if (v.bodyBytes === 0) return;
        const event = node.verifyWebhookSync({
          payload: Buffer.from(v.body),
          headers: new Headers({
            'X-Svc-Timestamp': v.timestamp,
            'X-Svc-Nonce': v.nonce,
            'X-Svc-Signature': v.signature,
          }),
          secret: v.secret,
          now: () => Number(v.timestamp),
          nonceStore: false,
        });
        expect(event).toEqual(JSON.parse(v.body));
      });
    }
  });
});
