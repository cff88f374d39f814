import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signWebhook, type WebhookEvent } from '@xsvc/webhook-verifier';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookHandler } from '../src/app.js';
import { serveFetch } from '../src/node-adapter.js';

const SECRET = 'whsec_web_example';
const events: WebhookEvent[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  server = serveFetch(createWebhookHandler({ secret: SECRET, onEvent: (event) => events.push(event) }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const body = JSON.stringify({
  eventType: 'tweet.new',
  schemaVersion: 1,
  deliveryId: 'dlv_web_1',
  streamEventId: 'evt_web_1',
  occurredAt: new Date().toISOString(),
  username: 'xsvc',
  data: { id: '1', text: 'hello 🎉 café' },
});

async function post(payload: string, headers: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    body: payload,
    headers: { 'content-type': 'application/json', ...headers },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('web (Request → Response) receiver over real HTTP', () => {
  it('accepts a signed delivery, then rejects its replay, a tampered body and a stale one; a redelivery is a duplicate', async () => {
    const signed = { ...(await signWebhook({ secret: SECRET, payload: body })) };
    expect(await post(body, signed)).toEqual({ status: 200, body: { ok: true } });

    expect(await post(body, signed)).toEqual({ status: 400, body: { error: 'nonce_replayed' } });

    const fresh = { ...(await signWebhook({ secret: SECRET, payload: body })) };
    expect(await post(body.replace('hello', 'HELLO'), fresh)).toEqual({
      status: 400,
      body: { error: 'signature_mismatch' },
    });

    const stale = {
      ...(await signWebhook({ secret: SECRET, payload: body, timestamp: Date.now() - 600_000 })),
    };
    expect(await post(body, stale)).toEqual({ status: 400, body: { error: 'timestamp_out_of_range' } });

    // The service retries with a new signature and nonce: same deliveryId, answered 2xx, not processed again.
    const redelivery = { ...(await signWebhook({ secret: SECRET, payload: body })) };
    expect(await post(body, redelivery)).toEqual({ status: 200, body: { ok: true, duplicate: true } });

    expect(events).toHaveLength(1);
    expect(events[0]).toEqual(JSON.parse(body));
  });

  it('rejects a delivery without signature headers, a repeated signature header, and a GET', async () => {
    expect(await post(body, {})).toEqual({ status: 400, body: { error: 'missing_header' } });
    const signed = { ...(await signWebhook({ secret: SECRET, payload: body })) };
    const repeated = new Headers({ ...signed, 'content-type': 'application/json' });
    repeated.append('X-Svc-Signature', signed['X-Svc-Signature']);
    const res = await fetch(url, { method: 'POST', body, headers: repeated });
    expect([res.status, await res.json()]).toEqual([400, { error: 'malformed_header' }]);
    expect((await fetch(url)).status).toBe(405);
  });

  it('a handler that throws gets 500 and the retry is processed', async () => {
    let calls = 0;
    const flaky = serveFetch(
      createWebhookHandler({
        secret: SECRET,
        onEvent: () => {
          calls++;
          if (calls === 1) throw new Error('database down');
        },
      }),
    );
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    const flakyUrl = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/`;
    const send = async () => {
      const headers = {
        ...(await signWebhook({ secret: SECRET, payload: body })),
        'content-type': 'application/json',
      };
      return (await fetch(flakyUrl, { method: 'POST', body, headers })).status;
    };
    const quiet = console.error;
    console.error = () => {};
    try {
      expect(await send()).toBe(500);
    } finally {
      console.error = quiet;
    }
    expect(await send()).toBe(200);
    expect(await send()).toBe(200);
    expect(calls).toBe(2);
    await new Promise<void>((resolve) => flaky.close(() => resolve()));
  });

  it('processes webhook.test deliveries every time (they carry no ids)', async () => {
    const test = JSON.stringify({
      eventType: 'webhook.test',
      data: { message: 'hi' },
      timestamp: new Date().toISOString(),
    });
    const before = events.length;
    for (let i = 0; i < 2; i++) {
      const headers = { ...(await signWebhook({ secret: SECRET, payload: test })) };
      expect(await post(test, headers)).toEqual({ status: 200, body: { ok: true } });
    }
    expect(events.length - before).toBe(2);
  });
});
