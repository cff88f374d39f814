/**
 * The filtered stream's rule edits in the app's request budget (`X_API_MONITOR_SOURCE=stream`): the
 * `x-rate-limit-*` headers of `POST /2/tweets/search/stream/rules` feed the budget like every app request's,
 * and while X said that window is spent a rule edit is not sent.
 */
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { endpointOf, XRateBudget, XStreamSource } from '../../src/platform/xapi/index.js';
import { STREAM_RULES_ENDPOINT } from '../../src/platform/xapi/rate-budget.js';
import { StreamRulesClient } from '../../src/platform/xapi/stream-rules.js';
import { userClient } from '../../src/platform/xapi/user-client.js';
import { useMigratedDatabase } from '../helpers/server.js';
import { BASE, NOW, rejection, TOKEN, useXServer, xget, xroute } from './helpers.js';

const server = useXServer();

/** A rules client of the app, its answers heard by `budget`, on a clock the test moves. */
function rulesClient() {
  const clock = { now: NOW };
  const now = () => clock.now;
  const budget = new XRateBudget({ now });
  const client = new StreamRulesClient(
    userClient({
      accessToken: TOKEN,
      asApp: true,
      baseUrl: BASE,
      timeoutMs: 5_000,
      onAnswer: (path, status, headers, method) => budget.observe(path, status, headers, method),
    }),
    now,
    budget,
  );
  return { client, budget, clock };
}

/** X's answer to a rules edit, with the window's figures. */
function rulesAnswer(state: { remaining: number; resetAt: number; posts: number; throttled?: boolean }) {
  return xroute('post', '/2/tweets/search/stream/rules', () => {
    state.posts++;
    const headers = {
      'x-rate-limit-limit': '450',
      'x-rate-limit-remaining': String(state.throttled ? 0 : state.remaining),
      'x-rate-limit-reset': String(Math.floor(state.resetAt / 1000)),
    };
    if (state.throttled) {
      return HttpResponse.json(
        { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
        { status: 429, headers },
      );
    }
    return HttpResponse.json(
      {
        meta: {
          sent: new Date(NOW).toISOString(),
          summary: { created: 1, not_created: 0, valid: 1, invalid: 0 },
        },
      },
      { headers },
    );
  });
}

describe('stream rule edits in the request budget', () => {
  it('names the POST endpoint apart from the GET one', () => {
    expect(endpointOf('/2/tweets/search/stream/rules', 'POST')).toBe(STREAM_RULES_ENDPOINT);
    expect(endpointOf('/2/tweets/search/stream/rules')).toBe('GET /2/tweets/search/stream/rules');
  });

  it('counts a rule edit from its x-rate-limit headers', async () => {
    const state = { remaining: 449, resetAt: NOW + 15 * 60_000, posts: 0 };
    server.use(rulesAnswer(state));
    const { client, budget } = rulesClient();
    expect(budget.limitOf(STREAM_RULES_ENDPOINT)).toBe(0);
    await client.add([{ value: 'dogs', tag: 'xsvc:q:0123456789abcdef:1' }]);
    expect(state.posts).toBe(1);
    expect(budget.limitOf(STREAM_RULES_ENDPOINT)).toBe(450);
    expect(budget.spentUntil(STREAM_RULES_ENDPOINT)).toBeUndefined();
  });

  it('after a 429 holds every rule edit, sending nothing, until the window resets', async () => {
    const state = { remaining: 10, resetAt: NOW + 5 * 60_000, posts: 0, throttled: true };
    server.use(rulesAnswer(state));
    const { client, budget, clock } = rulesClient();
    const first = await rejection(client.add([{ value: 'cats', tag: 'xsvc:q:0123456789abcdef:1' }]));
    expect(first.code).toBe('x_api_rate_limited');
    expect(state.posts).toBe(1);
    expect(budget.spentUntil(STREAM_RULES_ENDPOINT)).toBe(Math.floor(state.resetAt / 1000) * 1000);
    for (const edit of [
      () => client.add([{ value: 'cats', tag: 'xsvc:q:0123456789abcdef:1' }]),
      () => client.delete(['1']),
      () => client.validate('cats'),
    ]) {
      const err = await rejection(edit());
      expect(err.code).toBe('x_api_rate_limited');
      expect(err.message).toMatch(
        /POST \/2\/tweets\/search\/stream\/rules is spent.*not sent; the window resets in 300 s/,
      );
    }
    expect(state.posts).toBe(1);
    state.throttled = false;
    clock.now = state.resetAt + 1_000;
    await client.add([{ value: 'cats', tag: 'xsvc:q:0123456789abcdef:1' }]);
    expect(state.posts).toBe(2);
  });
});

describe('a keyword monitor’s rule through the stream source, with the app’s budget', () => {
  const db = useMigratedDatabase('sqlite');

  it('feeds the budget from the rules requests, and refuses the rule while POST …/rules is spent', async () => {
    const state = { remaining: 449, resetAt: NOW + 5 * 60_000, posts: 0, throttled: false };
    const headers = () => ({
      'x-rate-limit-limit': '450',
      'x-rate-limit-remaining': '449',
      'x-rate-limit-reset': String(Math.floor(state.resetAt / 1000)),
    });
    server.use(
      rulesAnswer(state),
      xget('/2/tweets/search/stream/rules', () =>
        HttpResponse.json(
          { meta: { sent: new Date(NOW).toISOString(), result_count: 0 } },
          { headers: headers() },
        ),
      ),
      xget('/2/tweets/search/stream/rules/counts', () =>
        HttpResponse.json({ data: { cap_per_client_app: 1000 } }, { headers: headers() }),
      ),
    );
    const budget = new XRateBudget({ now: () => NOW });
    const source = new XStreamSource({
      db: db().db,
      bearerToken: TOKEN,
      baseUrl: BASE,
      limits: { maxRules: 10, maxRuleLength: 100 },
      now: () => NOW,
      budget,
    });
    try {
      await source.admitQuery('dogs');
      expect(state.posts).toBeGreaterThanOrEqual(1);
      expect(budget.limitOf(STREAM_RULES_ENDPOINT)).toBe(450);
      expect(budget.limitOf('GET /2/tweets/search/stream/rules')).toBe(450);
      state.throttled = true;
      const posts = state.posts;
      expect((await rejection(source.admitQuery('cats'))).code).toBe('x_api_rate_limited');
      expect(state.posts).toBe(posts + 1);
      expect((await rejection(source.admitQuery('birds'))).code).toBe('x_api_rate_limited');
      expect(state.posts).toBe(posts + 1);
    } finally {
      await source.stop();
    }
  });
});
