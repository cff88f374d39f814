import { describe, expect, it } from 'vitest';
import { quotedOriginal, quoteTweet } from './fixtures/tweets.js';
import { twitter, twitterDev } from './fixtures/users.js';
import { NOW, platform, rejection, StrictTweet, StrictUser, seen, useXServer, xget } from './helpers.js';

const server = useXServer();

/** A post id made at `ms` (a snowflake: milliseconds since X's epoch above 22 bits). */
function idAt(ms: number): string {
  return ((BigInt(ms - 1_288_834_974_657) << 22n) | 1n).toString();
}

const DAY = 24 * 3600 * 1000;

describe('today’s names of X API v2 (2.167)', () => {
  it('maps the pinned post of the pinned_post_id expansion', async () => {
    server.use(xget('/2/users/by/username/TwitterDev', { data: twitterDev }));
    const user = await platform().getUser('TwitterDev');
    expect(user?.pinnedTweetIds).toEqual(['1255542774432063488']);
    expect(seen[0]?.searchParams.get('expansions')).toBe('pinned_post_id');
    expect(seen[0]?.searchParams.get('user.fields')).not.toContain('pinned');
    StrictUser.parse(user);
  });

  it('still reads the names X answered with before (referenced_tweets, note_tweet, includes.tweets)', async () => {
    const { referenced_posts, ...rest } = quoteTweet;
    const old = {
      ...rest,
      referenced_tweets: referenced_posts,
      note_tweet: { text: 'the whole text' },
      public_metrics: { retweet_count: 7, reply_count: 0, like_count: 5, quote_count: 0 },
    };
    server.use(
      xget('/2/tweets/:id', {
        data: old,
        includes: { users: [twitterDev, twitter], tweets: [quotedOriginal] },
      }),
    );
    const found = await platform().getTweet(quoteTweet.id);
    if (!('tweet' in found)) throw new Error('missing');
    expect(found.tweet.text).toBe('the whole text');
    expect(found.tweet.retweetCount).toBe(7);
    expect(found.tweet.quoted_tweet?.id).toBe(quotedOriginal.id);
  });

  it('looks up the authors of referenced posts X did not include', async () => {
    server.use(
      xget('/2/tweets/:id', { data: quoteTweet, includes: { users: [twitterDev], posts: [quotedOriginal] } }),
      xget('/2/users', (url) => {
        expect(url.searchParams.get('ids')).toBe(quotedOriginal.author_id);
        return { data: [twitter] };
      }),
    );
    const found = await platform().getTweet(quoteTweet.id);
    if (!('tweet' in found)) throw new Error('missing');
    expect(found.tweet.quoted_tweet?.author?.username).toBe(twitter.username);
    expect(seen.map((u) => u.pathname)).toEqual([`/2/tweets/${quoteTweet.id}`, '/2/users']);
    StrictTweet.parse(found.tweet);
  });
});

describe('communities and articles, which X serves to an app token', () => {
  it('reads a community with community.fields; X names no creator or moderators', async () => {
    server.use(
      xget('/2/communities/1146654567674912769', {
        data: {
          id: '1146654567674912769',
          name: 'Datavis',
          description: 'All things data visualization',
          created_at: '2019-07-04T04:15:50.000Z',
          member_count: 3412,
          access: 'Public',
          join_policy: 'Open',
        },
      }),
    );
    const c = await platform().community('1146654567674912769');
    expect(c).toEqual({
      id: '1146654567674912769',
      name: 'Datavis',
      description: 'All things data visualization',
      memberCount: 3412,
      createdAt: '2019-07-04T04:15:50.000Z',
      joinPolicy: 'Open',
    });
    expect(seen[0]?.searchParams.get('community.fields')).toContain('member_count');
    expect(await platform().community('not-an-id')).toBeUndefined();
  });

  it('answers undefined for a community X does not know', async () => {
    server.use(
      xget('/2/communities/:id', {
        errors: [{ title: 'Not Found Error', type: 'https://api.twitter.com/2/problems/resource-not-found' }],
      }),
    );
    expect(await platform().community('1')).toBeUndefined();
  });

  it('reads the article of a post with post.fields=article,article_title and its cover', async () => {
    const post = {
      id: '1800000000000000001',
      text: 'https://t.co/article',
      author_id: twitterDev.id,
      created_at: '2024-06-10T12:00:00.000Z',
      article: {
        title: 'Building on the X API',
        preview_text: 'A short preview',
        plain_text: 'The whole body of the article.',
        cover_media: '3_1800000000000000009',
      },
    };
    const media = [
      { media_key: '3_1800000000000000009', type: 'photo', url: 'https://pbs.twimg.com/media/cover.jpg' },
    ];
    server.use(xget('/2/tweets/:id', { data: post, includes: { users: [twitterDev], media } }));
    const a = await platform().article(post.id);
    expect(a).toMatchObject({
      tweetId: post.id,
      title: 'Building on the X API',
      previewText: 'A short preview',
      bodyText: 'The whole body of the article.',
      coverImageUrl: 'https://pbs.twimg.com/media/cover.jpg',
      createdAt: '2024-06-10T12:00:00.000Z',
      author: { username: 'TwitterDev' },
    });
    const q = seen[0]?.searchParams;
    expect(q?.get('post.fields')?.split(',')).toEqual(expect.arrayContaining(['article', 'article_title']));
    expect(q?.get('expansions')?.split(',')).toContain('article.cover_media');
  });

  it('answers undefined for a post without an article', async () => {
    server.use(xget('/2/tweets/:id', { data: { id: '1800000000000000002', text: 'no article' } }));
    expect(await platform().article('1800000000000000002')).toBeUndefined();
  });
});

describe('replies and threads older than 7 days', () => {
  const oldId = idAt(NOW - 30 * DAY);
  const recentId = idAt(NOW - 2 * DAY);
  const empty = { meta: { result_count: 0 } };

  it('read recent posts through recent search', async () => {
    server.use(xget('/2/tweets/search/recent', empty));
    await platform().replies(recentId, {}, { pageSize: 20 });
    expect(seen.map((u) => u.pathname)).toEqual(['/2/tweets/search/recent']);
  });

  it('are refused, saying why, when the tier has no full-archive search', async () => {
    for (const call of [
      (p: ReturnType<typeof platform>) => p.replies(oldId, {}, { pageSize: 20 }),
      (p: ReturnType<typeof platform>) => p.thread(oldId, { pageSize: 20 }),
      (p: ReturnType<typeof platform>) =>
        p.replyTree(oldId, { minDepth: 1, maxDepth: 3, order: 'oldest' }, { pageSize: 20 }),
    ]) {
      const err = await rejection(call(platform()));
      expect(err.code).toBe('x_api_unavailable');
      expect(err.message).toMatch(
        /older than 7 days need X's full-archive search .*X_API_FULL_ARCHIVE is off/,
      );
    }
    expect(seen).toHaveLength(0);
  });

  it('read through full-archive search when the tier has it', async () => {
    server.use(xget('/2/tweets/search/all', empty));
    await platform({ fullArchive: true }).replies(oldId, {}, { pageSize: 20 });
    expect(seen.map((u) => u.pathname)).toEqual(['/2/tweets/search/all']);
    expect(seen[0]?.searchParams.get('query')).toBe(`conversation_id:${oldId}`);
  });
});

describe('spaces', () => {
  it('reads the people of a space from its creator, host and speaker expansions, each once', async () => {
    server.use(
      xget('/2/spaces/1DXxyRYNejbKM', {
        data: { id: '1DXxyRYNejbKM', state: 'live', title: 'Office hours' },
        includes: { users: [twitterDev, twitter, twitterDev] },
      }),
    );
    const page = await platform().spaceParticipants('1DXxyRYNejbKM', { pageSize: 20 });
    expect(page?.items.map((u) => u.username)).toEqual(['TwitterDev', 'X']);
    expect(seen[0]?.searchParams.get('expansions')).toBe('creator_id,host_ids,speaker_ids');
    for (const u of page?.items ?? []) StrictUser.parse(u);
    expect(await platform().spaceParticipants('../x', { pageSize: 20 })).toBeUndefined();
  });
});
