import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createApiKey } from '../../src/core/auth/accounts.js';
import { ENGINES, startTestServer } from '../helpers/server.js';
import { type Receiver, startReceiver, startWebhookServer, type WebhookTestServer } from './helpers.js';

describe.each(ENGINES)('webhook operations (%s)', (engine) => {
  let t: WebhookTestServer;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await startWebhookServer(engine);
    receiver = await startReceiver(() => t.clock.now());
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  async function create(url = receiver.url, eventTypes = ['tweet.new', 'tweet.reply']) {
    const r = await t.request('POST', '/api/v1/webhooks', { body: { url, eventTypes } });
    expect(r.status).toBe(201);
    return r.body as { id: string; url: string; secret: string; eventTypes: string[]; createdAt: string };
  }

  it('creates a webhook: 201 with a hex secret shown once, a big-integer id and the creation time', async () => {
    const r = await t.request('POST', '/api/v1/webhooks', {
      body: { url: receiver.url, eventTypes: ['tweet.new'] },
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^\d+$/),
      url: receiver.url,
      eventTypes: ['tweet.new'],
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
      createdAt: new Date(t.clock.now()).toISOString(),
    });
    const list = await t.request('GET', '/api/v1/webhooks');
    expect(JSON.stringify(list.body)).not.toContain(r.body.secret);
  });

  it('accepts a public https URL after checking where it resolves', async () => {
    const r = await t.request('POST', '/api/v1/webhooks', {
      body: { url: 'https://hooks.example.com/xsvc', eventTypes: ['tweet.quote'] },
    });
    expect(r.status).toBe(201);
    expect(r.body.url).toBe('https://hooks.example.com/xsvc');
  });

  it('lists webhooks with deliveryStatus, consecutiveFailures and failureHardCap, without secrets', async () => {
    const created = await create();
    const r = await t.request('GET', '/api/v1/webhooks');
    expect(r.status).toBe(200);
    const found = r.body.webhooks.find((w: { id: string }) => w.id === created.id);
    expect(found).toEqual({
      id: created.id,
      url: receiver.url,
      eventTypes: ['tweet.new', 'tweet.reply'],
      isActive: true,
      deliveryStatus: 'active',
      consecutiveFailures: 0,
      failureHardCap: 50,
      createdAt: created.createdAt,
    });
    expect(found).not.toHaveProperty('secret');
  });

  it.each([
    ['no url', { eventTypes: ['tweet.new'] }],
    ['no eventTypes', { url: 'https://hooks.example.com/x' }],
    ['empty eventTypes', { url: 'https://hooks.example.com/x', eventTypes: [] }],
    ['an unknown event type', { url: 'https://hooks.example.com/x', eventTypes: ['tweet.deleted'] }],
    ['webhook.test as a type', { url: 'https://hooks.example.com/x', eventTypes: ['webhook.test'] }],
    ['repeated types', { url: 'https://hooks.example.com/x', eventTypes: ['tweet.new', 'tweet.new'] }],
    ['plain http to a public host', { url: 'http://hooks.example.com/x', eventTypes: ['tweet.new'] }],
    ['a private address', { url: 'https://10.0.0.8/hook', eventTypes: ['tweet.new'] }],
    ['cloud metadata', { url: 'https://169.254.169.254/latest', eventTypes: ['tweet.new'] }],
    ['an IPv4-mapped loopback', { url: 'https://[::ffff:127.0.0.1]/', eventTypes: ['tweet.new'] }],
    ['a hex loopback', { url: 'https://0x7f000001/', eventTypes: ['tweet.new'] }],
    ['https to loopback', { url: 'https://127.0.0.1:8443/', eventTypes: ['tweet.new'] }],
    ['user info', { url: 'https://a:b@hooks.example.com/', eventTypes: ['tweet.new'] }],
    ['a name that does not resolve', { url: 'https://nowhere.example.org/', eventTypes: ['tweet.new'] }],
    ['not a URL', { url: 'hooks', eventTypes: ['tweet.new'] }],
    ['a number as url', { url: 42, eventTypes: ['tweet.new'] }],
  ])('refuses a create with %s: 400 invalid_input', async (_name, body) => {
    const r = await t.request('POST', '/api/v1/webhooks', { body });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid_input');
  });

  it('refuses a body that is not JSON with invalid_json, and no credentials with 401', async () => {
    const bad = await t.request('POST', '/api/v1/webhooks', { rawBody: '{"url":' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_json');
    const anon = await t.request('GET', '/api/v1/webhooks', { key: null });
    expect(anon.status).toBe(401);
    expect(anon.body.error).toBe('unauthenticated');
  });

  it('updates the URL, the event types and isActive; validates each', async () => {
    const w = await create();
    const r = await t.request('PATCH', `/api/v1/webhooks/${w.id}`, {
      body: { eventTypes: ['profile.bio.changed'], url: `${receiver.url}?v=2` },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: w.id,
      url: `${receiver.url}?v=2`,
      eventTypes: ['profile.bio.changed'],
      isActive: true,
      deliveryStatus: 'active',
    });
    const off = await t.request('PATCH', `/api/v1/webhooks/${w.id}`, { body: { isActive: false } });
    expect(off.body).toMatchObject({ isActive: false, deliveryStatus: 'paused' });
    const on = await t.request('PATCH', `/api/v1/webhooks/${w.id}`, { body: { isActive: true } });
    expect(on.body).toMatchObject({ isActive: true, deliveryStatus: 'active' });
    for (const body of [{}, { url: 'https://192.168.0.1/' }, { eventTypes: [] }, { isActive: 'yes' }]) {
      const bad = await t.request('PATCH', `/api/v1/webhooks/${w.id}`, { body });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('invalid_input');
    }
    const still = await t.request('GET', '/api/v1/webhooks');
    expect(still.body.webhooks.find((x: { id: string }) => x.id === w.id).url).toBe(`${receiver.url}?v=2`);
  });

  it('deletes with DELETE: success, then no longer listed or found (unlike a paused one)', async () => {
    const w = await create();
    const paused = await create();
    expect(
      (await t.request('PATCH', `/api/v1/webhooks/${paused.id}`, { body: { isActive: false } })).status,
    ).toBe(200);
    const r = await t.request('DELETE', `/api/v1/webhooks/${w.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true });
    const list = await t.request('GET', '/api/v1/webhooks');
    const ids = list.body.webhooks.map((x: { id: string }) => x.id);
    expect(ids).not.toContain(w.id);
    expect(list.body.webhooks.find((x: { id: string }) => x.id === paused.id)).toMatchObject({
      isActive: false,
      deliveryStatus: 'paused',
    });
    for (const [method, path, body] of [
      ['POST', `/api/v1/webhooks/${w.id}/test`, undefined],
      ['PATCH', `/api/v1/webhooks/${w.id}`, { isActive: true }],
      ['DELETE', `/api/v1/webhooks/${w.id}`, undefined],
      ['GET', `/api/v1/webhooks/${w.id}/deliveries`, undefined],
    ] as const) {
      const again = await t.request(method, path, body ? { body } : {});
      expect([method, path, again.status, again.body.error]).toEqual([method, path, 404, 'not_found']);
    }
  });

  it('answers 404 not_found for unknown ids and for another account’s webhook, on every operation', async () => {
    const w = await create();
    const db = t.server.services.database.db;
    const other = await createAccount(db, {
      email: `other-${engine}@example.com`,
      isOwner: false,
      credits: 0n,
      now: t.clock.now(),
    });
    const otherKey = await createApiKey(db, { accountId: other.id, name: 'other', now: t.clock.now() });
    const calls = [
      ['PATCH', 'x', { eventTypes: ['tweet.new'] }],
      ['DELETE', '', undefined],
      ['GET', '/deliveries', undefined],
      ['POST', '/test', undefined],
      ['POST', '/resume', undefined],
    ] as const;
    for (const [method, suffix, body] of calls) {
      const path = suffix === 'x' ? '' : suffix;
      for (const [id, key] of [
        ['123456789', t.key],
        [w.id, otherKey.fullKey],
      ] as const) {
        const r = await t.request(method, `/api/v1/webhooks/${id}${path}`, {
          key,
          ...(body !== undefined && { body }),
        });
        expect(r.status, `${method} ${path} ${id}`).toBe(404);
        expect(r.body.error).toBe('not_found');
      }
    }
    const theirs = await t.request('GET', '/api/v1/webhooks', { key: otherKey.fullKey });
    expect(theirs.body.webhooks).toEqual([]);
  });

  it('lists deliveries (none yet) for an existing webhook', async () => {
    const w = await create();
    const r = await t.request('GET', `/api/v1/webhooks/${w.id}/deliveries`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ deliveries: [] });
  });

  it('tests an endpoint: a signed webhook.test payload, success and statusCode in the answer', async () => {
    const w = await create();
    receiver.secret = w.secret;
    receiver.respond = () => ({ status: 204 });
    const before = receiver.received.length;
    const r = await t.request('POST', `/api/v1/webhooks/${w.id}/test`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, statusCode: 204 });
    const got = receiver.received[before]!;
    expect(got.verifyError).toBeUndefined();
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/hooks/xsvc');
    expect(JSON.parse(got.body)).toEqual({
      eventType: 'webhook.test',
      data: { message: expect.any(String) },
      timestamp: new Date(t.clock.now()).toISOString(),
    });
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toBe('xsvc-webhooks/1.0');
    expect(got.headers['x-svc-timestamp']).toBe(String(t.clock.now()));
    expect(got.headers['x-svc-nonce']).toMatch(/^[0-9a-f]{32}$/);
    expect(got.headers['x-svc-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('reports a failing test: success false with the status, or status 0 and the error when unreachable', async () => {
    const w = await create();
    receiver.secret = w.secret;
    receiver.respond = () => ({ status: 503 });
    const r = await t.request('POST', `/api/v1/webhooks/${w.id}/test`);
    expect(r.body).toEqual({ success: false, statusCode: 503, error: 'HTTP 503' });
    receiver.respond = () => ({ status: 302, headers: { location: 'http://127.0.0.1:1/' } });
    const redirect = await t.request('POST', `/api/v1/webhooks/${w.id}/test`);
    expect(redirect.body).toMatchObject({ success: false, statusCode: 302 });
    expect(redirect.body.error).toMatch(/redirect .* not followed/);
    receiver.secret = 'wrong';
    const unsigned = await t.request('POST', `/api/v1/webhooks/${w.id}/test`);
    expect(unsigned.body).toMatchObject({ success: false, statusCode: 401 });
    receiver.respond = () => ({ status: 200 });
  });

  it('resumes only when the signed test succeeds: 400 with success false otherwise', async () => {
    const w = await create();
    receiver.secret = w.secret;
    receiver.respond = () => ({ status: 500 });
    const failed = await t.request('POST', `/api/v1/webhooks/${w.id}/resume`);
    expect(failed.status).toBe(400);
    expect(failed.body).toMatchObject({ error: 'invalid_input', success: false, statusCode: 500 });
    receiver.respond = () => ({ status: 200 });
    const ok = await t.request('POST', `/api/v1/webhooks/${w.id}/resume`);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      success: true,
      statusCode: 200,
      webhook: { id: w.id, deliveryStatus: 'active', consecutiveFailures: 0 },
    });
  });

  it('answers in the opt-in contract too (snake_case, Unix seconds)', async () => {
    const w = await create();
    const r = await t.request('GET', '/api/v1/webhooks', { headers: { 'svc-api-contract': '2026-04-29' } });
    // Under the opt-in contract, ids carry their kind's prefix.
    const found = r.body.webhooks.find((x: { id: string }) => x.id === `wh_${w.id}`);
    expect(found).toMatchObject({
      object: 'webhook',
      delivery_status: 'active',
      failure_hard_cap: 50,
      is_active: true,
    });
    expect(found.created_at).toBe(Math.floor(t.clock.now() / 1000));
  });
});

describe('webhooks in the full server', () => {
  it('are mounted by createServer (operations and engine), and plain http needs XSVC_ALLOW_LOOPBACK_WEBHOOKS', async () => {
    const strict = await startTestServer('sqlite');
    try {
      const r = await strict.request('POST', '/api/v1/webhooks', {
        body: { url: 'http://127.0.0.1:9/hook', eventTypes: ['tweet.new'] },
      });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid_input');
      expect((await strict.request('GET', '/api/v1/webhooks')).body).toEqual({ webhooks: [] });
    } finally {
      await strict.close();
    }
    const dev = await startTestServer('sqlite', { allowLoopbackWebhooks: true });
    try {
      const r = await dev.request('POST', '/api/v1/webhooks', {
        body: { url: 'http://localhost:9/hook', eventTypes: ['tweet.new'] },
      });
      expect(r.status).toBe(201);
    } finally {
      await dev.close();
    }
  });
});
