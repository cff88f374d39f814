import { mockError } from '@xsvc/sdk/testing';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { api, BASE, cli, recordRequests, serveMockedApi, V1 } from './helpers.js';

serveMockedApi();

const answer = (status: number, code: string, extra: Record<string, unknown> = {}, headers?: HeadersInit) =>
  api.use(http.get(`${V1}/x/tweets/:id`, () => mockError(status, code, extra, headers)));

describe('errors of the service: code, message, next step on stderr, and the exit code of their family', () => {
  it.each([
    [400, 'invalid_tweet_id', 1, /Fix the request/],
    [401, 'unauthenticated', 4, /refused the key svc_…9f2a from XSVC_API_KEY \(environment\)/],
    [402, 'insufficient_credits', 5, /Nothing was charged\. Top up with `xsvc credits topup --dollars 10`/],
    [403, 'account_restricted', 1, /Not permitted/],
    [404, 'tweet_not_found', 1, /check the id/],
    [422, 'x_rejected', 1, /change the request/],
    [500, 'internal_error', 1, /temporary failure/],
    [503, 'service_unavailable', 1, /temporary failure/],
  ])('HTTP %i %s → exit %i', async (status, code, exit, next) => {
    answer(status, code);
    const res = await cli(['tweets', 'get', '1790000000000000001']);
    expect(res.code).toBe(exit);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(`error: ${code} (HTTP ${status}): ${code} (mock)`);
    expect(res.stderr).toMatch(next);
  });

  it('429: says when to retry (Retry-After), exit 6', async () => {
    answer(429, 'rate_limit_exceeded', { retryAfter: 30 }, { 'retry-after': '30' });
    const res = await cli(['tweets', 'get', '1790000000000000001']);
    expect(res.code).toBe(6);
    expect(res.stderr).toContain('retry after 30 s');
  });

  it('with --json, the error is one JSON object on stderr', async () => {
    answer(402, 'no_credits');
    const res = await cli(['tweets', 'get', '1790000000000000001', '--json']);
    expect(res.code).toBe(5);
    expect(res.stdout).toBe('');
    const err = JSON.parse(res.stderr) as Record<string, unknown>;
    expect(err).toMatchObject({ error: 'no_credits', status: 402, message: 'no_credits (mock)' });
    expect(err.next).toMatch(/no credits left/);
  });

  it('retries a transient failure (XSVC_MAX_RETRIES), then succeeds', async () => {
    let calls = 0;
    api.use(
      http.get(`${V1}/account`, () => {
        calls++;
        return calls === 1 ? mockError(503, 'service_unavailable', {}, { 'retry-after': '0' }) : undefined;
      }),
    );
    const res = await cli(['account', 'get', '--json'], { env: { XSVC_MAX_RETRIES: '1' } });
    expect(res.code).toBe(0);
    expect(calls).toBe(2);
  });

  it('a bad XSVC_MAX_RETRIES is a usage error', async () => {
    const res = await cli(['account', 'get'], { env: { XSVC_MAX_RETRIES: 'many' } });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('XSVC_MAX_RETRIES');
  });

  it('a 404 carries the reason the service gave', async () => {
    answer(404, 'tweet_not_found', { reason: 'deleted' });
    const res = await cli(['tweets', 'get', '1790000000000000001']);
    expect(res.stderr).toContain('(reason: deleted)');
  });

  it('an unreachable service is an error naming the base URL', async () => {
    api.use(http.get(`${V1}/account`, () => Response.error()));
    const res = await cli(['account', 'get']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('connection_error');
    expect(res.stderr).toContain(BASE);
  });

  it('without a key: exit 4 before any request, saying how to log in', async () => {
    const seen = recordRequests();
    const res = await cli(['account', 'get'], { env: { XSVC_API_KEY: undefined } });
    expect(res.code).toBe(4);
    expect(res.stderr).toContain('xsvc login');
    expect(seen).toHaveLength(0);
  });

  it('Ctrl-C (the aborted signal) stops the call: exit 130', async () => {
    const res = await cli(['account', 'get'], { signal: AbortSignal.abort() });
    expect(res.code).toBe(130);
    expect(res.stderr).toContain('cancelled');
  });

  it('public operations need no key', async () => {
    const res = await cli(['discovery', 'health'], { env: { XSVC_API_KEY: undefined } });
    expect(res.code).toBe(0);
  });
});

describe('usage errors: exit 2, naming the flag, before any request', () => {
  it.each([
    [['tweets', 'search'], /<query> \(or --q\) is required/],
    [['tweets', 'search', 'x', '--query-type', 'Oldest'], /--query-type.*Latest, Top/],
    [['tweets', 'search', 'x', '--min-faves', 'lots'], /--min-faves expects a number/],
    [['tweets', 'search', 'x', '--limit', '0'], /--limit expects a whole number/],
    [['draws', 'list', '--limit', 'x'], /--limit/],
    [['monitors', 'create', 'jack'], /--events is required/],
    [['monitors', 'create', 'jack', '--events', 'tweet.new,nope'], /--events: "nope" is not one of/],
    [['monitors', 'create', 'not a user!', '--events', 'tweet.new'], /<username>: must be a username/],
    [['monitors', 'update', '7', '--is-active', 'maybe'], /--is-active.*true or false/],
    [['tweets', 'favoriters', '1', '--page-size', '5'], /--page-size: Too small/],
    [['tweets', 'get'], /missing required argument 'tweet'/],
    [['tweets', 'gett', '1'], /unknown command 'gett'/],
    [['tweets', 'get', '1', '--frobnicate'], /unknown option '--frobnicate'/],
    [['monitors', 'create', '--data', '{nope'], /--data: not valid JSON/],
    [['monitors', 'create', '--data', '[1]'], /--data must be a JSON object/],
    [['styles', 'save', 'jack', '--label', 'J', '--tweets', '@missing.json'], /--tweets: cannot read/],
    [['tweets', 'search', 'a', '--q', 'b'], /pass <query> or --q, not both/],
  ])('%j', async (argv, message) => {
    const seen = recordRequests();
    const res = await cli(argv);
    expect(res.stderr).toMatch(message);
    expect(res.code).toBe(2);
    expect(seen).toHaveLength(0);
  });

  it('a usage error with --json is a JSON object naming the flag', async () => {
    const res = await cli(['tweets', 'search', 'x', '--min-faves', 'lots', '--json']);
    expect(res.code).toBe(2);
    expect(JSON.parse(res.stderr)).toMatchObject({ error: 'invalid_input', flag: '--min-faves' });
  });

  it('a resource without an action prints its help on stderr, exit 2', async () => {
    const res = await cli(['monitors']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('Usage: xsvc monitors');
  });
});
