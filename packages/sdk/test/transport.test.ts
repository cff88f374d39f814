import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Transport } from '../src/client/core.js';
import {
  AbortError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitError,
  ServiceError,
  TimeoutError,
} from '../src/client/errors.js';
import { getRoute, postRoute, scriptedFetch, writeRoute } from './helpers.js';

const KEY = `svc_${'ab'.repeat(32)}`;

function transport(f: typeof fetch, extra: Record<string, unknown> = {}) {
  const t = new Transport({ apiKey: KEY, baseUrl: 'http://svc.test', fetch: f, ...extra });
  t.random = () => 0.5;
  return t;
}

describe('Transport: requests', () => {
  it('skips headers whose value is undefined (an unset environment variable)', async () => {
    const ff = scriptedFetch([{ status: 200, body: {} }]);
    const t = transport(ff.fetch, { headers: { 'x-client-a': 'a', 'x-client-unset': undefined } });
    await t.call(getRoute, { id: '1' }, { headers: { 'x-call-b': 'b', 'x-call-unset': undefined } });
    const h = ff.calls[0]!.headers;
    expect(h['x-client-a']).toBe('a');
    expect(h['x-call-b']).toBe('b');
    expect('x-client-unset' in h).toBe(false);
    expect('x-call-unset' in h).toBe(false);
  });

  it('builds the URL, encodes path parameters and serializes the query', async () => {
    const ff = scriptedFetch([{ status: 200, body: { tweet: { id: '1' } } }]);
    const t = transport(ff.fetch);
    const r = await t.call(getRoute, {
      id: 'https://x.com/a/status/1',
      lang: 'en',
      ids: ['1', '2'],
      skip: undefined,
    });
    expect(r.data).toEqual({ tweet: { id: '1' } });
    expect(ff.calls[0]!.url).toBe(
      'http://svc.test/api/v1/x/tweets/https%3A%2F%2Fx.com%2Fa%2Fstatus%2F1?lang=en&ids=1%2C2',
    );
    expect(ff.calls[0]!.headers['x-api-key']).toBe(KEY);
    expect(ff.calls[0]!.headers.authorization).toBeUndefined();
  });

  it('splits query keys from body keys when an operation has both', async () => {
    const ff = scriptedFetch([
      { status: 202, body: { id: 'e1', toolType: 'follower_explorer', status: 'running' } },
    ]);
    const t = transport(ff.fetch);
    await t.call(
      { ...postRoute, id: 'createExtraction', path: '/api/v1/extractions', queryKeys: ['dry_run'] },
      { dry_run: true, toolType: 'follower_explorer', targetUsername: 'jack' },
    );
    expect(ff.calls[0]!.url).toBe('http://svc.test/api/v1/extractions?dry_run=true');
    expect(JSON.parse(ff.calls[0]!.body!)).toEqual({ toolType: 'follower_explorer', targetUsername: 'jack' });
  });

  it('refuses an API key together with a bearer token', () => {
    expect(() => new Transport({ apiKey: KEY, bearerToken: 'tok' })).toThrow(TypeError);
  });

  it('sends a bearer token in Authorization and reads XSVC_API_KEY / XSVC_BASE_URL from the environment', async () => {
    const ff = scriptedFetch([
      { status: 200, body: {} },
      { status: 200, body: {} },
    ]);
    await new Transport({ bearerToken: 'tok', baseUrl: 'http://svc.test', fetch: ff.fetch }).call(getRoute, {
      id: '1',
    });
    expect(ff.calls[0]!.headers.authorization).toBe('Bearer tok');
    expect(ff.calls[0]!.headers['x-api-key']).toBeUndefined();
    vi.stubEnv('XSVC_API_KEY', KEY);
    vi.stubEnv('XSVC_BASE_URL', 'http://env.test/');
    try {
      const t = new Transport({ fetch: ff.fetch });
      expect(t.baseUrl).toBe('http://env.test');
      await t.call(getRoute, { id: '1' });
      expect(ff.calls[1]!.headers['x-api-key']).toBe(KEY);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('defaults to a local server', () => {
    vi.stubEnv('XSVC_BASE_URL', '');
    try {
      expect(new Transport({ fetch: globalThis.fetch }).baseUrl).toBe('http://127.0.0.1:8787');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('throws a TypeError for a missing path parameter, before any request', async () => {
    const ff = scriptedFetch([]);
    await expect(transport(ff.fetch).call(getRoute, {})).rejects.toThrow(/missing path parameter "id"/);
    expect(ff.calls).toHaveLength(0);
  });

  it('keeps one Idempotency-Key per logical write, across its retries', async () => {
    vi.useFakeTimers();
    try {
      const ff = scriptedFetch([
        { status: 503, body: { error: 'write_tracking_unavailable', safeToRetry: true } },
        { status: 200, body: { id: 'w1', status: 'success', terminal: true } },
      ]);
      const p = transport(ff.fetch).call(writeRoute, { account: 'me', text: 'hi' });
      await vi.runAllTimersAsync();
      await p;
      expect(ff.calls).toHaveLength(2);
      const k = ff.calls[0]!.headers['idempotency-key'];
      expect(k).toMatch(/^[0-9a-f-]{36}$/);
      expect(ff.calls[1]!.headers['idempotency-key']).toBe(k);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('Transport: retry policy', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('honours Retry-After on 429 and retries', async () => {
    const ff = scriptedFetch([
      { status: 429, body: { error: 'rate_limit_exceeded', retryAfter: 2 }, headers: { 'retry-after': '2' } },
      { status: 200, body: { ok: true } },
    ]);
    const p = transport(ff.fetch).call(getRoute, { id: '1' });
    await vi.advanceTimersByTimeAsync(1_999);
    expect(ff.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(p).resolves.toMatchObject({ data: { ok: true } });
    expect(ff.calls[1]!.at - ff.calls[0]!.at).toBe(2_000);
  });

  it('gives up at once when Retry-After would pass the deadline', async () => {
    const ff = scriptedFetch([
      { status: 429, body: { error: 'rate_limit_exceeded' }, headers: { 'retry-after': '60' } },
    ]);
    const err = await transport(ff.fetch, { timeoutMs: 5_000 })
      .call(getRoute, { id: '1' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfter).toBe(60);
    expect(ff.calls).toHaveLength(1);
  });

  it('never retries x_daily_limit', async () => {
    const ff = scriptedFetch([
      { status: 429, body: { error: 'x_daily_limit' }, headers: { 'retry-after': '1' } },
    ]);
    await expect(transport(ff.fetch).call(getRoute, { id: '1' })).rejects.toMatchObject({
      code: 'x_daily_limit',
    });
    expect(ff.calls).toHaveLength(1);
  });

  it('retries transient 5xx/424 reads with backoff, at most 3 attempts', async () => {
    const ff = scriptedFetch([
      { status: 502, body: { error: 'x_api_unavailable' } },
      { status: 424, body: { error: 'x_api_unavailable' } },
      { status: 503, body: { error: 'service_unavailable' } },
      { status: 200, body: {} },
    ]);
    const p = transport(ff.fetch).call(getRoute, { id: '1' });
    const settled = p.catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    const err = await settled;
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).code).toBe('service_unavailable');
    expect(ff.calls).toHaveLength(3);
    // Exponential: 500 ms then 1000 ms with jitter fixed at the midpoint of [ceiling/2, ceiling].
    expect(ff.calls[1]!.at - ff.calls[0]!.at).toBe(375);
    expect(ff.calls[2]!.at - ff.calls[1]!.at).toBe(750);
  });

  it('does not retry a failed write unless the service says safeToRetry', async () => {
    const ff = scriptedFetch([{ status: 500, body: { error: 'x_write_failed', safeToRetry: false } }]);
    await expect(transport(ff.fetch).call(writeRoute, { account: 'me', text: 'x' })).rejects.toMatchObject({
      code: 'x_write_failed',
    });
    expect(ff.calls).toHaveLength(1);
  });

  it('retries network errors only for idempotent requests', async () => {
    const ff = scriptedFetch([{ error: new TypeError('fetch failed') }, { status: 200, body: { ok: 1 } }]);
    const p = transport(ff.fetch).call(getRoute, { id: '1' });
    await vi.runAllTimersAsync();
    await expect(p).resolves.toMatchObject({ data: { ok: 1 } });

    const ff2 = scriptedFetch([{ error: new TypeError('fetch failed') }, { status: 201, body: {} }]);
    await expect(transport(ff2.fetch).call(postRoute, { username: 'jack' })).rejects.toBeInstanceOf(
      ConnectionError,
    );
    expect(ff2.calls).toHaveLength(1);
  });

  it('never retries a 409 conflict blindly', async () => {
    const ff = scriptedFetch([{ status: 409, body: { error: 'monitor_already_exists' } }]);
    await expect(transport(ff.fetch).call(postRoute, { username: 'jack' })).rejects.toBeInstanceOf(
      ConflictError,
    );
    expect(ff.calls).toHaveLength(1);
  });

  it('retries coverage_cursor_unavailable once, after Retry-After, with the same cursor', async () => {
    const busy = {
      status: 409,
      body: { error: 'coverage_cursor_unavailable' },
      headers: { 'retry-after': '3' },
    };
    const ff = scriptedFetch([busy, busy]);
    const p = transport(ff.fetch).call(getRoute, { id: '1', cursor: 'c1' });
    const settled = p.catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    expect(await settled).toMatchObject({ code: 'coverage_cursor_unavailable' });
    expect(ff.calls).toHaveLength(2);
    expect(ff.calls[1]!.url).toBe(ff.calls[0]!.url);
    expect(ff.calls[1]!.at - ff.calls[0]!.at).toBe(3_000);
  });

  it('times out the whole call, retries included', async () => {
    const ff = scriptedFetch([{ status: 503, body: { error: 'service_unavailable' } }, { hang: true }]);
    const p = transport(ff.fetch, { timeoutMs: 2_000 }).call(getRoute, { id: '1' });
    const settled = p.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await settled).toBeInstanceOf(TimeoutError);
    expect(ff.calls).toHaveLength(2);
  });

  it('aborts at once when the signal fires, even while waiting to retry', async () => {
    const ff = scriptedFetch([
      { status: 429, body: { error: 'rate_limit_exceeded' }, headers: { 'retry-after': '30' } },
    ]);
    const ac = new AbortController();
    const p = transport(ff.fetch).call(getRoute, { id: '1' }, { signal: ac.signal });
    const settled = p.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    ac.abort();
    expect(await settled).toBeInstanceOf(AbortError);
  });
});

describe('Transport: errors', () => {
  it('parses the default error body into a typed error with its code, reason and request id', async () => {
    const ff = scriptedFetch([
      {
        status: 404,
        body: { error: 'tweet_not_found', message: 'gone', reason: 'deleted' },
        headers: { 'x-request-id': 'req_1' },
      },
    ]);
    const err = (await transport(ff.fetch)
      .call(getRoute, { id: '1' })
      .catch((e: unknown) => e)) as NotFoundError;
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err).toMatchObject({
      status: 404,
      code: 'tweet_not_found',
      reason: 'deleted',
      requestId: 'req_1',
    });
    expect(err.message).toBe('tweet_not_found: gone');
  });

  it('parses the structured error of the opt-in contract', async () => {
    const ff = scriptedFetch([
      {
        status: 401,
        body: { error: { type: 'authentication_error', code: 'unauthenticated', message: 'no key' } },
      },
    ]);
    const err = await transport(ff.fetch, { contract: '2026-04-29' })
      .call(getRoute, { id: '1' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err).toMatchObject({ code: 'unauthenticated', type: 'authentication_error' });
    expect(ff.calls[0]!.headers['svc-api-contract']).toBe('2026-04-29');
  });

  it('exposes payment options and the Payment challenge on 402 without paying', async () => {
    const request = btoa(JSON.stringify({ amount: '150', currency: 'usd' })).replace(/=+$/, '');
    const ff = scriptedFetch([
      {
        status: 402,
        body: { error: 'insufficient_credits', payment_options: [{ type: 'topup' }] },
        headers: {
          'www-authenticate': `Payment id="ch_1", realm="svc", method="tempo", intent="charge", request="${request}"`,
        },
      },
    ]);
    const err = (await transport(ff.fetch)
      .call(getRoute, { id: '1' })
      .catch((e: unknown) => e)) as PaymentRequiredError;
    expect(err).toBeInstanceOf(PaymentRequiredError);
    expect(err.paymentOptions).toEqual([{ type: 'topup' }]);
    expect(err.paymentChallenge).toMatchObject({ id: 'ch_1', intent: 'charge', request: { amount: '150' } });
    expect(ff.calls).toHaveLength(1);
  });

  it('redacts credentials inside errors', async () => {
    const ff = scriptedFetch([{ status: 400, body: { error: 'invalid_input' } }]);
    const err = (await transport(ff.fetch)
      .call(getRoute, { id: '1' })
      .catch((e: unknown) => e)) as NotFoundError;
    expect(JSON.stringify(err.request)).not.toContain(KEY);
    expect(err.request?.headers['x-api-key']).toBe('svc_…abab');
  });

  it('maps an unknown code by its status, so a newer server cannot break the client', async () => {
    const ff = scriptedFetch([{ status: 404, body: { error: 'brand_new_code' } }]);
    await expect(transport(ff.fetch).call(getRoute, { id: '1' })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('Transport: contracts and deprecations', () => {
  it('normalizes opt-in answers to the default shape', async () => {
    const ff = scriptedFetch([
      {
        status: 200,
        body: {
          object: 'list',
          events: [{ id: 'evt_1', occurred_at: 1777464000, monitor_id: 'mon_1' }],
          has_more: true,
          next_cursor: 'c2',
        },
      },
    ]);
    const r = await transport(ff.fetch, { contract: '2026-04-29' }).call(
      {
        ...getRoute,
        id: 'listEvents',
        path: '/api/v1/events',
        pathParams: [],
        pagination: 'A',
        items: 'events',
      },
      {},
    );
    expect(r.data).toEqual({
      object: 'list',
      events: [{ id: 'evt_1', occurredAt: '2026-04-29T12:00:00.000Z', monitorId: 'mon_1' }],
      hasMore: true,
      nextCursor: 'c2',
    });
  });

  it('keeps snake_case keys of the default contract (style B pagination)', async () => {
    const ff = scriptedFetch([
      {
        status: 200,
        body: { tweets: [{ id: '1', quoted_tweet: { id: '2' } }], has_more: false, next_cursor: '' },
      },
    ]);
    const r = await transport(ff.fetch, { contract: '2026-04-29' }).call(
      {
        ...getRoute,
        id: 'searchTweets',
        path: '/api/v1/x/tweets/search',
        pathParams: [],
        pagination: 'B',
        items: 'tweets',
        snakeKeys: ['quoted_tweet'],
      },
      {},
    );
    expect(r.data).toEqual({
      tweets: [{ id: '1', quoted_tweet: { id: '2' } }],
      has_next_page: false,
      next_cursor: '',
    });
  });

  it('warns once per deprecated item, through the logger', async () => {
    const warn = vi.fn();
    const dep = {
      deprecation: '@1767225600',
      link: '<https://svc.test/deprecations.md>; rel="deprecation"; type="text/markdown"',
    };
    const ff = scriptedFetch([
      { status: 200, body: {}, headers: dep },
      { status: 200, body: {}, headers: dep },
    ]);
    const t = transport(ff.fetch, { logger: { warn } });
    await t.call(getRoute, { id: '1' });
    await t.call(getRoute, { id: '1' });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toContain('Deprecation: @1767225600');
  });
});
