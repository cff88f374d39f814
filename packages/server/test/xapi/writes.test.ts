import { randomUUID } from 'node:crypto';
import { HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { X_SCOPES } from '../../src/platform/xapi/index.js';
import type { TestServer } from '../helpers/server.js';
import { write } from '../writes/helpers.js';
import { connectAccount, useXapiServer } from './accounts.js';
import { photoTweet, includes as tweetIncludes } from './fixtures/tweets.js';
import { twitterDev } from './fixtures/users.js';
import { USER_TOKENS, useXServer, xget, xroute } from './helpers.js';

const server = useXServer();
const ACCESS = 'user-access-writes';
USER_TOKENS[ACCESS] = X_SCOPES;

/** Bodies X received, by path. */
let received: { path: string; body: unknown }[] = [];

/** An X route that records the JSON body it got and answers `answer`. */
function xpost(method: 'post' | 'delete', path: string, answer: unknown | (() => Response)) {
  return xroute(method, path, async (url, request) => {
    received.push({
      path: url.pathname,
      body: method === 'post' ? await request.json().catch(() => undefined) : undefined,
    });
    return typeof answer === 'function' ? (answer as () => Response)() : (answer as object);
  });
}

describe('writes on xapi through the account’s own token', () => {
  const xapiServer = useXapiServer();
  let t: TestServer;
  beforeEach(async () => {
    t = xapiServer();
    received = [];
    await t.server.services.database.db.deleteFrom('x_accounts').execute();
    await connectAccount(t, { xUserId: '12', username: 'jack', accessToken: ACCESS, scope: X_SCOPES });
  });

  it('posts a reply quoting a post: the status URL becomes quote_tweet_id', async () => {
    server.use(xpost('post', '/2/tweets', { data: { id: '500', text: 'so true' } }));
    const res = await write(t, 'POST', '/api/v1/x/tweets', {
      account: 'jack',
      text: 'so true https://x.com/someone/status/20',
      reply_to_tweet_id: '10',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', result: { id: '500' } });
    expect(received).toEqual([
      {
        path: '/2/tweets',
        body: { text: 'so true', quote_tweet_id: '20', reply: { in_reply_to_tweet_id: '10' } },
      },
    ]);
  });

  it('a write whose answer is lost ends x_write_ambiguous, not safe to retry, and is never sent again', async () => {
    server.use(xpost('post', '/2/users/:id/likes', () => HttpResponse.error()));
    const key = randomUUID();
    const first = await write(
      t,
      'POST',
      '/api/v1/x/tweets/77/like',
      { account: 'jack' },
      { idempotencyKey: key },
    );
    expect(first.body).toMatchObject({ terminal: true, safeToRetry: false, error: 'x_write_ambiguous' });
    const again = await write(
      t,
      'POST',
      '/api/v1/x/tweets/77/like',
      { account: 'jack' },
      { idempotencyKey: key },
    );
    expect(again.body.id).toBe(first.body.id);
    const polled = await t.request('GET', `/api/v1/x/write-actions/${first.body.id}`);
    expect(polled.body).toMatchObject({ terminal: true, safeToRetry: false });
    expect(received).toHaveLength(1);
  });

  it('a 5xx from X is ambiguous too; a 429 was not performed and is safe to retry', async () => {
    server.use(
      xpost('post', '/2/users/:id/retweets', () =>
        HttpResponse.json({ title: 'Service Unavailable' }, { status: 503 }),
      ),
    );
    const busy = await write(t, 'POST', '/api/v1/x/tweets/78/retweet', { account: 'jack' });
    expect(busy.body).toMatchObject({ safeToRetry: false, error: 'x_write_ambiguous' });
    // The connection rests as a temporary issue (30 s), then the next write is sent.
    const resting = await write(t, 'POST', '/api/v1/x/tweets/79/retweet', { account: 'jack' });
    expect(resting.body).toMatchObject({ error: 'x_transient_error', safeToRetry: true });
    t.clock.advance(31_000);
    server.use(
      xpost('post', '/2/users/:id/retweets', () =>
        HttpResponse.json(
          { title: 'Too Many Requests' },
          { status: 429, headers: { 'x-rate-limit-reset': '2000000000' } },
        ),
      ),
    );
    const limited = await write(t, 'POST', '/api/v1/x/tweets/79/retweet', { account: 'jack' });
    expect(limited.body).toMatchObject({ safeToRetry: true, error: 'x_write_failed' });
    expect(received).toHaveLength(2);
  });

  it('follows a username: looked up as the account, then followed by id', async () => {
    server.use(
      xroute('get', '/2/users/by/username/:username', () => ({
        data: { id: '34', username: 'alice', name: 'Alice' },
      })),
      xpost('post', '/2/users/:id/following', { data: { following: true, pending_follow: false } }),
    );
    const res = await write(t, 'POST', '/api/v1/x/users/alice/follow', { account: 'jack' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(received).toEqual([{ path: '/2/users/12/following', body: { target_user_id: '34' } }]);
  });

  it('sends a direct message to a participant', async () => {
    server.use(
      xpost('post', '/2/dm_conversations/with/:id/messages', {
        data: { dm_conversation_id: '12-34', dm_event_id: '900' },
      }),
    );
    const res = await write(t, 'POST', '/api/v1/x/dm/34', { account: 'jack', text: 'hello' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ id: '900' });
    expect(received).toEqual([{ path: '/2/dm_conversations/with/34/messages', body: { text: 'hello' } }]);
  });

  it('X refusing the token is x_auth_failure, and the account needs a new approval', async () => {
    server.use(
      xpost('delete', '/2/tweets/:id', () => HttpResponse.json({ title: 'Unauthorized' }, { status: 401 })),
    );
    const res = await write(t, 'DELETE', '/api/v1/x/tweets/81', { account: 'jack' });
    expect(res.body).toMatchObject({ error: 'x_auth_failure' });
    const { accounts } = (await t.request('GET', '/api/v1/x/accounts')).body;
    expect(accounts[0].health).toBe('needsReauth');
  });

  it('refuses writes X API v2 has no endpoint for, naming the limitation, without calling X', async () => {
    const res = await write(t, 'PATCH', '/api/v1/x/profile', { account: 'jack', name: 'Jack' });
    expect(res.body).toMatchObject({ error: 'x_rejected' });
    expect(JSON.stringify(res.body)).toContain('no endpoint for profile updates');
    expect(received).toEqual([]);
  });

  it('reads bookmarks, the home timeline and a DM conversation with the account’s token', async () => {
    const auths: string[] = [];
    const asUser = (answer: unknown) => (_url: URL, request: Request) => {
      auths.push(request.headers.get('authorization') ?? '');
      return answer as object;
    };
    server.use(
      xget(
        '/2/users/12/bookmarks',
        asUser({ data: [photoTweet], includes: tweetIncludes, meta: { result_count: 1 } }),
      ),
      xget(
        '/2/users/12/timelines/reverse_chronological',
        asUser({ data: [photoTweet], includes: tweetIncludes, meta: {} }),
      ),
      xget('/2/users/:id', () => ({ data: { ...twitterDev, id: '34' } })),
      xget(
        '/2/dm_conversations/with/34/dm_events',
        asUser({
          data: [
            {
              id: '901',
              event_type: 'MessageCreate',
              text: 'hi',
              sender_id: '34',
              created_at: '2026-04-29T11:00:00.000Z',
            },
            {
              id: '900',
              event_type: 'MessageCreate',
              text: 'hello',
              sender_id: '12',
              created_at: '2026-04-29T10:00:00.000Z',
            },
          ],
          meta: { result_count: 2 },
        }),
      ),
    );
    const bookmarks = await t.request('GET', '/api/v1/x/bookmarks?account=jack');
    expect(bookmarks.status, JSON.stringify(bookmarks.body)).toBe(200);
    expect(bookmarks.body.tweets.map((tw: { id: string }) => tw.id)).toEqual([photoTweet.id]);
    const timeline = await t.request('GET', '/api/v1/x/timeline?account=jack');
    expect(timeline.status, JSON.stringify(timeline.body)).toBe(200);
    const dms = await t.request('GET', '/api/v1/x/dm/34/history?account=jack');
    expect(dms.status, JSON.stringify(dms.body)).toBe(200);
    expect(dms.body.messages).toMatchObject([
      { id: '901', senderId: '34', receiverId: '12', text: 'hi' },
      { id: '900', senderId: '12', receiverId: '34', text: 'hello' },
    ]);
    expect(auths).toEqual([`Bearer ${ACCESS}`, `Bearer ${ACCESS}`, `Bearer ${ACCESS}`]);
  });

  it('a private read X refuses the token for makes the account needsReauth', async () => {
    server.use(
      xget('/2/users/12/bookmarks', () => HttpResponse.json({ title: 'Unauthorized' }, { status: 401 })),
    );
    const res = await t.request('GET', '/api/v1/x/bookmarks?account=jack');
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('account_needs_reauth');
    expect((await t.request('GET', '/api/v1/x/accounts')).body.accounts[0].health).toBe('needsReauth');
  });
});
