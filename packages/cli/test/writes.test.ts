import { exampleResponse } from '@xsvc/sdk/testing';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { api, cli, fakeClock, recordRequests, serveMockedApi, V1 } from './helpers.js';

serveMockedApi();

const base = exampleResponse('createTweet') as Record<string, unknown>;
const action = (status: string, extra: Record<string, unknown> = {}) => ({
  ...base,
  id: 'wa_1',
  status,
  terminal: ['success', 'failed', 'expired'].includes(status),
  pollAfterMs: ['success', 'failed', 'expired'].includes(status) ? null : 500,
  ...extra,
});

/** The write answers 202 `accepted`; each poll moves it along `states`. */
function pendingWrite(states: string[]): { polls: () => number } {
  let polls = 0;
  api.use(
    http.post(`${V1}/x/tweets`, () => HttpResponse.json(action('accepted'), { status: 202 })),
    http.get(`${V1}/x/write-actions/:id`, () => {
      const state = states[Math.min(polls, states.length - 1)]!;
      polls++;
      return HttpResponse.json(action(state));
    }),
  );
  return { polls: () => polls };
}

describe('durable writes', () => {
  it('wait until final by default, polling on the clock the service asks for', async () => {
    const server = pendingWrite(['dispatching', 'pending_confirmation', 'success']);
    const clock = fakeClock();
    const res = await cli(['tweets', 'create', '--account', 'me', '--text', 'hello', '--json'], { clock });
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({ id: 'wa_1', status: 'success', terminal: true });
    expect(server.polls()).toBe(3);
    expect(clock.slept).toEqual([500, 500, 500]);
  });

  it('send an idempotency key (the given one with --idempotency-key)', async () => {
    pendingWrite(['success']);
    const seen = recordRequests();
    await cli(['tweets', 'create', '--account', 'me', '--text', 'hi', '--idempotency-key', 'k-1']);
    expect(seen[0]!.headers.get('idempotency-key')).toBe('k-1');
    seen.length = 0;
    await cli(['tweets', 'create', '--account', 'me', '--text', 'hi']);
    expect(seen[0]!.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('--no-wait prints the pending action and exits 8, with the command to watch it', async () => {
    const server = pendingWrite(['success']);
    const res = await cli(['tweets', 'create', '--account', 'me', '--text', 'hello', '--no-wait']);
    expect(res.code).toBe(8);
    expect(server.polls()).toBe(0);
    expect(res.stdout).toContain('status\taccepted');
    expect(res.stderr).toContain('xsvc write-actions watch wa_1');
  });

  it('a wait that runs out leaves the write pending: exit 8, never sent twice', async () => {
    pendingWrite(['dispatching']);
    const seen = recordRequests();
    const res = await cli(['tweets', 'create', '--account', 'me', '--text', 'x', '--wait-timeout', '2']);
    expect(res.code).toBe(8);
    expect(seen.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(seen.filter((r) => r.method === 'GET').length).toBe(4); // every 500 ms for 2 s
  });

  it('a failed write is an error saying whether a retry is safe', async () => {
    pendingWrite(['failed']);
    api.use(
      http.get(`${V1}/x/write-actions/:id`, () =>
        HttpResponse.json(
          action('failed', {
            error: 'x_rejected',
            safeToRetry: true,
            nextAction: { type: 'retry', requiresNewIdempotencyKey: true },
          }),
        ),
      ),
    );
    const res = await cli(['tweets', 'create', '--account', 'me', '--text', 'x']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('write wa_1 ended failed (x_rejected)');
    expect(res.stderr).toContain('Safe to retry');
  });

  it('an outcome to verify says so', async () => {
    api.use(
      http.post(`${V1}/x/tweets`, () =>
        HttpResponse.json(
          action('expired', { error: 'x_write_ambiguous', nextAction: { type: 'verify_result' } }),
        ),
      ),
    );
    const res = await cli(['tweets', 'create', '--account', 'me', '--text', 'x', '--json']);
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stderr)).toMatchObject({
      error: 'x_write_ambiguous',
      next: expect.stringMatching(/whether it happened/),
    });
  });

  it('write-actions watch <id> follows an existing write until final', async () => {
    const server = pendingWrite(['dispatching', 'success']);
    const clock = fakeClock();
    const res = await cli(['write-actions', 'watch', 'wa_1', '--json'], { clock });
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({ status: 'success' });
    expect(server.polls()).toBe(2);
    expect(clock.slept).toEqual([500]);
  });

  it('write-actions watch exits 8 when the wait runs out', async () => {
    pendingWrite(['dispatching']);
    const res = await cli(['write-actions', 'watch', 'wa_1', '--wait-timeout', '1']);
    expect(res.code).toBe(8);
  });

  it('shows the state it waits on, on stderr, on a terminal', async () => {
    pendingWrite(['dispatching', 'success']);
    const res = await cli(['tweets', 'create', '--account', 'me', '--text', 'x'], { tty: true });
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('Waiting for write wa_1');
  });
});

describe('a successful write says what was done', () => {
  it('tweets create: the tweet id and URL and the state, in a few lines; the full action with --json', async () => {
    const done = action('success', {
      account: { id: '7', username: 'jack' },
      result: { id: '1900000000000000123', type: 'tweet' },
      target: null,
      charged: true,
      chargedCredits: '1000',
      error: undefined,
    });
    api.use(http.post(`${V1}/x/tweets`, () => HttpResponse.json(done)));
    const res = await cli(['tweets', 'create', '--account', 'me', '--text', 'hello']);
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(8);
    expect(lines).toContain('status\tsuccess');
    expect(lines).toContain('tweet\t1900000000000000123');
    expect(lines).toContain('url\thttps://x.com/jack/status/1900000000000000123');
    expect(lines).toContain('write-id\twa_1');
    expect(res.stdout).not.toContain('requestHash');
    const json = await cli(['tweets', 'create', '--account', 'me', '--text', 'hello', '--json']);
    expect(json.json()).toMatchObject({ id: 'wa_1', status: 'success', requestHash: expect.any(String) });
  });

  it('a state change names the state and what it acted on', async () => {
    const liked = {
      ...action('success', {
        action: 'like',
        account: { id: '7', username: 'jack' },
        result: { state: 'liked', type: 'state_change' },
        target: { id: '20', type: 'tweet' },
        error: undefined,
      }),
    };
    delete (liked as Record<string, unknown>).tweetId;
    delete (liked as Record<string, unknown>).resultId;
    delete (liked as Record<string, unknown>).mediaUrl;
    api.use(http.post(`${V1}/x/tweets/:id/like`, () => HttpResponse.json(liked)));
    const res = await cli(['tweets', 'like', '20', '--account', 'me']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('state\tliked');
    expect(res.stdout).toContain('target\ttweet 20');
    expect(res.stdout).not.toContain('tweet\t');
  });
});
