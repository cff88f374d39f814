import { signWebhook, type WebhookEvent } from '@xsvc/webhook-verifier';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';

const SECRET = 'whsec_fastify_example';
const events: WebhookEvent[] = [];
const app = createApp({ secret: SECRET, onEvent: (event) => events.push(event) });
let url: string;

beforeAll(async () => {
  url = `${await app.listen({ port: 0, host: '127.0.0.1' })}/webhooks`;
});
afterAll(() => app.close());

const body = JSON.stringify({
  eventType: 'tweet.new',
  schemaVersion: 1,
  deliveryId: 'dlv_fastify_1',
  streamEventId: 'evt_fastify_1',
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

describe('fastify receiver over real HTTP', () => {
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

  it('rejects a delivery without signature headers, and a non-JSON content type', async () => {
    expect(await post(body, {})).toEqual({ status: 400, body: { error: 'missing_header' } });
    const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(415);
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
