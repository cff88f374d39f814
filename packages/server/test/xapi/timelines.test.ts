import { describe, expect, it } from 'vitest';
import {
  includes,
  photoTweet,
  quoteTweet,
  replyTweet,
  retweet,
  searchPage1,
  searchPage2,
  videoTweet,
} from './fixtures/tweets.js';
import { followersPage1 } from './fixtures/users.js';
import {
  FIXTURES_NOW,
  pageOf,
  platform,
  rejection,
  StrictTweet,
  StrictUser,
  seen,
  useXServer,
  xget,
} from './helpers.js';

const server = useXServer();

const ROOT = '1304102743196356610';

describe('recent search', () => {
  it('passes next_token through as an opaque cursor, both ways', async () => {
    server.use(
      xget('/2/tweets/search/recent', (url) =>
        url.searchParams.get('next_token') ? searchPage2 : searchPage1,
      ),
    );
    const p = platform();
    const first = await p.searchTweets({ q: 'api', queryType: 'Latest' }, pageOf(20));
    expect(first.items.map((t) => t.id)).toEqual([quoteTweet.id, retweet.id]);
    expect(first.nextCursor).toBe(searchPage1.meta.next_token);
    const second = await p.searchTweets({ q: 'api', queryType: 'Latest' }, pageOf(20, first.nextCursor));
    expect(seen[1]?.searchParams.get('next_token')).toBe(searchPage1.meta.next_token);
    expect(second.items.map((t) => t.id)).toEqual([photoTweet.id]);
    expect(second).not.toHaveProperty('nextCursor');
    for (const t of [...first.items, ...second.items]) StrictTweet.parse(t);
  });

  it('translates filters into v2 operators and parameters', async () => {
    server.use(xget('/2/tweets/search/recent', searchPage2));
    await platform().searchTweets(
      {
        q: 'launch',
        queryType: 'Top',
        fromUser: '@TwitterDev',
        toUser: 'X',
        mentioning: 'XDevelopers',
        language: 'en',
        mediaType: 'images',
        replies: 'exclude',
        retweets: 'only',
        quotes: 'exclude',
        verifiedOnly: true,
        exactPhrase: 'new payload',
        excludeWords: ['spam', 'two words'],
        anyWords: ['api', 'sdk'],
        hashtags: ['#dev'],
        sinceTime: 1_777_400_000,
        untilTime: 1_777_450_000,
      },
      pageOf(5),
    );
    const q = seen[0]?.searchParams;
    expect(q?.get('query')).toBe(
      'launch "new payload" (api OR sdk) #dev -spam -"two words" from:TwitterDev to:X @XDevelopers lang:en has:images -is:reply is:retweet -is:quote is:verified',
    );
    expect(q?.get('sort_order')).toBe('relevancy');
    expect(q?.get('start_time')).toBe('2026-04-28T18:13:20Z');
    expect(q?.get('end_time')).toBe('2026-04-29T08:06:40Z');
    expect(q?.get('max_results')).toBe('10');
  });

  it('applies the filters v2 has no operator for to the results', async () => {
    server.use(xget('/2/tweets/search/recent', searchPage1));
    const page = await platform().searchTweets(
      { q: 'api', queryType: 'Latest', minRetweets: 10, minFaves: 1 },
      pageOf(20),
    );
    expect(page.items.map((t) => t.id)).toEqual([]);
    const gifs = await platform().searchTweets(
      { q: 'api', queryType: 'Latest', mediaType: 'gifs' },
      pageOf(20),
    );
    expect(gifs.items).toEqual([]);
    expect(seen[1]?.searchParams.get('query')).toBe('api has:media');
    expect(seen[1]?.searchParams.get('sort_order')).toBe('recency');
  });
});

describe('user timelines', () => {
  const timeline = {
    data: [replyTweet, photoTweet, videoTweet, retweet],
    includes,
    meta: { result_count: 4, next_token: 'tl2' },
  };

  it('reads /users/:id/tweets without replies by default, with them on request', async () => {
    server.use(xget('/2/users/2244994945/tweets', timeline));
    const p = platform();
    const page = await p.userTweets('2244994945', {}, pageOf(20, 'tl1'));
    expect(seen[0]?.searchParams.get('exclude')).toBe('replies');
    expect(seen[0]?.searchParams.get('pagination_token')).toBe('tl1');
    expect(page.nextCursor).toBe('tl2');
    for (const t of page.items) StrictTweet.parse(t);
    await p.userTweets('2244994945', { includeReplies: true }, pageOf(20));
    expect(seen[1]?.searchParams.has('exclude')).toBe(false);
    await p.userTweets('2244994945', { retweets: 'exclude', replies: 'exclude' }, pageOf(20));
    expect(seen[2]?.searchParams.get('exclude')).toBe('replies,retweets');
  });

  it('filters the page on what the timeline endpoint cannot', async () => {
    server.use(xget('/2/users/2244994945/tweets', timeline));
    const page = await platform().userTweets('2244994945', { mediaType: 'videos', minFaves: 10 }, pageOf(20));
    expect(page.items.map((t) => t.id)).toEqual([videoTweet.id]);
    const onlyRetweets = await platform().userTweets('2244994945', { retweets: 'only' }, pageOf(20));
    expect(onlyRetweets.items.map((t) => t.id)).toEqual([retweet.id]);
  });

  it('sends no request for an id X could not have issued, so an id cannot reach another endpoint', async () => {
    server.use(xget('/2/users/:id/tweets', { meta: { result_count: 0 } }));
    expect(await platform().userTweets('../../2/tweets?ids=1', {}, pageOf(20))).toEqual({ items: [] });
    expect(seen).toHaveLength(0);
  });

  it('derives replies and media from the timeline', async () => {
    server.use(xget('/2/users/2244994945/tweets', timeline));
    const replies = await platform().userReplies('2244994945', pageOf(20));
    expect(replies.items.map((t) => t.id)).toEqual([replyTweet.id]);
    const media = await platform().userMedia('2244994945', pageOf(20));
    expect(media.items.map((t) => t.id)).toEqual([photoTweet.id, videoTweet.id]);
    expect(seen.map((u) => u.searchParams.get('exclude'))).toEqual(['retweets', 'retweets']);
  });

  it('reads mentions from their endpoint, and refuses liked posts without a connected account (see likes.test.ts)', async () => {
    server.use(xget('/2/users/2244994945/mentions', timeline));
    const mentions = await platform().userMentions('2244994945', pageOf(500));
    expect(mentions.nextCursor).toBe('tl2');
    expect(seen[0]?.searchParams.get('max_results')).toBe('100');
    const err = await rejection(platform().userLikes('2244994945', pageOf(3)));
    expect(err.code).toBe('x_api_unavailable');
    expect(err.message).toMatch(
      /only to a user token \(OAuth 2\.0 with like\.read, tweet\.read, users\.read\)/,
    );
    expect(seen).toHaveLength(1);
  });
});

describe('conversations and engagement', () => {
  it('reads replies with a conversation_id: search and leaves the root out', async () => {
    const root = { ...replyTweet, id: ROOT, referenced_posts: [], in_reply_to_user_id: undefined };
    server.use(
      xget('/2/tweets/search/recent', { data: [replyTweet, root], includes, meta: { result_count: 2 } }),
    );
    const page = await platform({ now: () => FIXTURES_NOW }).replies(ROOT, { language: 'en' }, pageOf(20));
    expect(seen[0]?.searchParams.get('query')).toBe(`conversation_id:${ROOT} lang:en`);
    expect(page.items.map((t) => t.id)).toEqual([replyTweet.id]);
  });

  it('reads a thread as the author’s posts of the conversation, oldest first, with its first post', async () => {
    const root = { ...photoTweet, id: ROOT, conversation_id: ROOT };
    const second = { ...replyTweet, id: '1307025659294674946', created_at: '2020-09-18T18:40:00.000Z' };
    server.use(
      xget('/2/tweets/:id', (url) => ({ data: url.pathname.endsWith(ROOT) ? root : replyTweet, includes })),
      xget('/2/tweets/search/recent', {
        data: [second, replyTweet],
        includes,
        meta: { result_count: 2, next_token: 'th2' },
      }),
    );
    const page = await platform({ now: () => FIXTURES_NOW }).thread(replyTweet.id, pageOf(20));
    expect(seen.map((u) => u.pathname)).toEqual([
      `/2/tweets/${replyTweet.id}`,
      `/2/tweets/${ROOT}`,
      '/2/tweets/search/recent',
    ]);
    expect(seen[2]?.searchParams.get('query')).toBe(`conversation_id:${ROOT} from:TwitterDev`);
    expect(page.items.map((t) => t.id)).toEqual([ROOT, replyTweet.id, second.id]);
    expect(page.nextCursor).toBe('th2');
  });

  it('answers an empty thread for a post that does not exist', async () => {
    server.use(
      xget('/2/tweets/:id', {
        errors: [{ title: 'Not Found Error', type: 'https://api.twitter.com/2/problems/resource-not-found' }],
      }),
    );
    expect(await platform({ now: () => FIXTURES_NOW }).thread('1999999999999999999', pageOf(20))).toEqual({
      items: [],
    });
  });

  it('reads quotes from /quote_tweets and filters them', async () => {
    server.use(
      xget('/2/tweets/1409616429040197634/quote_tweets', {
        data: [quoteTweet, photoTweet],
        includes,
        meta: { result_count: 2 },
      }),
    );
    const page = await platform().quotes(
      '1409616429040197634',
      { fromUser: 'twitterdev', minFaves: 10 },
      pageOf(20),
    );
    expect(page.items.map((t) => t.id)).toEqual([photoTweet.id]);
  });

  it('reads retweeters with user filters applied to the page, and refuses likers without a connected account', async () => {
    server.use(xget('/2/tweets/1460323595637919744/retweeted_by', followersPage1));
    const rts = await platform().retweeters('1460323595637919744', { verifiedOnly: true }, pageOf(20));
    expect(rts.items.map((u) => u.username)).toEqual(['XSpaces']);
    expect(rts.nextCursor).toBe(followersPage1.meta.next_token);
    for (const u of rts.items) StrictUser.parse(u);
    const err = await rejection(
      platform().favoriters('1460323595637919744', { bioContains: 'LIVE AUDIO' }, pageOf(20)),
    );
    expect(err.message).toMatch(/users who liked a post is served by the X API v2 only to a user token/);
    expect(seen).toHaveLength(1);
  });
});
