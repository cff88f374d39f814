import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpError } from '../../src/core/http/errors.js';
import { toHttpError } from '../../src/core/http/platform-errors.js';
import { PlatformUnavailableError } from '../../src/core/platform/platform.js';
import { InvalidCursorError, SimulatedControl } from '../../src/platform/simulated/index.js';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';
import { connect, type Network, network, setBalance } from './fixtures.js';

describe('platform failures become their HTTP answers', () => {
  it('maps unavailable to 502 (424 under the opt-in contract), a rate limit to 503 x_api_rate_limited, bad cursors to 400', () => {
    const down = new PlatformUnavailableError('x_api_unavailable', 'down');
    expect(toHttpError(down, false)).toMatchObject({ code: 'x_api_unavailable', status: 502 });
    expect(toHttpError(down, true)).toMatchObject({ code: 'x_api_unavailable', status: 424 });
    const busy = toHttpError(
      new PlatformUnavailableError('x_api_rate_limited', 'busy', 30),
      false,
    ) as HttpError;
    expect(busy).toMatchObject({ code: 'x_api_rate_limited', status: 503, headers: { 'retry-after': '30' } });
    expect(toHttpError(new InvalidCursorError(), false)).toMatchObject({
      code: 'invalid_input',
      status: 400,
    });
    const other = new Error('bug');
    expect(toHttpError(other, false)).toBe(other);
  });
});

/**
 * Malformed requests (400 with the right code, never 500), missing resources, pagination, the opt-in
 * contract and trends clamping, on one server per engine.
 */
describe.each(ENGINES)('read errors and behaviour (%s)', (engine) => {
  let t: TestServer;
  let n: Network;
  let control: SimulatedControl;
  beforeAll(async () => {
    t = await startTestServer(engine);
    n = await network(t);
    await setBalance(t, n.ownerId, 1_000_000);
    control = new SimulatedControl(t.server.services.database.db, t.clock);
  });
  afterAll(async () => t?.close());

  const expectError = async (
    method: 'GET' | 'POST',
    url: string,
    status: number,
    code: string,
    body?: unknown,
  ) => {
    const r = await t.request(method, url, body === undefined ? {} : { body });
    expect({ url, status: r.status, code: r.body?.error }).toEqual({ url, status, code });
    return r.body;
  };

  it('refuses bad GET parameters: wrong types, missing required, oversize page sizes', async () => {
    const cases: [string, string][] = [
      ['/api/v1/x/tweets', 'missing_ids'],
      ['/api/v1/x/tweets?ids=', 'missing_ids'],
      [`/api/v1/x/tweets?ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`, 'too_many_ids'],
      ['/api/v1/x/tweets?ids=12,abc', 'invalid_input'],
      ['/api/v1/x/users/batch', 'missing_ids'],
      [`/api/v1/x/users/batch?ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`, 'too_many_ids'],
      ['/api/v1/x/tweets/search', 'missing_query'],
      ['/api/v1/x/tweets/search?q=a&queryType=Oldest', 'invalid_input'],
      ['/api/v1/x/tweets/search?q=a&limit=0', 'invalid_input'],
      ['/api/v1/x/tweets/search?q=a&sinceTime=yesterday', 'invalid_input'],
      ['/api/v1/x/tweets/abc', 'invalid_tweet_id'],
      ['/api/v1/x/tweets/abc/replies', 'invalid_tweet_id'],
      [`/api/v1/x/tweets/${n.likedTweet}/favoriters?pageSize=5`, 'invalid_input'],
      [`/api/v1/x/tweets/${n.likedTweet}/favoriters?pageSize=1000`, 'invalid_input'],
      [`/api/v1/x/tweets/${n.giveawayTweet}/replies?pageSize=301`, 'invalid_input'],
      [`/api/v1/x/tweets/${n.giveawayTweet}/replies?pageSize=ten`, 'invalid_input'],
      [`/api/v1/x/tweets/${n.giveawayTweet}/replies?sort=random`, 'invalid_input'],
      [`/api/v1/x/tweets/${n.giveawayTweet}/quotes?minFaves=-1`, 'invalid_input'],
      ['/api/v1/x/users/search?q=a&pageSize=101', 'invalid_input'],
      ['/api/v1/x/users/not%20a%20user', 'invalid_username'],
      ['/api/v1/x/followers/check?source=jack', 'missing_params'],
      ['/api/v1/x/users/jack/tweets?includeReplies=maybe', 'invalid_input'],
      ['/api/v1/x/users/jack/followers?pageSize=301', 'invalid_input'],
      ['/api/v1/x/users/jack/list-memberships?pageSize=0', 'invalid_input'],
      ['/api/v1/x/users/jack/list-memberships?per_page=101', 'invalid_input'],
      ['/api/v1/x/jobs/abc', 'invalid_job_id'],
      ['/api/v1/x/lists/abc/members', 'invalid_input'],
      ['/api/v1/x/communities/abc/info', 'invalid_input'],
      ['/api/v1/x/communities/search?q=a', 'invalid_input'],
      ['/api/v1/x/trends?woeid=999', 'invalid_input'],
      ['/api/v1/x/articles/not-a-tweet', 'invalid_tweet_id'],
      ['/api/v1/x/dm/abc/history?account=jack', 'invalid_user_id'],
      ['/api/v1/x/notifications?type=Everything', 'invalid_input'],
    ];
    for (const [url, code] of cases) await expectError('GET', url, 400, code);
  });

  it('refuses bad cursors: garbage, and a cursor of another listing', async () => {
    await expectError('GET', '/api/v1/x/users/jack/followers?cursor=not!a!cursor', 400, 'invalid_input');
    await expectError('GET', '/api/v1/x/users/jack/tweets?cursor=eyJzIjoieCJ9', 400, 'invalid_input');
    const followers = await t.request('GET', '/api/v1/x/users/jack/followers?pageSize=20');
    expect(followers.body.next_cursor).not.toBe('');
    await expectError(
      'GET',
      `/api/v1/x/users/jack/tweets?cursor=${followers.body.next_cursor}`,
      400,
      'invalid_input',
    );
    await expectError(
      'GET',
      `/api/v1/x/tweets/search?q=the&cursor=${followers.body.next_cursor}`,
      400,
      'invalid_input',
    );
    await connect(t, n.ownerId, 'jack');
    await expectError('GET', '/api/v1/x/bookmarks/folders?cursor=garbage', 400, 'invalid_input');
  });

  it('refuses bad bodies: media download and viral score sources', async () => {
    const media = '/api/v1/x/media/download';
    await expectError('POST', media, 400, 'invalid_input', {});
    await expectError('POST', media, 400, 'invalid_input', {
      tweetId: n.photosTweet,
      tweetUrl: 'https://x.com/a/status/1',
    });
    await expectError('POST', media, 400, 'invalid_input', { tweetId: 'abc' });
    await expectError('POST', media, 400, 'invalid_tweet_id', { tweetInput: 'not a tweet' });
    await expectError('POST', media, 400, 'too_many_tweets', {
      tweetIds: Array.from({ length: 101 }, (_, i) => String(i + 1)),
    });
    const viral = '/api/v1/x/analysis/viral-score';
    await expectError('POST', viral, 400, 'invalid_input', {});
    await expectError('POST', viral, 400, 'invalid_input', { texts: ['a'], tweetIds: ['1'] });
    await expectError('POST', viral, 400, 'invalid_input', { texts: ['a'], query: 'b' });
    await expectError('POST', viral, 400, 'invalid_input', { texts: [] });
    await expectError('POST', viral, 400, 'invalid_input', { texts: Array.from({ length: 101 }, () => 'x') });
    await expectError('POST', viral, 400, 'invalid_input', { query: 'a', limit: 0 });
    await expectError('POST', viral, 400, 'invalid_input', { limit: 5 });
    await expectError('POST', viral, 400, 'invalid_input', { texts: ['a'], baseline: [{ answers: {} }] });
    const broken = await t.request('POST', viral, { rawBody: '{"texts":' });
    expect([broken.status, broken.body.error]).toEqual([400, 'invalid_json']);
  });

  it('answers 404 for what does not exist, with the spec codes', async () => {
    await expectError('GET', '/api/v1/x/tweets/1', 404, 'tweet_not_found');
    await expectError('GET', '/api/v1/x/tweets/1/quotes', 404, 'tweet_not_found');
    await expectError('GET', '/api/v1/x/users/nobody_here_42', 404, 'user_not_found');
    await expectError('GET', '/api/v1/x/users/nobody_here_42/tweets', 404, 'user_not_found');
    await expectError(
      'GET',
      '/api/v1/x/followers/check?source=jack&target=nobody_here_42',
      404,
      'user_not_found',
    );
    await expectError('GET', '/api/v1/x/lists/1/members', 404, 'not_found');
    await expectError('GET', '/api/v1/x/lists/1/tweets', 404, 'not_found');
    await expectError('GET', '/api/v1/x/communities/1/info', 404, 'not_found');
    await expectError('GET', '/api/v1/x/communities/1/moderators', 404, 'not_found');
    await expectError('GET', `/api/v1/x/articles/${n.photosTweet}`, 404, 'article_not_found');
    await expectError('GET', `/api/v1/x/jobs/${n.closedJob}`, 404, 'job_not_found');
    await expectError('GET', '/api/v1/x/jobs/1', 404, 'job_not_found');
    await expectError('POST', '/api/v1/x/media/download', 404, 'no_media', { tweetId: n.textOnlyTweet });
    await expectError('POST', '/api/v1/x/media/download', 404, 'tweet_not_found', { tweetId: '1' });
    await expectError('GET', '/api/v1/x/users/suspended_acct/tweets', 404, 'user_not_found');
    await expectError('GET', '/api/v1/x/users/locked_account/tweets', 403, 'x_account_protected');
    await expectError('GET', '/api/v1/x/users/locked_account/list-memberships', 403, 'x_account_protected');
    await expectError('POST', '/api/v1/x/analysis/viral-score', 403, 'x_account_protected', {
      username: 'locked_account',
    });
  });

  it('private reads need a connected account', async () => {
    await connect(t, n.ownerId, null);
    const none = await expectError('GET', '/api/v1/x/bookmarks', 400, 'account_required');
    expect(none.message).toMatch(/connect/);
    await expectError('GET', '/api/v1/x/timeline', 400, 'account_required');
    await expectError('GET', '/api/v1/x/notifications', 400, 'account_required');
    await expectError('GET', `/api/v1/x/dm/${n.dmPartner}/history?account=jack`, 400, 'account_required');
    await connect(t, n.ownerId, 'jack');
    await expectError('GET', '/api/v1/x/bookmarks?account=someone_else', 404, 'account_not_found');
    await expectError('GET', `/api/v1/x/dm/${n.dmPartner}/history`, 400, 'invalid_input');
    await expectError('GET', '/api/v1/x/dm/1/history?account=jack', 404, 'user_not_found');
    await connect(t, n.ownerId, 'jack', 'needsReauth');
    await expectError('GET', '/api/v1/x/bookmarks', 403, 'account_needs_reauth');
    await connect(t, n.ownerId, 'jack');
    expect((await t.request('GET', '/api/v1/x/bookmarks?account=JACK')).status).toBe(200);
  });

  it('needs credentials: 401 without a key, and a Payment challenge on the fixed-price reads', async () => {
    for (const url of ['/api/v1/x/users/jack/followers', '/api/v1/x/bookmarks']) {
      const r = await t.request('GET', url, { key: null });
      expect([r.status, r.body.error]).toEqual([401, 'unauthenticated']);
    }
    const anonymous = await t.request('GET', '/api/v1/x/tweets/20', { key: null });
    expect(anonymous.status).toBe(402);
    expect(String(anonymous.headers['www-authenticate'])).toMatch(/^Payment /);
  });

  it('walks a timeline across pages without duplicates, ending with an empty next_cursor', async () => {
    const seen: string[] = [];
    let cursor = '';
    let pages = 0;
    for (;;) {
      const r = await t.request(
        'GET',
        `/api/v1/x/users/jack/followers?pageSize=20${cursor && `&cursor=${cursor}`}`,
      );
      expect(r.status).toBe(200);
      seen.push(...r.body.users.map((u: { id: string }) => u.id));
      pages++;
      if (!r.body.has_next_page) {
        expect(r.body.next_cursor).toBe('');
        break;
      }
      cursor = r.body.next_cursor;
    }
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen).size).toBe(seen.length);
    const tweets: string[] = [];
    cursor = '';
    do {
      const r = await t.request(
        'GET',
        `/api/v1/x/users/xsvc_demo/tweets?pageSize=3${cursor && `&cursor=${cursor}`}`,
      );
      tweets.push(...r.body.tweets.map((x: { id: string }) => x.id));
      cursor = r.body.next_cursor;
    } while (cursor);
    expect(tweets.length).toBeGreaterThan(3);
    expect(new Set(tweets).size).toBe(tweets.length);
  });

  it('says why a single tweet is missing: deleted, author suspended, protected', async () => {
    await control.createUser({ username: 'reads_404' });
    const tweet = await control.createTweet({ author: 'reads_404', text: 'about to vanish' });
    const other = await control.createTweet({ author: 'reads_404', text: 'still here' });
    expect((await t.request('GET', `/api/v1/x/tweets/${tweet.id}`)).status).toBe(200);
    await control.deleteTweet(tweet.id);
    const deleted = await t.request('GET', `/api/v1/x/tweets/${tweet.id}`);
    expect([deleted.status, deleted.body.error, deleted.body.reason]).toEqual([
      404,
      'tweet_not_found',
      'deleted',
    ]);
    await control.updateUser('reads_404', { protected: true });
    const locked = await t.request('GET', `/api/v1/x/tweets/${other.id}`);
    expect([locked.status, locked.body.reason]).toEqual([404, 'protected']);
    await control.updateUser('reads_404', { protected: false, suspended: true });
    const suspended = await t.request('GET', `/api/v1/x/tweets/${other.id}`);
    expect([suspended.status, suspended.body.reason]).toEqual([404, 'author_suspended']);
    const missing = await t.request('GET', '/api/v1/x/tweets/1');
    expect(missing.body).toEqual({ error: 'tweet_not_found', message: expect.any(String) });
  });

  it('clamps the trends count and falls back to 30 for non-numbers', async () => {
    const count = async (q: string) => (await t.request('GET', `/api/v1/x/trends${q}`)).body;
    expect(await count('?count=500')).toMatchObject({ count: 50, total: 50 });
    expect(await count('?count=0')).toMatchObject({ count: 1 });
    expect(await count('?count=-4')).toMatchObject({ count: 1 });
    expect(await count('?count=abc')).toMatchObject({ count: 30 });
    expect(await count('')).toMatchObject({ count: 30, woeid: 1 });
    const ranks = (await count('?count=5')).trends.map((x: { rank: number }) => x.rank);
    expect(ranks).toEqual([1, 2, 3, 4, 5]);
  });

  it('renders a paged read in the opt-in contract: has_more, snake_case, structured errors', async () => {
    const headers = { 'svc-api-contract': '2026-04-29' };
    const page = await t.request('GET', '/api/v1/x/users/jack/followers?pageSize=20', { headers });
    expect(page.status).toBe(200);
    expect(page.body.has_more).toBe(true);
    expect(page.body.next_cursor).toEqual(expect.any(String));
    expect(page.body.has_next_page).toBeUndefined();
    expect(typeof page.body.users[0].created_at).toBe('number');
    const next = await t.request(
      'GET',
      `/api/v1/x/users/jack/followers?pageSize=20&cursor=${page.body.next_cursor}`,
      { headers },
    );
    expect(next.body.users[0].id).not.toBe(page.body.users[0].id);
    const missing = await t.request('GET', '/api/v1/x/users/nobody_here_42/tweets', { headers });
    expect(missing.body).toEqual({
      error: { type: 'invalid_request_error', code: 'user_not_found', message: expect.any(String) },
    });
  });

  it('answers 404 before 402 for a missing list, and an empty page at a zero balance', async () => {
    await setBalance(t, n.ownerId, 0);
    expect((await t.request('GET', '/api/v1/x/lists/1/members')).body.error).toBe('not_found');
    expect((await t.request('GET', `/api/v1/x/lists/${n.listId}/members`)).body.error).toBe(
      'insufficient_credits',
    );
    await setBalance(t, n.ownerId, 1_000_000);
  });

  it('marks the deprecated `after` parameter and still pages with it', async () => {
    const first = await t.request('GET', '/api/v1/x/users/jack/followers?pageSize=20');
    const after = await t.request(
      'GET',
      `/api/v1/x/users/jack/followers?pageSize=20&after=${first.body.next_cursor}`,
    );
    expect(after.status).toBe(200);
    expect(after.headers.deprecation).toMatch(/^@\d+$/);
    expect(after.body.users[0].id).not.toBe(first.body.users[0].id);
  });
});
