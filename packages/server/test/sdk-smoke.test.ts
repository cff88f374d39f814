/**
 * The SDK's client pointed at a running server (real HTTP on 127.0.0.1) passes a smoke test across every
 * read resource: what the SDK sends, the server accepts, and what the server answers, the SDK reads.
 */
import { Xsvc } from '@xsvc/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { XsvcServer } from '../src/app/app.js';
import { bootstrapOwner } from '../src/app/bootstrap.js';
import { createServer } from '../src/app/server.js';
import { parseConfig } from '../src/core/config.js';

const KEY = `svc_${'5a'.repeat(32)}`;
let server: XsvcServer;
let xsvc: Xsvc;
let tweetId: string;
let listId: string;
let communityId: string;
let jobId: string;
let articleTweetId: string;

beforeAll(async () => {
  const config = parseConfig({ databaseUrl: ':memory:', seedSize: 'tiny', logLevel: 'silent', keyFile: '' });
  server = await createServer(config);
  await bootstrapOwner(server.services.database, { ...config, bootstrapApiKey: KEY }, Date.now());
  const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  xsvc = new Xsvc({ apiKey: KEY, baseUrl: url });
  const db = server.services.database.db;
  const jack = await db
    .selectFrom('sim_users')
    .select('id')
    .where('username_lower', '=', 'jack')
    .executeTakeFirstOrThrow();
  tweetId = (
    await db
      .selectFrom('sim_tweets')
      .select('id')
      .where('author_id', '=', jack.id)
      .where('deleted', '=', 0)
      .where('kind', '=', 'tweet')
      .orderBy('reply_count', 'desc')
      .executeTakeFirstOrThrow()
  ).id;
  listId = (await db.selectFrom('sim_lists').select('id').executeTakeFirstOrThrow()).id;
  communityId = (await db.selectFrom('sim_communities').select('id').executeTakeFirstOrThrow()).id;
  jobId = (await db.selectFrom('sim_jobs').select('id').where('closed', '=', 0).executeTakeFirstOrThrow()).id;
  articleTweetId = (await db.selectFrom('sim_articles').select('tweet_id').executeTakeFirstOrThrow())
    .tweet_id;
});

afterAll(async () => server?.close());

describe('the SDK against a running server', () => {
  it('account, credits and keys', async () => {
    expect((await xsvc.account.get()).plan).toBe('active');
    expect((await xsvc.credits.get()).balance).toMatch(/^\d+$/);
    expect((await xsvc.apiKeys.list()).keys.length).toBeGreaterThan(0);
  });

  it('tweets', async () => {
    const { tweet } = await xsvc.tweets.get(tweetId);
    expect(tweet.id).toBe(tweetId);
    expect((await xsvc.tweets.batch({ ids: [tweetId] })).items[0]?.id).toBe(tweetId);
    const search = await xsvc.tweets.search({ q: 'from:jack' });
    expect(search.items.every((t) => t.author?.username.toLowerCase() === 'jack')).toBe(true);
    const replies: string[] = [];
    for await (const r of xsvc.tweets.replies(tweetId)) {
      replies.push(r.id);
      if (replies.length >= 45) break;
    }
    expect(new Set(replies).size).toBe(replies.length);
    await xsvc.tweets.quotes(tweetId);
    await xsvc.tweets.thread(tweetId);
    await xsvc.tweets.retweeters(tweetId);
    await xsvc.tweets.favoriters(tweetId);
  });

  it('users', async () => {
    const jack = await xsvc.users.get('@jack');
    expect(jack.username).toBe('jack');
    const followers = await xsvc.users.followers('jack');
    expect(followers.items.length).toBeGreaterThan(0);
    await xsvc.users.following('jack');
    await xsvc.users.tweets('jack');
    await xsvc.users.replies('jack');
    await xsvc.users.likes('jack');
    await xsvc.users.media('jack');
    await xsvc.users.mentions('jack');
    await xsvc.users.verifiedFollowers('jack');
    await xsvc.users.listMemberships('jack');
    await xsvc.users.search({ q: 'jack' });
    expect((await xsvc.users.batch({ ids: [jack.id] })).items[0]?.id).toBe(jack.id);
    const check = await xsvc.users.checkFollow({ source: 'xsvc_demo', target: 'jack' });
    expect(typeof check.isFollowing).toBe('boolean');
  });

  it('lists, communities, trends, articles, jobs, media', async () => {
    await xsvc.lists.members(listId);
    await xsvc.lists.followers(listId);
    await xsvc.lists.tweets(listId);
    expect((await xsvc.communities.get(communityId)).community).toBeDefined();
    await xsvc.communities.members(communityId);
    await xsvc.communities.moderators(communityId);
    await xsvc.communities.tweets(communityId);
    const trends = await xsvc.trends.list({ woeid: 1, count: 5 });
    expect(trends.trends.length).toBeLessThanOrEqual(5);
    await xsvc.trends.x({ woeid: 23424977 });
    expect((await xsvc.articles.get(articleTweetId)).article).toBeDefined();
    expect((await xsvc.jobs.get(jobId)).job.id).toBeDefined();
    expect(await xsvc.discovery.health()).toMatchObject({ status: 'ok' });
  });

  it('errors arrive as typed SDK errors with the spec code', async () => {
    await expect(xsvc.tweets.get('1')).rejects.toMatchObject({ status: 404, code: 'tweet_not_found' });
    await expect(xsvc.users.get('nosuchuser9')).rejects.toMatchObject({
      status: 404,
      code: 'user_not_found',
    });
    await expect(xsvc.trends.list({ woeid: 999 })).rejects.toMatchObject({
      status: 400,
      code: 'invalid_input',
    });
  });

  it('the opt-in contract gives the same objects through the SDK', async () => {
    const optIn = new Xsvc({ apiKey: KEY, baseUrl: xsvc.baseUrl, contract: '2026-04-29' });
    const a = await xsvc.tweets.get(tweetId);
    const b = await optIn.tweets.get(tweetId);
    expect(b.tweet.id).toBe(a.tweet.id);
    expect(b.tweet.createdAt).toBe(
      new Date(Math.floor(Date.parse(a.tweet.createdAt) / 1000) * 1000).toISOString(),
    );
    const page = await optIn.users.followers('jack');
    expect(page.items.length).toBeGreaterThan(0);
  });
});
