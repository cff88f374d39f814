import { operations } from '@xsvc/sdk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHandlers } from '../../src/features/reads/index.js';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';
import { connect, type Network, network, setBalance } from './fixtures.js';

const READ_TAGS = new Set(['Tweets', 'Users', 'Lists', 'Communities', 'Trends', 'Articles', 'Media']);

it('implements every read operation of the contract', () => {
  const reads = operations.filter((o) => READ_TAGS.has(o.tag)).map((o) => o.id);
  expect(reads).toHaveLength(42);
  expect(reads.filter((id) => !(id in readHandlers))).toEqual([]);
});

/**
 * One successful request per read operation. The test server checks every answer against the operation's
 * strict response schema, so any drift from the contract fails here.
 */
describe.each(ENGINES)('every read operation answers its contract (%s)', (engine) => {
  let t: TestServer;
  let n: Network;
  beforeAll(async () => {
    t = await startTestServer(engine);
    n = await network(t);
    await setBalance(t, n.ownerId, 1_000_000);
    await connect(t, n.ownerId, 'jack');
  });
  afterAll(async () => t?.close());

  const ok = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const r = await t.request(method, url, body === undefined ? {} : { body });
    expect(r.status, `${method} ${url}: ${JSON.stringify(r.body)}`).toBe(200);
    return r.body;
  };
  const enc = encodeURIComponent;

  it('tweets: batch, search, lookup, favoriters, retweeters, quotes, replies, thread', async () => {
    const batch = await ok('GET', `/api/v1/x/tweets?ids=${n.photosTweet},${n.giveawayTweet},1`);
    expect(batch.tweets.map((x: { id: string }) => x.id).sort()).toEqual(
      [n.photosTweet, n.giveawayTweet].sort(),
    );
    expect(batch).toMatchObject({ has_next_page: false, next_cursor: '' });
    const search = await ok('GET', '/api/v1/x/tweets/search?q=giveaway&queryType=Latest');
    expect(search.tweets.length).toBeGreaterThan(0);
    const byUrl = await ok(
      'GET',
      `/api/v1/x/tweets/search?q=${enc(`https://x.com/xsvc_demo/status/${n.photosTweet}`)}`,
    );
    expect(byUrl.tweets.map((x: { id: string }) => x.id)).toEqual([n.photosTweet]);
    const coverage = await ok('GET', '/api/v1/x/tweets/search?q=the&mode=coverage&limit=5');
    expect(coverage.diagnostic).toMatchObject({ mode: 'coverage', complete: expect.any(Boolean) });
    const one = await ok('GET', `/api/v1/x/tweets/${n.photosTweet}`);
    expect(one.tweet.id).toBe(n.photosTweet);
    expect(one.author.username).toBe('xsvc_demo');
    const viaUrl = await ok(
      'GET',
      `/api/v1/x/tweets/${enc(`https://twitter.com/xsvc_demo/status/${n.photosTweet}`)}`,
    );
    expect(viaUrl.tweet.id).toBe(n.photosTweet);
    expect((await ok('GET', `/api/v1/x/tweets/${n.likedTweet}/favoriters`)).users.length).toBeGreaterThan(0);
    expect((await ok('GET', `/api/v1/x/tweets/${n.retweetedTweet}/retweeters`)).users.length).toBeGreaterThan(
      0,
    );
    expect(
      (await ok('GET', `/api/v1/x/tweets/${n.quotedTweet}/quotes?includeReplies=true`)).tweets.length,
    ).toBeGreaterThan(0);
    const replies = await ok(
      'GET',
      `/api/v1/x/tweets/${n.giveawayTweet}/replies?pageSize=5&includeOriginalPost=true`,
    );
    expect(replies.tweets[0].id).toBe(n.giveawayTweet);
    expect(replies.tweets.length).toBe(6);
    const complete = await ok(
      'GET',
      `/api/v1/x/tweets/${n.giveawayTweet}/replies?mode=complete&limit=30&sort=likes`,
    );
    expect(complete.diagnostic).toMatchObject({ mode: 'coverage', directReplyCount: 30 });
    const nested = await ok('GET', `/api/v1/x/tweets/${n.giveawayTweet}/replies?scope=all`);
    expect(nested.tweets.every((x: { isReply: boolean }) => x.isReply)).toBe(true);
    expect((await ok('GET', `/api/v1/x/tweets/${n.giveawayTweet}/thread`)).tweets[0].id).toBe(
      n.giveawayTweet,
    );
  });

  it('private tweet reads as the connected account: bookmarks, folders, timeline', async () => {
    const bookmarks = await ok('GET', '/api/v1/x/bookmarks');
    expect(bookmarks.tweets.length).toBeGreaterThan(0);
    const folders = await ok('GET', '/api/v1/x/bookmarks/folders?account=@jack');
    expect(folders.folders.length).toBe(3);
    expect(folders).toMatchObject({ has_next_page: false, next_cursor: '' });
    expect((await ok('GET', `/api/v1/x/bookmarks?folderId=${folders.folders[0].id}`)).tweets).toBeInstanceOf(
      Array,
    );
    const timeline = await ok('GET', '/api/v1/x/timeline');
    expect(timeline.tweets.length).toBe(20);
    const seen = timeline.tweets.slice(0, 3).map((x: { id: string }) => x.id);
    const unseen = await ok('GET', `/api/v1/x/timeline?seenTweetIds=${seen.join(',')}`);
    expect(unseen.tweets.map((x: { id: string }) => x.id)).not.toContain(seen[0]);
  });

  it('users: batch, search, lookup, follow check, timelines', async () => {
    const batch = await ok('GET', `/api/v1/x/users/batch?ids=12,${n.listMemberId},1`);
    expect(batch).toMatchObject({
      requested_count: 3,
      processed_count: 3,
      returned_count: 2,
      unavailable_ids: ['1'],
      unprocessed_ids: [],
    });
    expect(
      (await ok('GET', '/api/v1/x/users/search?q=demo')).users.some(
        (u: { username: string }) => u.username === 'xsvc_demo',
      ),
    ).toBe(true);
    expect((await ok('GET', '/api/v1/x/users/@jack')).id).toBe('12');
    expect((await ok('GET', `/api/v1/x/users/${enc('https://x.com/jack')}`)).username).toBe('jack');
    const check = await ok('GET', '/api/v1/x/followers/check?source=xsvc_demo&target=jack');
    expect(check).toMatchObject({
      sourceUsername: 'xsvc_demo',
      targetUsername: 'jack',
      isFollowing: expect.any(Boolean),
    });
    expect((await ok('GET', '/api/v1/x/users/xsvc_demo/tweets?pageSize=5')).tweets.length).toBe(5);
    expect((await ok('GET', '/api/v1/x/users/xsvc_demo/replies')).tweets.length).toBeGreaterThan(0);
    expect((await ok('GET', '/api/v1/x/users/jack/likes')).tweets).toBeInstanceOf(Array);
    const media = await ok('GET', '/api/v1/x/users/xsvc_demo/media');
    expect(media.tweets.every((x: { media?: unknown[] }) => x.media?.length)).toBe(true);
    expect((await ok('GET', '/api/v1/x/users/jack/mentions')).tweets).toBeInstanceOf(Array);
  });

  it('users: follower lists, followers you know, list memberships, jobs', async () => {
    expect((await ok('GET', '/api/v1/x/users/jack/followers?pageSize=20')).users.length).toBe(20);
    const coverage = await ok('GET', '/api/v1/x/users/jack/followers?mode=coverage&limit=5');
    expect(coverage.diagnostic).toMatchObject({ mode: 'coverage', expectedUsers: expect.any(Number) });
    expect((await ok('GET', '/api/v1/x/users/jack/following')).users).toBeInstanceOf(Array);
    expect(
      (await ok('GET', '/api/v1/x/users/jack/verified-followers')).users.every(
        (u: { verified: boolean }) => u.verified,
      ),
    ).toBe(true);
    expect((await ok('GET', '/api/v1/x/users/xsvc_demo/followers-you-know')).users).toBeInstanceOf(Array);
    const lists = await ok('GET', `/api/v1/x/users/${n.listMemberId}/list-memberships`);
    expect(lists.lists.length).toBeGreaterThan(0);
    expect(lists.lists[0].memberCountText).toMatch(/members?$/);
    const job = await ok('GET', `/api/v1/x/jobs/${n.openJob}`);
    expect(job.job.id).toBe(n.openJob);
    expect((await ok('GET', `/api/v1/x/jobs/${enc(`https://x.com/jobs/${n.openJob}`)}`)).job.id).toBe(
      n.openJob,
    );
  });

  it('private user reads: notifications and direct messages', async () => {
    const all = await ok('GET', '/api/v1/x/notifications');
    expect(all.notifications.length).toBe(20);
    const mentions = await ok('GET', '/api/v1/x/notifications?type=Mentions');
    expect(
      mentions.notifications.every((x: { type: string }) => x.type === 'mention' || x.type === 'reply'),
    ).toBe(true);
    const dms = await ok('GET', `/api/v1/x/dm/${n.dmPartner}/history?account=jack`);
    expect(dms.messages.length).toBeGreaterThan(0);
    expect(
      dms.messages.every((m: { senderId: string }) => m.senderId === '12' || m.senderId === n.dmPartner),
    ).toBe(true);
    // Each message names the other participant as its receiver (reference shapes 5).
    for (const m of dms.messages as { senderId: string; receiverId: string }[])
      expect([m.senderId, m.receiverId].sort()).toEqual(['12', n.dmPartner].sort());
    expect(dms.messages.some((m: object) => 'recipientId' in m || 'conversationId' in m)).toBe(false);
  });

  it('lists and communities', async () => {
    expect(
      (await ok('GET', `/api/v1/x/lists/${n.listId}/members`)).users.some(
        (u: { id: string }) => u.id === n.listMemberId,
      ),
    ).toBe(true);
    expect((await ok('GET', `/api/v1/x/lists/${n.listId}/followers`)).users).toBeInstanceOf(Array);
    expect((await ok('GET', `/api/v1/x/lists/${n.listId}/tweets?includeReplies=true`)).tweets).toBeInstanceOf(
      Array,
    );
    const info = await ok('GET', `/api/v1/x/communities/${n.communityId}/info`);
    expect(info.community).toMatchObject({ id: n.communityId, memberCount: expect.any(Number) });
    expect((await ok('GET', `/api/v1/x/communities/${n.communityId}/members`)).users.length).toBeGreaterThan(
      0,
    );
    expect(
      (await ok('GET', `/api/v1/x/communities/${n.communityId}/moderators`)).users.length,
    ).toBeGreaterThan(0);
    expect((await ok('GET', `/api/v1/x/communities/${n.communityId}/tweets`)).tweets.length).toBeGreaterThan(
      0,
    );
    const q = `communityId=${n.communityId}&q=${n.communityWord}`;
    expect((await ok('GET', `/api/v1/x/communities/search?${q}`)).tweets.length).toBeGreaterThan(0);
    expect(
      (await ok('GET', `/api/v1/x/communities/tweets?${q}&queryType=Top`)).tweets.length,
    ).toBeGreaterThan(0);
  });

  it('trends, articles, media download and viral score', async () => {
    const x = await ok('GET', '/api/v1/x/trends?woeid=23424977&count=10');
    expect(x).toMatchObject({ woeid: 23424977, count: 10, total: 50 });
    expect((await ok('GET', '/api/v1/trends')).trends.length).toBe(30);
    const article = await ok('GET', `/api/v1/x/articles/${n.articleTweet}`);
    expect(article.article).toMatchObject({
      tweetId: n.articleTweet,
      title: expect.any(String),
      bodyMarkdown: expect.stringMatching(/^# /),
    });
    const media = await ok('POST', '/api/v1/x/media/download', { tweetId: n.photosTweet });
    expect(media).toMatchObject({ tweetId: n.photosTweet, totalTweets: 1, totalMedia: 2, cacheHit: false });
    expect(media.galleryUrl).toMatch(/\/media\/gallery\/[0-9a-f]{24}$/);
    const again = await ok('POST', '/api/v1/x/media/download', {
      tweetInput: `https://x.com/xsvc_demo/status/${n.photosTweet}`,
    });
    expect(again).toMatchObject({ cacheHit: true, galleryUrl: media.galleryUrl });
    const several = await ok('POST', '/api/v1/x/media/download', {
      tweetIds: [n.photosTweet, n.textOnlyTweet],
    });
    expect(several).toMatchObject({ totalTweets: 2, totalMedia: 2 });
    const viral = await ok('POST', '/api/v1/x/analysis/viral-score', {
      texts: ['How we cut our build time by 80%: a short thread 🧵'],
    });
    expect(viral.results[0]).toMatchObject({ tweet: { id: 'text:1' }, viralAlgorithmScore: null });
    expect(
      (await ok('POST', '/api/v1/x/analysis/viral-score', { tweetIds: [n.photosTweet] })).results,
    ).toHaveLength(1);
    const search = await ok('POST', '/api/v1/x/analysis/viral-score', { username: '@xsvc_demo', limit: 3 });
    expect(search.results).toHaveLength(3);
    expect(search.analysisSummary.viral.leaderboard.byViralScore[0]).toMatchObject({
      username: 'xsvc_demo',
      rank: 1,
    });
  });
});
