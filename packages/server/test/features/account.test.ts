import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';

describe.each(ENGINES)('account, keys and credits (%s)', (engine) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(engine);
  });
  afterAll(async () => t?.close());

  it('answers the account with bigint-string credits and the deprecation headers of monitorsAllowed', async () => {
    const r = await t.request('GET', '/api/v1/account');
    expect(r.status).toBe(200);
    expect(r.body.plan).toBe('active');
    expect(r.body.monitorsAllowed).toBe(Number.MAX_SAFE_INTEGER);
    expect(r.body.creditInfo.balance).toMatch(/^\d+$/);
    expect(r.headers.deprecation).toMatch(/^@\d+$/);
    expect(String(r.headers.link)).toContain('rel="deprecation"');
  });

  it('renders the opt-in contract: snake_case and structured errors', async () => {
    const ok = await t.request('GET', '/api/v1/account', { headers: { 'svc-api-contract': '2026-04-29' } });
    expect(ok.body.monitor_billing.credits_per_active_monitor_hour).toBe('21');
    const bad = await t.request('GET', '/api/v1/account', {
      key: null,
      headers: { 'svc-api-contract': '2026-04-29' },
    });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({
      error: { type: 'authentication_error', code: 'unauthenticated', message: expect.any(String) },
    });
  });

  it('refuses missing, wrong and doubled credentials with 401 unauthenticated', async () => {
    expect((await t.request('GET', '/api/v1/account', { key: null })).body.error).toBe('unauthenticated');
    expect((await t.request('GET', '/api/v1/account', { key: `svc_${'0'.repeat(64)}` })).status).toBe(401);
    const both = await t.request('GET', '/api/v1/account', { headers: { authorization: `Bearer ${t.key}` } });
    expect(both.status).toBe(401);
    const bearer = await t.request('GET', '/api/v1/account', {
      key: null,
      headers: { authorization: `Bearer ${t.key}` },
    });
    expect(bearer.status).toBe(200);
  });

  it('validates bodies: invalid_json, invalid_input naming the field', async () => {
    const badJson = await t.request('PATCH', '/api/v1/account', { rawBody: '{"locale":' });
    expect(badJson.status).toBe(400);
    expect(badJson.body.error).toBe('invalid_json');
    const badLocale = await t.request('PATCH', '/api/v1/account', { body: { locale: 'fr' } });
    expect(badLocale.status).toBe(400);
    expect(badLocale.body.error).toBe('invalid_input');
    expect(badLocale.body.message).toContain('locale');
    const ok = await t.request('PATCH', '/api/v1/account', { body: { locale: 'es' } });
    expect(ok.body).toEqual({ success: true });
  });

  it('creates a key shown once, lists it without the secret, revokes it at once', async () => {
    const created = await t.request('POST', '/api/v1/api-keys', { body: { name: 'ci' } });
    expect(created.status).toBe(201);
    expect(created.body.fullKey).toMatch(/^svc_[0-9a-f]{64}$/);
    const list = await t.request('GET', '/api/v1/api-keys');
    const listed = list.body.keys.find((k: { id: string }) => k.id === created.body.id);
    expect(listed).toMatchObject({ name: 'ci', isActive: true });
    expect(JSON.stringify(list.body)).not.toContain(created.body.fullKey);
    expect((await t.request('GET', '/api/v1/account', { key: created.body.fullKey })).status).toBe(200);
    expect((await t.request('DELETE', `/api/v1/api-keys/${created.body.id}`)).body).toEqual({
      success: true,
    });
    expect((await t.request('GET', '/api/v1/account', { key: created.body.fullKey })).status).toBe(401);
    expect((await t.request('DELETE', `/api/v1/api-keys/${created.body.id}`)).status).toBe(404);
  });

  it('answers credits as bigint strings', async () => {
    const r = await t.request('GET', '/api/v1/credits');
    expect(r.status).toBe(200);
    expect(r.body.balance).toMatch(/^\d+$/);
  });

  it('answers unknown routes with 404 not_found, never 500', async () => {
    const r = await t.request('GET', '/api/v1/nope');
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('not_found');
  });
});
