/**
 * Machine payments through the SDK (spec 5.4): an anonymous client gets a `PaymentRequiredError` with the
 * parsed challenge, pays it explicitly on the simulated network, builds the `Authorization` value with the
 * error's helper and retries; the answer carries a `Payment-Receipt` the SDK decodes. The SDK never pays by
 * itself: the first call fails and nothing is retried.
 */
import { PaymentRequiredError, parsePaymentReceipt, Xsvc } from '@xsvc/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { XsvcServer } from '../../src/app/app.js';
import { bootstrapOwner } from '../../src/app/bootstrap.js';
import { createServer } from '../../src/app/server.js';
import { parseConfig } from '../../src/core/config.js';

const KEY = `svc_${'6b'.repeat(32)}`;
let server: XsvcServer;
let url: string;

beforeAll(async () => {
  const config = parseConfig({ databaseUrl: ':memory:', seedSize: 'tiny', logLevel: 'silent', keyFile: '' });
  server = await createServer(config);
  await bootstrapOwner(server.services.database, { ...config, bootstrapApiKey: KEY }, Date.now());
  url = await server.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => server?.close());

describe('the SDK with a machine payment', () => {
  it('exposes the challenge, builds the credential from an explicit payment, and reads the receipt', async () => {
    const seen: Response[] = [];
    const recording: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      seen.push(res);
      return res;
    };
    const anonymous = new Xsvc({ baseUrl: url, apiKey: '', fetch: recording, maxRetries: 0 });
    const error = await anonymous.tweets.get('20').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentRequiredError);
    const e = error as PaymentRequiredError;
    expect(seen).toHaveLength(1);
    const challenge = e.paymentChallenge;
    expect(challenge).toMatchObject({ realm: 'svc', method: 'tempo', intent: 'charge' });
    expect(challenge?.request).toMatchObject({ amount: '150', currency: 'usd-micro' });
    expect(challenge?.expires).toMatch(/Z$/);

    // The explicit payment: the caller pays the challenge on the simulated platform's network.
    const paid = await fetch(`${url}/sim/payments`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ challenge: challenge?.raw }),
    });
    const payment = (await paid.json()) as { payload: unknown; authorization: string };
    const authorization = e.paymentAuthorization({ payload: payment.payload });

    const { tweet } = await anonymous.tweets.get('20', { headers: { authorization } });
    expect(tweet.id).toBe('20');
    const receipt = parsePaymentReceipt(seen.at(-1)?.headers.get('payment-receipt') ?? '');
    expect(receipt).toMatchObject({ status: 'success', method: 'tempo' });
    expect(receipt?.reference).toMatch(/^pay_/);

    const replay = await anonymous.tweets.get('20', { headers: { authorization } }).catch((x: unknown) => x);
    expect(replay).toBeInstanceOf(PaymentRequiredError);
    expect((replay as PaymentRequiredError).code).toBe('payment_failed');
  });

  it('refuses to build a credential from an answer with no challenge', () => {
    const e = new PaymentRequiredError({
      status: 402,
      code: 'insufficient_credits',
      message: 'x',
      type: 'billing_error',
      retry: 'never',
    });
    expect(() => e.paymentAuthorization({ payload: {} })).toThrow(TypeError);
  });
});

describe('a machine payment with plain HTTP (what curl sends)', () => {
  it('pays the challenge, retries with a hand-built Authorization, and gets a receipt; a replay is refused', async () => {
    const first = await fetch(`${url}/api/v1/trends`);
    expect(first.status).toBe(402);
    const challenge = first.headers.get('www-authenticate') ?? '';
    const param = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(challenge)?.[1] ?? '';
    const paid = await fetch(`${url}/sim/payments`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ challenge }),
    });
    const { payload } = (await paid.json()) as { payload: unknown };
    // The credential by hand: the challenge's parameters plus the network's payload, as base64url JSON.
    const credential = {
      challenge: {
        id: param('id'),
        realm: param('realm'),
        method: param('method'),
        intent: param('intent'),
        request: param('request'),
        expires: param('expires'),
      },
      payload,
    };
    const authorization = `Payment ${Buffer.from(JSON.stringify(credential)).toString('base64url')}`;
    const ok = await fetch(`${url}/api/v1/trends`, { headers: { authorization } });
    expect(ok.status).toBe(200);
    const receipt = JSON.parse(Buffer.from(ok.headers.get('payment-receipt') ?? '', 'base64url').toString());
    expect(receipt).toMatchObject({ status: 'success', method: 'tempo' });
    const replay = await fetch(`${url}/api/v1/trends`, { headers: { authorization } });
    expect(replay.status).toBe(402);
    expect(((await replay.json()) as { error: string }).error).toBe('payment_failed');
  });
});
