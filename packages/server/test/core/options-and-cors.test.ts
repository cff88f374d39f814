import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/core/config.js';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * OPTIONS on the API routes (204 with `Allow`, counted in the read tier of spec 8.1) and CORS, which is off
 * by default and, with `XSVC_CORS_ORIGINS`, opens the API routes (never the dashboard, the sign-in routes
 * or the OAuth consent page) to exactly the origins named, never with cookies.
 */
const ORIGIN = 'http://127.0.0.1:5173';
const OTHER = 'http://evil.test:5173';

async function options(t: TestServer, url: string, headers: Record<string, string> = {}) {
  return t.server.app.inject({ method: 'OPTIONS', url, headers });
}

describe.each(ENGINES)('OPTIONS on API routes (%s)', (engine) => {
  let t: TestServer;
  beforeAll(async () => {
    // The older figures: 60 reads per second, so the limit is reached in a few requests.
    t = await startTestServer(engine, { rateLimits: 'older' });
  });
  afterAll(() => t?.close());

  it("answers 204 with Allow listing the path's methods, without credentials", async () => {
    const list = await options(t, '/api/v1/draws');
    expect(list.statusCode).toBe(204);
    expect(list.body).toBe('');
    expect(list.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    const one = await options(t, '/api/v1/webhooks/123');
    expect(one.statusCode).toBe(204);
    expect(one.headers.allow).toBe('PATCH, DELETE, OPTIONS');
    expect((await options(t, '/health')).headers.allow).toBe('GET, HEAD, OPTIONS');
    // CORS is off: no Access-Control header, even for a preflight.
    const preflight = await options(t, '/api/v1/draws', {
      origin: ORIGIN,
      'access-control-request-method': 'POST',
    });
    expect(preflight.statusCode).toBe(204);
    expect(Object.keys(preflight.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('answers 404 not_found to OPTIONS on a path that is not an API route', async () => {
    const r = await options(t, '/api/v1/no-such-thing');
    expect(r.statusCode).toBe(404);
    expect(JSON.parse(r.body)).toMatchObject({ error: 'not_found' });
  });

  it("counts OPTIONS in the caller's read tier: 429 rate_limit_exceeded past 60 per second", async () => {
    const before = await t.request('GET', '/api/v1/draws');
    expect(before.status).toBe(200);
    const remaining = Number(before.headers['x-ratelimit-remaining']);
    for (let i = 0; i < remaining; i++) {
      const r = await options(t, '/api/v1/draws', { 'x-api-key': t.key });
      expect(r.statusCode).toBe(204);
      expect(Number(r.headers['x-ratelimit-remaining'])).toBe(remaining - 1 - i);
    }
    const over = await options(t, '/api/v1/draws', { 'x-api-key': t.key });
    expect(over.statusCode).toBe(429);
    expect(JSON.parse(over.body)).toMatchObject({ error: 'rate_limit_exceeded', retryAfter: 1 });
    expect(over.headers['retry-after']).toBe('1');
    // The same tier as the GETs: the next read is refused too, until the window ends.
    expect((await t.request('GET', '/api/v1/draws')).status).toBe(429);
    t.clock.advance(1000);
    expect((await t.request('GET', '/api/v1/draws')).status).toBe(200);
  });

  it('counts an OPTIONS without credentials per client address, like the public reads', async () => {
    t.clock.advance(1000);
    const address = { 'x-forwarded-for': '198.51.100.7' };
    for (let i = 0; i < 60; i++) expect((await options(t, '/api/v1/draws', address)).statusCode).toBe(204);
    expect((await options(t, '/api/v1/draws', address)).statusCode).toBe(429);
    // Another address and the owner's key have windows of their own; a wrong key is counted as the address.
    expect((await options(t, '/api/v1/draws', { 'x-forwarded-for': '198.51.100.8' })).statusCode).toBe(204);
    expect((await options(t, '/api/v1/draws', { 'x-api-key': t.key })).statusCode).toBe(204);
    const wrong = { ...address, 'x-api-key': `svc_${'0'.repeat(64)}` };
    expect((await options(t, '/api/v1/draws', wrong)).statusCode).toBe(429);
  });
});

describe('CORS with XSVC_CORS_ORIGINS', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite', { corsOrigins: `${ORIGIN}, https://app.example.com` });
  });
  afterAll(() => t?.close());

  const preflight = (origin: string, url = '/api/v1/draws', method = 'POST') =>
    options(t, url, {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'x-api-key, content-type, idempotency-key',
    });

  it('answers a preflight from an allowed origin: methods, headers, max age, and no credentials', async () => {
    const r = await preflight(ORIGIN);
    expect(r.statusCode).toBe(204);
    expect(r.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(r.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, OPTIONS');
    expect(String(r.headers['access-control-allow-headers']).split(', ')).toEqual([
      'x-api-key',
      'svc-api-key',
      'authorization',
      'idempotency-key',
      'svc-api-contract',
      'content-type',
      'x-xsvc-client',
    ]);
    expect(r.headers['access-control-max-age']).toBe('600');
    expect(r.headers['access-control-allow-credentials']).toBeUndefined();
    expect(r.headers.vary).toContain('Origin');
    expect(r.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('gives no Access-Control-Allow-Origin to an origin not named (exact match only)', async () => {
    for (const origin of [OTHER, 'http://127.0.0.1:5174', 'https://app.example.com.evil.test', 'null']) {
      const r = await preflight(origin);
      expect(r.statusCode).toBe(204);
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('lets an allowed page read answers, errors included, and the headers clients read', async () => {
    const ok = await t.request('GET', '/api/v1/draws', { headers: { origin: ORIGIN } });
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(ok.headers['access-control-allow-credentials']).toBeUndefined();
    const exposed = String(ok.headers['access-control-expose-headers']).split(', ');
    for (const h of ['retry-after', 'x-request-id', 'x-ratelimit-remaining']) expect(exposed).toContain(h);
    const denied = await t.request('GET', '/api/v1/draws', { key: null, headers: { origin: ORIGIN } });
    expect(denied.status).toBe(401);
    expect(denied.headers['access-control-allow-origin']).toBe(ORIGIN);
  });

  it('never opens the dashboard, the sign-in routes or the OAuth consent page', async () => {
    for (const url of ['/dashboard', '/auth/magic-link', '/api/oauth/authorize']) {
      const get = await t.server.app.inject({ method: 'GET', url, headers: { origin: ORIGIN } });
      expect(get.headers['access-control-allow-origin'], url).toBeUndefined();
      const pre = await preflight(ORIGIN, url, 'POST');
      expect(pre.headers['access-control-allow-origin'], url).toBeUndefined();
    }
    // The consent page answers OPTIONS (it is an API route), without CORS.
    expect((await preflight(ORIGIN, '/api/oauth/authorize', 'GET')).statusCode).toBe(204);
    // A cookie-authenticated write from the allowed origin is still refused (CSRF): CORS is for keys.
    const csrf = await t.request('POST', '/api/v1/draws', {
      key: null,
      body: { tweetUrl: 'https://x.com/jack/status/20' },
      headers: { origin: ORIGIN, cookie: 'session_token=abc' },
    });
    expect(csrf.status).toBe(403);
    expect(csrf.body).toMatchObject({ error: 'forbidden' });
  });
});

describe('XSVC_CORS_ORIGINS values', () => {
  it('takes exact origins, comma-separated, and refuses a wildcard, a path or a trailing slash', () => {
    expect(parseConfig({}).corsOrigins).toEqual([]);
    expect(parseConfig({ corsOrigins: ' https://a.example ,http://127.0.0.1:8080,' }).corsOrigins).toEqual([
      'https://a.example',
      'http://127.0.0.1:8080',
    ]);
    expect(() => parseConfig({ corsOrigins: '*' })).toThrow(/XSVC_CORS_ORIGINS: "\*" is not an origin/);
    expect(() => parseConfig({ corsOrigins: 'https://a.example/' })).toThrow(
      /did you mean https:\/\/a\.example\?/,
    );
    expect(() => parseConfig({ corsOrigins: 'https://a.example/app' })).toThrow(/is not an origin/);
    expect(() => parseConfig({ corsOrigins: 'HTTPS://A.example' })).toThrow(
      /did you mean https:\/\/a.example/,
    );
    expect(() => parseConfig({ corsOrigins: 'ftp://a.example' })).toThrow(/is not an origin/);
  });
});
