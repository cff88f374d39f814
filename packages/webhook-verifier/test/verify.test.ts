import { describe, expect, it } from 'vitest';
import {
  isWebhookTestEvent,
  isWebhookVerificationError,
  WEBHOOK_HEADERS,
  WEBHOOK_VERIFICATION_REASONS,
  WebhookVerificationError,
} from '../src/index.js';
import { BODY, builds, NONCE, NOW, outcome, SECRET, signed } from './helpers.js';

const tolerance = 300_000;

describe.each(builds)('$name build: verifyWebhook', ({ verifyWebhook, signWebhook }) => {
  const verify = (
    body: string | Uint8Array,
    headers: Record<string, string | string[] | undefined> | Headers,
    extra: { secret?: string | string[]; now?: number; toleranceMs?: number } = {},
  ) =>
    outcome(() =>
      verifyWebhook({
        payload: body,
        headers,
        secret: extra.secret ?? SECRET,
        now: () => extra.now ?? NOW,
        nonceStore: false,
        toleranceMs: extra.toleranceMs,
      }),
    );

  it('returns the parsed event for a good delivery', async () => {
    const { body, headers } = signed();
    const event = await verifyWebhook({
      payload: body,
      headers,
      secret: SECRET,
      now: () => NOW,
      nonceStore: false,
    });
    expect(event).toEqual(JSON.parse(BODY));
    expect(isWebhookTestEvent(event)).toBe(false);
  });

  it('accepts a webhook.test payload without ids', async () => {
    const body = JSON.stringify({
      eventType: 'webhook.test',
      data: { message: 'hi' },
      timestamp: '2026-04-29T12:00:00.000Z',
    });
    const { headers } = signed({ body });
    const event = await verifyWebhook({
      payload: body,
      headers,
      secret: SECRET,
      now: () => NOW,
      nonceStore: false,
    });
    expect(isWebhookTestEvent(event) && event.data.message).toBe('hi');
  });

  describe('missing_header', () => {
    for (const name of ['X-Svc-Timestamp', 'X-Svc-Nonce', 'X-Svc-Signature']) {
      it(`when ${name} is absent (names it in the message)`, async () => {
        const { body, headers } = signed();
        delete headers[name];
        await expect(
          verifyWebhook({ payload: body, headers, secret: SECRET, now: () => NOW, nonceStore: false }),
        ).rejects.toThrow(new RegExp(`Missing header: ${name}`));
      });
    }
    it('when a record value is undefined or an empty array', async () => {
      const { body, headers } = signed();
      expect(await verify(body, { ...headers, 'X-Svc-Nonce': undefined })).toBe('missing_header');
      expect(await verify(body, { ...headers, 'X-Svc-Nonce': [] })).toBe('missing_header');
    });
    it('takes precedence over a malformed header', async () => {
      const { body, headers } = signed();
      expect(
        await verify(body, { 'X-Svc-Timestamp': 'nope', 'X-Svc-Signature': headers['X-Svc-Signature'] }),
      ).toBe('missing_header');
    });
    it('with no headers at all', async () => {
      expect(await verify(BODY, {})).toBe('missing_header');
      expect(await verify(BODY, new Headers())).toBe('missing_header');
    });
  });

  describe('malformed_header', () => {
    const cases: [string, string][] = [
      ['X-Svc-Timestamp', ''],
      ['X-Svc-Timestamp', '12345678901234567'],
      ['X-Svc-Timestamp', '1777464000.5'],
      ['X-Svc-Timestamp', '-1777464000000'],
      ['X-Svc-Timestamp', ' 1777464000000'],
      ['X-Svc-Timestamp', '0x1A'],
      ['X-Svc-Nonce', NONCE.slice(1)],
      ['X-Svc-Nonce', `${NONCE}0`],
      ['X-Svc-Nonce', `${NONCE.slice(1)}g`],
      ['X-Svc-Nonce', `${NONCE.slice(1)}é`],
      ['X-Svc-Signature', ''],
      ['X-Svc-Signature', 'a'.repeat(64)],
      ['X-Svc-Signature', `sha1=${'a'.repeat(64)}`],
      ['X-Svc-Signature', `SHA256=${'a'.repeat(64)}`],
      ['X-Svc-Signature', `sha256=${'a'.repeat(63)}`],
      ['X-Svc-Signature', `sha256=${'a'.repeat(65)}`],
      ['X-Svc-Signature', `sha256=${'a'.repeat(63)}z`],
      ['X-Svc-Signature', `v1,sha256=${'a'.repeat(64)}`],
    ];
    for (const [name, value] of cases) {
      it(`${name}: ${JSON.stringify(value)}`, async () => {
        const { body, headers } = signed();
        expect(await verify(body, { ...headers, [name]: value })).toBe('malformed_header');
      });
    }
    it('a repeated header in a Node record (array of two)', async () => {
      const { body, headers } = signed();
      const nonce = headers['X-Svc-Nonce']!;
      expect(await verify(body, { ...headers, 'X-Svc-Nonce': [nonce, nonce] })).toBe('malformed_header');
    });
    it('a repeated header in Headers (joined with ", ")', async () => {
      const { body, headers } = signed();
      const h = new Headers(headers);
      h.append('X-Svc-Signature', headers['X-Svc-Signature']!);
      expect(await verify(body, h)).toBe('malformed_header');
    });
    it('a non-string record value', async () => {
      const { body, headers } = signed();
      const bad = { ...headers, 'X-Svc-Timestamp': 1777464000000 } as unknown as Record<string, string>;
      expect(await verify(body, bad)).toBe('malformed_header');
    });
    it('is checked before the timestamp', async () => {
      const { body, headers } = signed({ timestamp: 1 });
      expect(await verify(body, { ...headers, 'X-Svc-Nonce': 'x' })).toBe('malformed_header');
    });
  });

  describe('header names are case-insensitive', () => {
    it.each([
      ['canonical', (n: string) => n],
      ['lower', (n: string) => n.toLowerCase()],
      ['upper', (n: string) => n.toUpperCase()],
      ['mixed', (n: string) => n.replace(/s/g, 'S')],
    ])('record with %s names', async (_, rename) => {
      const { body, headers } = signed();
      const renamed = Object.fromEntries(Object.entries(headers).map(([k, v]) => [rename(k), v]));
      expect(await verify(body, renamed)).toBe('ok');
    });
    it('Headers object and single-element arrays (Node IncomingHttpHeaders)', async () => {
      const { body, headers } = signed();
      expect(await verify(body, new Headers(headers))).toBe('ok');
      const arrays = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), [v]]));
      expect(await verify(body, { ...arrays, 'content-type': 'application/json' })).toBe('ok');
    });
    it('upper-case hex in nonce and signature is accepted (the signature covers the nonce as sent)', async () => {
      const upperNonce = NONCE.toUpperCase();
      const { body, headers } = signed({ nonce: upperNonce });
      const sig = headers['X-Svc-Signature']!;
      expect(
        await verify(body, { ...headers, 'X-Svc-Signature': `sha256=${sig.slice(7).toUpperCase()}` }),
      ).toBe('ok');
    });
  });

  describe('timestamp_out_of_range', () => {
    it('accepts exactly the tolerance in both directions, rejects 1 ms more', async () => {
      const { body, headers } = signed();
      expect(await verify(body, headers, { now: NOW + tolerance })).toBe('ok');
      expect(await verify(body, headers, { now: NOW - tolerance })).toBe('ok');
      expect(await verify(body, headers, { now: NOW + tolerance + 1 })).toBe('timestamp_out_of_range');
      expect(await verify(body, headers, { now: NOW - tolerance - 1 })).toBe('timestamp_out_of_range');
    });
    it('honours toleranceMs', async () => {
      const { body, headers } = signed();
      expect(await verify(body, headers, { now: NOW + 1001, toleranceMs: 1000 })).toBe(
        'timestamp_out_of_range',
      );
      expect(await verify(body, headers, { now: NOW + 1000, toleranceMs: 1000 })).toBe('ok');
    });
    it('uses Date.now by default (a fresh signature passes, a 10-minute-old one fails)', async () => {
      const fresh = await signWebhook({ secret: SECRET, payload: BODY });
      const stale = await signWebhook({ secret: SECRET, payload: BODY, timestamp: Date.now() - 600_000 });
      await expect(
        verifyWebhook({ payload: BODY, headers: { ...fresh }, secret: SECRET, nonceStore: false }),
      ).resolves.toBeTruthy();
      await expect(
        verifyWebhook({ payload: BODY, headers: { ...stale }, secret: SECRET, nonceStore: false }),
      ).rejects.toMatchObject({ reason: 'timestamp_out_of_range' });
    });
    it('is checked before the signature', async () => {
      const { body, headers } = signed({ timestamp: NOW - 10 * tolerance });
      expect(await verify(body, headers, { secret: 'wrong' })).toBe('timestamp_out_of_range');
    });
  });

  describe('signature_mismatch', () => {
    it('wrong secret, changed body, changed timestamp or nonce', async () => {
      const { body, headers } = signed();
      expect(await verify(body, headers, { secret: 'other' })).toBe('signature_mismatch');
      expect(await verify(`${body} `, headers)).toBe('signature_mismatch');
      expect(await verify(body, { ...headers, 'X-Svc-Timestamp': String(NOW + 1) })).toBe(
        'signature_mismatch',
      );
      expect(await verify(body, { ...headers, 'X-Svc-Nonce': NONCE.replace('0', '1') })).toBe(
        'signature_mismatch',
      );
    });
    it('a tampered body is reported as a mismatch even when it is no longer JSON or UTF-8', async () => {
      const { headers } = signed();
      expect(await verify(new Uint8Array([0xff, 0xfe]), headers)).toBe('signature_mismatch');
    });
  });

  describe('key rotation', () => {
    it('any secret of the list may match, in any position', async () => {
      const { body, headers } = signed({ secret: 'new-secret' });
      expect(await verify(body, headers, { secret: ['old-secret', 'new-secret'] })).toBe('ok');
      expect(await verify(body, headers, { secret: ['new-secret', 'old-secret'] })).toBe('ok');
      expect(await verify(body, headers, { secret: ['old-secret', 'older'] })).toBe('signature_mismatch');
    });
  });

  describe('invalid_payload (signed, but not an event)', () => {
    const cases: [string, string | Uint8Array][] = [
      ['not JSON', 'hello'],
      ['a JSON array', '[1,2]'],
      ['JSON null', 'null'],
      ['a JSON string', '"tweet.new"'],
      ['no eventType', '{"data":{}}'],
      ['a numeric eventType', '{"eventType":1}'],
      ['a BOM before the JSON', '\uFEFF{"eventType":"x"}'],
      ['invalid UTF-8 bytes', new Uint8Array([0x7b, 0xff, 0x7d])],
      [
        'a truncated UTF-8 sequence',
        new Uint8Array([...new TextEncoder().encode('{"eventType":"🎉'), 0xf0, 0x9f]),
      ],
    ];
    for (const [label, body] of cases) {
      it(label, async () => {
        const headers = await signWebhook({ secret: SECRET, payload: body, timestamp: NOW, nonce: NONCE });
        expect(await verify(body, { ...headers })).toBe('invalid_payload');
      });
    }
  });

  it('keeps unknown fields (the API may add fields)', async () => {
    const body = JSON.stringify({ eventType: 'tweet.new', brandNew: { x: 1 }, data: {} });
    const { headers } = signed({ body });
    const event = await verifyWebhook({
      payload: body,
      headers,
      secret: SECRET,
      now: () => NOW,
      nonceStore: false,
    });
    expect(event).toMatchObject({ brandNew: { x: 1 } });
  });

  it('always rejects (never throws synchronously), even for misuse', async () => {
    let pending: Promise<unknown> | undefined;
    expect(() => {
      pending = verifyWebhook({ payload: BODY, headers: {}, secret: '' });
    }).not.toThrow();
    await expect(pending).rejects.toThrow(TypeError);
  });
});

describe('errors', () => {
  it('exports the six reasons as a constant list', () => {
    expect(WEBHOOK_VERIFICATION_REASONS).toEqual([
      'missing_header',
      'malformed_header',
      'timestamp_out_of_range',
      'signature_mismatch',
      'nonce_replayed',
      'invalid_payload',
    ]);
  });
  it('the guard recognises the class, also across copies, and nothing else', () => {
    const e = new WebhookVerificationError('nonce_replayed', 'x');
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('WebhookVerificationError');
    expect(isWebhookVerificationError(e)).toBe(true);
    expect(isWebhookVerificationError(new Error('x'))).toBe(false);
    expect(isWebhookVerificationError({ reason: 'nonce_replayed' })).toBe(false);
    expect(isWebhookVerificationError(null)).toBe(false);
    const foreign = Object.assign(new Error('x'), {
      [Symbol.for('@xsvc/webhook-verifier/WebhookVerificationError')]: true,
    });
    expect(isWebhookVerificationError(foreign)).toBe(true);
  });
  it('never puts the secret or the expected signature in a message', async () => {
    const { body, headers } = signed();
    const error = await builds[0]
      .verifyWebhook({ payload: `${body}x`, headers, secret: SECRET, now: () => NOW, nonceStore: false })
      .catch((e: unknown) => e as Error);
    expect(String(error)).not.toContain(SECRET);
    expect(String(error)).not.toContain(headers['X-Svc-Signature']!.slice(7));
  });
  it('exports the header names', () => {
    expect(WEBHOOK_HEADERS).toEqual({
      timestamp: 'X-Svc-Timestamp',
      nonce: 'X-Svc-Nonce',
      signature: 'X-Svc-Signature',
    });
  });
});
