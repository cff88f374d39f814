import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';

/** Decodes a base64url JSON header value. */
function decode(value: unknown): Record<string, unknown> {
  return JSON.parse(Buffer.from(String(value), 'base64url').toString('utf8'));
}

/**
 * Machine payments end to end (spec 5.4) on the simulated platform's payment network: a 402 challenge,
 * `POST /sim/payments` pays it, the credential is accepted once (a replay is 402 `payment_failed`), every
 * answer after an accepted payment carries `Payment-Receipt`, and no credits move.
 */
describe.each(ENGINES)('machine payments (%s)', (engine) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(engine);
  });
  afterAll(() => t?.close());

  /** A fresh challenge of `url`, paid on the network: the `Authorization` value to retry with. */
  async function pay(url: string): Promise<{ authorization: string; challenge: string }> {
    const first = await t.request('GET', url, { key: null });
    expect(first.status).toBe(402);
    const challenge = String(first.headers['www-authenticate']);
    const paid = await t.request('POST', '/sim/payments', { body: { challenge } });
    expect(paid.status).toBe(200);
    expect(paid.body.authorization).toMatch(/^Payment [A-Za-z0-9_-]+$/);
    return { authorization: paid.body.authorization, challenge };
  }

  async function balance(): Promise<string> {
    return (await t.request('GET', '/api/v1/credits')).body.balance;
  }

  it('challenges with id, realm, method, intent, request and expires', async () => {
    const r = await t.request('GET', '/api/v1/x/tweets/20', { key: null });
    expect([r.status, r.body.error]).toEqual([402, 'no_credits']);
    const h = String(r.headers['www-authenticate']);
    expect(h).toMatch(
      /^Payment id="[^"]+", realm="svc", method="tempo", intent="charge", request="[^"]+", expires="[^"]+"$/,
    );
    const request = decode(/request="([^"]+)"/.exec(h)?.[1]);
    expect(request).toMatchObject({ amount: '150', currency: 'usd-micro' });
  });

  it('serves a paid read once, with a receipt, charging nothing', async () => {
    const before = await balance();
    const { authorization } = await pay('/api/v1/x/tweets/20');
    const ok = await t.request('GET', '/api/v1/x/tweets/20', { key: null, headers: { authorization } });
    expect(ok.status).toBe(200);
    expect(ok.body.tweet.id).toBe('20');
    const receipt = decode(ok.headers['payment-receipt']);
    expect(receipt).toMatchObject({ status: 'success', method: 'tempo' });
    expect(String(receipt.reference)).toMatch(/^pay_/);
    expect(Date.parse(String(receipt.timestamp))).not.toBeNaN();
    expect(await balance()).toBe(before);

    const replay = await t.request('GET', '/api/v1/x/tweets/20', { key: null, headers: { authorization } });
    expect([replay.status, replay.body.error, replay.body.reason]).toEqual([
      402,
      'payment_failed',
      'already_settled',
    ]);
    expect(String(replay.headers['www-authenticate'])).toMatch(/^Payment id=/);
    expect(replay.headers['payment-receipt']).toBeUndefined();
  });

  it('sends the receipt on a non-2xx answer after an accepted payment', async () => {
    const { authorization } = await pay('/api/v1/x/tweets/20');
    const missing = await t.request('GET', '/api/v1/x/tweets/999999999', {
      key: null,
      headers: { authorization },
    });
    expect(missing.status).toBe(404);
    expect(decode(missing.headers['payment-receipt']).status).toBe('success');
  });

  it('pays each of the 7 fixed-price reads at its own price', async () => {
    const reads: Array<[string, string]> = [
      ['/api/v1/x/tweets/20', '150'],
      ['/api/v1/x/users/jack', '150'],
      ['/api/v1/trends', '450'],
      ['/api/v1/x/trends', '450'],
    ];
    for (const [url, amount] of reads) {
      const { authorization, challenge } = await pay(url);
      expect(decode(/request="([^"]+)"/.exec(challenge)?.[1]).amount).toBe(amount);
      const r = await t.request('GET', url, { key: null, headers: { authorization } });
      expect([url, r.status]).toEqual([url, 200]);
      expect(r.headers['payment-receipt']).toBeDefined();
    }
  });

  it('refuses a credential paid for another price, a forged one and an unpaid one', async () => {
    const cheap = await pay('/api/v1/x/tweets/20');
    const wrong = await t.request('GET', '/api/v1/trends', {
      key: null,
      headers: { authorization: cheap.authorization },
    });
    expect([wrong.status, wrong.body.error, wrong.body.reason]).toEqual([
      402,
      'payment_failed',
      'wrong_amount',
    ]);

    const forged = decode(cheap.authorization.slice('Payment '.length));
    (forged.payload as Record<string, string>).reference = 'pay_00000000000000000000000000000000';
    const forgedAuth = `Payment ${Buffer.from(JSON.stringify(forged)).toString('base64url')}`;
    const f = await t.request('GET', '/api/v1/x/tweets/20', {
      key: null,
      headers: { authorization: forgedAuth },
    });
    expect([f.status, f.body.reason]).toEqual([402, 'not_paid']);

    const garbage = await t.request('GET', '/api/v1/x/tweets/20', {
      key: null,
      headers: { authorization: 'Payment !!' },
    });
    expect([garbage.status, garbage.body.error, garbage.body.reason]).toEqual([
      402,
      'payment_failed',
      'malformed_credential',
    ]);
  });

  it('pays a challenge once on the network, and only the owner pays; a foreign challenge is refused', async () => {
    const first = await t.request('GET', '/api/v1/x/tweets/20', { key: null });
    const challenge = String(first.headers['www-authenticate']);
    const a = await t.request('POST', '/sim/payments', { body: { challenge } });
    const b = await t.request('POST', '/sim/payments', { body: { challenge } });
    expect(b.body.reference).toBe(a.body.reference);
    expect((await t.request('POST', '/sim/payments', { key: null, body: { challenge } })).status).toBe(401);
    const foreign = challenge.replace(/id="[^"]+"/, 'id="forged"');
    const r = await t.request('POST', '/sim/payments', { body: { challenge: foreign } });
    expect([r.status, r.body.error]).toEqual([402, 'payment_failed']);
    const bad = await t.request('POST', '/sim/payments', { body: { challenge: 'Bearer x' } });
    expect([bad.status, bad.body.error]).toEqual([400, 'invalid_input']);
  });

  it('refuses to pay an expired challenge', async () => {
    const first = await t.request('GET', '/api/v1/x/tweets/20', { key: null });
    t.clock.advance(6 * 60_000);
    const r = await t.request('POST', '/sim/payments', {
      body: { challenge: String(first.headers['www-authenticate']) },
    });
    expect([r.status, r.body.reason]).toEqual([402, 'challenge_expired']);
  });
});
