import { delay, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { PlatformUnavailableError } from '../../src/core/platform/platform.js';
import { XApiClient, XApiRequestError } from '../../src/platform/xapi/index.js';
import { clientForbidden, invalidRequest, serviceUnavailable, tooManyRequests } from './fixtures/errors.js';
import { twitterDev } from './fixtures/users.js';
import { BASE, NOW, rejection, seen, TOKEN, useXServer, xget } from './helpers.js';

const server = useXServer();

function client(extra: { timeoutMs?: number; token?: string } = {}) {
  return new XApiClient({
    bearerToken: extra.token ?? TOKEN,
    baseUrl: `${BASE}/`,
    now: () => NOW,
    timeoutMs: extra.timeoutMs,
  });
}

/** Everything an error exposes, as text: its message and own properties. */
function exposed(err: Error): string {
  return `${err.message} ${JSON.stringify({ ...err })} ${String(err.stack)}`;
}

describe('XApiClient', () => {
  it('sends the app bearer token and the query, and answers the parsed body', async () => {
    server.use(xget('/2/users/by/username/TwitterDev', { data: twitterDev }));
    const res = await client().get('/2/users/by/username/TwitterDev', {
      'user.fields': 'created_at,url',
      skip: undefined,
    });
    expect(res.data).toEqual(twitterDev);
    expect(seen[0]?.searchParams.get('user.fields')).toBe('created_at,url');
    expect(seen[0]?.searchParams.has('skip')).toBe(false);
  });

  it('maps 401 to x_api_unauthorized', async () => {
    server.use(xget('/2/users/1', {}));
    const err = await rejection(client({ token: 'wrong-token' }).get('/2/users/1'));
    expect(err).toBeInstanceOf(PlatformUnavailableError);
    expect(err.code).toBe('x_api_unauthorized');
    expect(err.message).toContain('401');
  });

  it('maps 403 (app not enrolled) to x_api_unauthorized with X’s explanation', async () => {
    server.use(xget('/2/users/1', HttpResponse.json(clientForbidden, { status: 403 })));
    const err = await rejection(client().get('/2/users/1'));
    expect(err.code).toBe('x_api_unauthorized');
    expect(err.message).toContain('Client Forbidden');
  });

  it('maps 429 to x_api_rate_limited with the wait until x-rate-limit-reset', async () => {
    const reset = String(NOW / 1000 + 120);
    const headers = {
      'x-rate-limit-limit': '300',
      'x-rate-limit-remaining': '0',
      'x-rate-limit-reset': reset,
    };
    server.use(xget('/2/tweets/search/recent', HttpResponse.json(tooManyRequests, { status: 429, headers })));
    const err = await rejection(client().get('/2/tweets/search/recent', { query: 'x' }));
    expect(err.code).toBe('x_api_rate_limited');
    expect(err.retryAfterSeconds).toBe(120);
    expect(err.message).toContain('120 s');
  });

  it('falls back to retry-after, and never answers a wait below one second', async () => {
    server.use(
      xget(
        '/2/users/1',
        HttpResponse.json(tooManyRequests, { status: 429, headers: { 'retry-after': '7' } }),
      ),
    );
    expect((await rejection(client().get('/2/users/1'))).retryAfterSeconds).toBe(7);
    const past = { 'x-rate-limit-reset': String(NOW / 1000 - 5) };
    server.use(xget('/2/users/2', HttpResponse.json(tooManyRequests, { status: 429, headers: past })));
    expect((await rejection(client().get('/2/users/2'))).retryAfterSeconds).toBe(1);
  });

  it('maps 5xx to x_api_unavailable', async () => {
    server.use(xget('/2/tweets/1', HttpResponse.json(serviceUnavailable, { status: 503 })));
    const err = await rejection(client().get('/2/tweets/1'));
    expect(err.code).toBe('x_api_unavailable');
    expect(err.message).toContain('503');
  });

  it('maps a network failure to x_api_unavailable', async () => {
    server.use(xget('/2/tweets/1', HttpResponse.error()));
    const err = await rejection(client().get('/2/tweets/1'));
    expect(err.code).toBe('x_api_unavailable');
    expect(err.message).toContain('could not be reached');
  });

  it('gives up after the timeout with x_api_unavailable', async () => {
    server.use(
      xget('/2/tweets/1', async () => {
        await delay('infinite');
        return {};
      }),
    );
    const err = await rejection(client({ timeoutMs: 50 }).get('/2/tweets/1'));
    expect(err.code).toBe('x_api_unavailable');
    expect(err.message).toContain('did not answer');
  });

  it('defaults to https://api.x.com', () => {
    expect(new XApiClient({ bearerToken: TOKEN }).baseUrl).toBe('https://api.x.com');
  });

  it('turns other 4xx into an XApiRequestError carrying the status and X’s problem', async () => {
    server.use(
      xget(
        '/2/tweets/search/recent',
        HttpResponse.json(
          invalidRequest('There were errors processing your request: no viable alternative'),
          {
            status: 400,
          },
        ),
      ),
    );
    const err = await rejection(client().get('/2/tweets/search/recent', { query: '(' }));
    expect(err).toBeInstanceOf(XApiRequestError);
    expect(err).toBeInstanceOf(PlatformUnavailableError);
    expect(err.code).toBe('x_api_unavailable');
    expect(err.status).toBe(400);
    expect(err.problem).toMatchObject({ title: 'Invalid Request' });
  });

  it('answers x_api_unavailable for a 2xx body that is not JSON', async () => {
    server.use(xget('/2/users/1', new HttpResponse('<html>oops</html>', { status: 200 })));
    expect((await rejection(client().get('/2/users/1'))).code).toBe('x_api_unavailable');
  });

  it('refuses to start without a token', () => {
    expect(() => new XApiClient({ bearerToken: '' })).toThrow(TypeError);
  });
});

describe('XApiClient never leaks the token', () => {
  // An upstream (or a proxy) that echoes the Authorization header into its error details.
  const echo = (status: number) =>
    xget('/2/users/3', (_url, request) =>
      HttpResponse.json(
        { title: 'Echo', detail: `you sent ${request.headers.get('authorization')}`, type: 'about:blank' },
        { status, headers: { 'x-rate-limit-reset': String(NOW / 1000 + 60) } },
      ),
    );

  for (const status of [400, 401, 403, 404, 429, 500, 503]) {
    it(`redacts it from a ${status} error`, async () => {
      server.use(echo(status));
      const err = await rejection(client().get('/2/users/3'));
      expect(err).toBeInstanceOf(PlatformUnavailableError);
      // 429 names only the wait; the others quote X's problem, with the echoed token cut out.
      if (status !== 429) expect(err.message).toContain('[redacted]');
      expect(exposed(err)).not.toContain(TOKEN);
    });
  }

  it('keeps it out of network and timeout errors', async () => {
    server.use(xget('/2/users/4', HttpResponse.error()));
    expect(exposed(await rejection(client().get('/2/users/4')))).not.toContain(TOKEN);
    server.use(
      xget('/2/users/5', async () => {
        await delay('infinite');
        return {};
      }),
    );
    expect(exposed(await rejection(client({ timeoutMs: 30 }).get('/2/users/5')))).not.toContain(TOKEN);
  });
});
