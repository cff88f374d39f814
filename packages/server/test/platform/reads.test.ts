import { limits } from '@xsvc/sdk/contract';
import { describe, expect, it } from 'vitest';
import { num } from '../../src/core/db/database.js';
import type { Tweet, UserProfile } from '../../src/core/platform/platform.js';
import { InvalidCursorError } from '../../src/platform/simulated/index.js';
import { ENGINES, strictTweet, strictUser, useNetwork } from './network.js';

const page = { pageSize: 20 };

function expectTweets(tweets: readonly Tweet[]): void {
  for (const t of tweets) {
    const parsed = strictTweet.safeParse(t);
    if (!parsed.success) throw new Error(`tweet ${t.id} breaks the schema: ${parsed.error.message}`);
    for (const [k, v] of Object.entries(t)) expect(v, `${t.id}.${k}`).not.toBeNull();
  }
}

function expectUsers(users: readonly UserProfile[]): void {
  for (const u of users) {
    const parsed = strictUser.safeParse(u);
    if (!parsed.success) throw new Error(`user ${u.id} breaks the schema: ${parsed.error.message}`);
  }
}

describe.each(ENGINES)('SimulatedPlatform reads on %s', (engine) => {
  const net = useNetwork(engine);
  const idsOf = async (where: string) => {
    const rows = await net.db.db
      .selectFrom('sim_tweets as t')
      .innerJoin('sim_users as a', 'a.id', 't.author_id')
      .select('t.id')
      .where((eb) => eb.and([eb('a.username_lower', '=', where)]))
      .execute();
    return rows.map((r) => r.id);
  };

  it('returns every tweet of the network in the exact API shape', async () => {
    const rows = await net.db.db.selectFrom('sim_tweets').select(['id', 'kind']).execute();
    const all: Tweet[] = [];
    for (let i = 0; i < rows.length; i += limits.batchTweetIds) {
      const batch = await net.platform.getTweets(rows.slice(i, i + limits.batchTweetIds).map((r) => r.id));
      all.push(...batch);
    }
    expect(all.length).toBeGreaterThan(rows.length * 0.8);
    expectTweets(all);
    const retweet = all.find((t) => t.isRetweet);
    expect(retweet?.retweetedAt).toMatch(/Z$/);
    expect(retweet?.retweeted_tweet?.id).toBeDefined();
    expect(all.find((t) => t.quoted_tweet)?.isQuoteStatus).toBe(true);
    expect(all.find((t) => t.isNoteTweet)?.text.length).toBeGreaterThan(280);
    expect(all.find((t) => t.poll)?.poll?.options.length).toBeGreaterThanOrEqual(2);
    const video = all.find((t) => t.media?.some((m) => m.type === 'video'));
    expect(
      video?.media
        ?.find((m) => m.type === 'video')
        ?.variants?.some((v) => v.bitrate && v.contentType === 'video/mp4'),
    ).toBe(true);
    expect(all.find((t) => t.communityId)?.communityName).toBeDefined();
    const reply = all.find((t) => t.isReply);
    expect(reply).toMatchObject({ inReplyToId: expect.any(String), inReplyToUsername: expect.any(String) });
    expect(all.some((t) => t.entities?.urls?.length)).toBe(true);
    expect(all.find((t) => !t.isRetweet)?.retweetedAt).toBeUndefined();
  });

  it('returns every user in the exact API shape, and resolves ids, names and URLs', async () => {
    const rows = await net.db.db.selectFrom('sim_users').select('id').execute();
    const users = await net.platform.getUsers(rows.map((r) => r.id));
    expect(users).toHaveLength(rows.length);
    expectUsers(users);
    for (const ref of [
      '12',
      'jack',
      '@JACK',
      'https://x.com/jack',
      'https://twitter.com/Jack?lang=en',
      'https%3A%2F%2Fx.com%2Fjack',
    ]) {
      expect((await net.platform.getUser(ref))?.id, ref).toBe('12');
    }
    expect(await net.platform.getUser('nobody_here_42')).toBeUndefined();
    expect(await net.platform.getUser('not a username')).toBeUndefined();
  });

  it('reports why a single tweet is missing', async () => {
    const deleted = await net.db.db
      .selectFrom('sim_tweets')
      .select('id')
      .where('deleted', '=', 1)
      .executeTakeFirstOrThrow();
    expect(await net.platform.getTweet(deleted.id)).toEqual({ missing: 'deleted' });
    const [suspended] = await idsOf('suspended_acct');
    expect(await net.platform.getTweet(suspended as string)).toEqual({ missing: 'author_suspended' });
    const [locked] = await idsOf('locked_account');
    expect(await net.platform.getTweet(locked as string)).toEqual({ missing: 'protected' });
    expect(await net.platform.getTweet('1')).toEqual({ missing: 'not_found' });
    expect(await net.platform.getTweet('nope')).toEqual({ missing: 'not_found' });
    const jack = await net.platform.getTweet('https://x.com/jack/status/20');
    expect('tweet' in jack && jack.tweet.id).toBe('20');
    expect(await net.platform.getTweets([deleted.id, locked as string, '20'])).toHaveLength(1);
  });

  it('serves every listing in the exact API shapes', async () => {
    const p = net.platform;
    const jack = (await p.getUser('jack')) as UserProfile;
    const demo = (await p.getUser('xsvc_demo')) as UserProfile;
    const giveaway = demo.pinnedTweetIds?.[0] as string;
    const users = [
      await p.searchUsers('a', {}, page),
      await p.followers(jack.id, {}, page),
      await p.following(demo.id, {}, page),
      await p.verifiedFollowers(jack.id, page),
      await p.followersYouKnow(demo.id, jack.id, page),
      await p.retweeters(giveaway, {}, page),
      await p.favoriters(giveaway, {}, page),
    ];
    for (const u of users) {
      expect(u.items.length).toBeGreaterThan(0);
      expectUsers(u.items);
    }
    expect((await p.verifiedFollowers(jack.id, page)).items.every((u) => u.verified)).toBe(true);
    const tweets = [
      await p.searchTweets({ q: 'the', queryType: 'Latest' }, page),
      await p.searchTweets({ q: 'the', queryType: 'Top' }, page),
      await p.userTweets(demo.id, {}, page),
      await p.userTweets(demo.id, { includeReplies: true }, page),
      await p.userReplies(demo.id, page),
      await p.userMedia(demo.id, page),
      await p.userMentions(demo.id, page),
      await p.replies(giveaway, {}, page),
      await p.thread(
        (await p.userTweets(demo.id, {}, { pageSize: 100 })).items.find((t) => t.text.includes('thread'))
          ?.id ?? '',
        page,
      ),
      await p.homeTimeline(demo.id, page),
    ];
    for (const t of tweets) {
      expect(t.items.length).toBeGreaterThan(0);
      expectTweets(t.items);
    }
    const liker = await net.db.db.selectFrom('sim_likes').select('user_id').executeTakeFirstOrThrow();
    expectTweets((await p.userLikes(liker.user_id, page)).items);
    const quoted = await net.db.db
      .selectFrom('sim_tweets')
      .select('quoted_tweet_id')
      .where('quoted_tweet_id', 'is not', null)
      .where('deleted', '=', 0)
      .executeTakeFirstOrThrow();
    expectTweets((await p.quotes(quoted.quoted_tweet_id as string, {}, page)).items);
  });

  it('serves lists, communities, articles, trends, jobs and private reads', async () => {
    const p = net.platform;
    const demo = (await p.getUser('xsvc_demo')) as UserProfile;
    const list = await net.db.db
      .selectFrom('sim_lists')
      .selectAll()
      .where('owner_id', '=', demo.id)
      .executeTakeFirstOrThrow();
    const members = await p.listMembers(list.id, page);
    expect(members?.items.map((u) => u.username)).toContain('jack');
    expectUsers(members?.items ?? []);
    expect(await p.listFollowers(list.id, page)).toBeDefined();
    expectTweets((await p.listTweets(list.id, page))?.items ?? []);
    expect(await p.listMembers('1', page)).toBeUndefined();
    const memberships = await p.listMemberships('jack', { pageSize: 100 });
    expect(memberships.items.map((l) => l.id)).toContain(list.id);
    const mine = memberships.items.find((l) => l.id === list.id);
    expect(mine).toMatchObject({
      name: 'xsvc demo accounts',
      memberCount: expect.any(Number),
      owner: { username: 'xsvc_demo' },
    });
    expectUsers(memberships.items.map((l) => l.owner));

    const community = await net.db.db.selectFrom('sim_communities').selectAll().executeTakeFirstOrThrow();
    const c = await p.community(community.id);
    expect(c).toMatchObject({ id: community.id, name: community.name });
    expect(c?.memberCount).toBeGreaterThan(1);
    expect(c?.moderatorCount).toBeGreaterThanOrEqual(1);
    const mods = await p.communityMembers(community.id, 'moderator', page);
    expect(mods?.items.every((u) => u.communityRole === 'Admin' || u.communityRole === 'Moderator')).toBe(
      true,
    );
    expectUsers(mods?.items ?? []);
    expectUsers((await p.communityMembers(community.id, 'member', page))?.items ?? []);
    expectTweets((await p.communityTweets(community.id, page))?.items ?? []);
    expect(await p.community('1')).toBeUndefined();
    expectTweets((await p.searchCommunityTweets('the', undefined, page)).items);

    const articles = await net.db.db
      .selectFrom('sim_articles as r')
      .innerJoin('sim_tweets as t', 't.id', 'r.tweet_id')
      .innerJoin('sim_users as a', 'a.id', 't.author_id')
      .select(['r.tweet_id', 'a.username'])
      .execute();
    expect(articles.length).toBeGreaterThanOrEqual(1);
    const newsroomArticle = articles.find((a) => a.username === 'newsroom');
    expect(await p.article(newsroomArticle?.tweet_id as string)).toMatchObject({
      title: 'How cities are adapting to hotter summers',
      author: { username: 'newsroom' },
    });
    const articleTweet = await p.getTweet(newsroomArticle?.tweet_id as string);
    expect('tweet' in articleTweet && articleTweet.tweet.entities?.urls?.[0]?.expandedUrl).toBe(
      `https://x.com/i/article/${newsroomArticle?.tweet_id}`,
    );
    expect(await p.article('1')).toBeUndefined();

    for (const woeid of limits.trendWoeids) {
      const trends = await p.trends(woeid);
      expect(trends).toHaveLength(50);
      expect(trends.map((t) => t.rank)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      for (const t of trends) expect(decodeURIComponent(t.query)).toBe(t.name);
    }
    expect(await p.trends(12345)).toEqual([]);

    const jobs = await net.db.db.selectFrom('sim_jobs').selectAll().execute();
    const closed = jobs.find((j) => num(j.closed) === 1);
    const open = jobs.find((j) => num(j.closed) === 0);
    expect(await p.job(open?.id as string)).toMatchObject({
      closed: false,
      job: { id: open?.id, url: expect.stringContaining('/jobs/') },
    });
    expect(await p.job(`https://x.com/jobs/${closed?.id}`)).toMatchObject({ closed: true });
    expect(await p.job('1')).toBeUndefined();

    const folders = await p.bookmarkFolders(demo.id);
    expect(folders.length).toBe(3);
    const bookmarks = await p.bookmarks(demo.id, undefined, { pageSize: 100 });
    expect(bookmarks.items.length).toBeGreaterThan(0);
    expectTweets(bookmarks.items);
    const inFolders = await Promise.all(folders.map((f) => p.bookmarks(demo.id, f.id, { pageSize: 100 })));
    expect(inFolders.reduce((s, b) => s + b.items.length, 0)).toBeLessThanOrEqual(bookmarks.items.length);

    const notifications = await p.notifications(demo.id, page);
    expect(notifications.items.length).toBeGreaterThan(0);
    for (const n of notifications.items) {
      expectUsers([n.actor]);
      if (n.tweet) expectTweets([n.tweet]);
    }
    const dm = await net.db.db
      .selectFrom('sim_dms')
      .selectAll()
      .where('sender_id', '=', demo.id)
      .executeTakeFirstOrThrow();
    const history = await p.dmHistory(demo.id, dm.recipient_id, page);
    expect(history.items.map((d) => d.id)).toContain(dm.id);
  });

  it('answers follow checks and refuses foreign cursors', async () => {
    const p = net.platform;
    const demo = (await p.getUser('xsvc_demo')) as UserProfile;
    const follower = (await p.followers(demo.id, {}, page)).items[0] as UserProfile;
    expect(await p.checkFollow(follower.id, demo.id)).toMatchObject({ isFollowing: true });
    expect(await p.checkFollow(demo.id, follower.id)).toMatchObject({ isFollowedBy: true });
    const first = await p.followers(demo.id, {}, { pageSize: 2 });
    await expect(p.following(demo.id, {}, { pageSize: 2, cursor: first.nextCursor })).rejects.toThrow(
      InvalidCursorError,
    );
    await expect(
      p.searchTweets({ q: 'a', queryType: 'Latest' }, { pageSize: 2, cursor: 'garbage!' }),
    ).rejects.toThrow(InvalidCursorError);
  });
});
