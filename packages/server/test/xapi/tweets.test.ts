import { describe, expect, it } from 'vitest';
import type { Tweet } from '../../src/core/platform/platform.js';
import {
  includes,
  noteTweet,
  photoTweet,
  pollTweet,
  quoteTweet,
  replyTweet,
  retweet,
  tweetNotFound,
  tweetProtected,
  tweetsById,
  videoTweet,
} from './fixtures/tweets.js';
import { platform, StrictTweet, seen, useXServer, xget } from './helpers.js';

const server = useXServer();

/** `GET /2/tweets/:id` and `GET /2/tweets?ids=` over the fixtures, with partial errors for unknown ids. */
function lookupHandlers() {
  return [
    xget('/2/tweets/:id', (url) => {
      const id = url.pathname.split('/').pop() ?? '';
      if (id === '1000000000000000001') return tweetProtected(id);
      const tweet = tweetsById[id];
      return tweet ? { data: tweet, includes } : tweetNotFound(id);
    }),
    xget('/2/tweets', (url) => {
      const ids = (url.searchParams.get('ids') ?? '').split(',');
      const found = ids.flatMap((id) => (tweetsById[id] ? [tweetsById[id]] : []));
      const missing = ids.filter((id) => !tweetsById[id]).flatMap((id) => tweetNotFound(id).errors);
      return { data: found, includes, ...(missing.length ? { errors: missing } : {}) };
    }),
  ];
}

async function get(id: string): Promise<Tweet> {
  const found = await platform().getTweet(id);
  if (!('tweet' in found)) throw new Error(`tweet ${id} missing: ${found.missing}`);
  return found.tweet;
}

describe('tweet lookups', () => {
  it('asks for the fields and expansions it maps', async () => {
    server.use(...lookupHandlers());
    await get(replyTweet.id);
    const q = seen[0]?.searchParams;
    expect(q?.get('expansions')?.split(',')).toEqual(
      expect.arrayContaining([
        'author_id',
        'in_reply_to_user_id',
        'referenced_posts',
        'attachments.media_keys',
        'attachments.poll_ids',
      ]),
    );
    expect(q?.has('tweet.fields')).toBe(false);
    expect(q?.get('post.fields')?.split(',')).toContain('note_post');
    expect(q?.get('media.fields')).toContain('variants');
  });

  it('maps every fixture to the strict Tweet schema', async () => {
    server.use(...lookupHandlers());
    for (const id of Object.keys(tweetsById)) {
      const tweet = await get(id);
      expect(() => StrictTweet.parse(tweet), id).not.toThrow();
    }
  });

  it('maps a reply: ids, author, metrics, entities, url', async () => {
    server.use(...lookupHandlers());
    const t = await get(replyTweet.id);
    expect(t).toMatchObject({
      id: '1307025659294674945',
      createdAt: '2020-09-18T18:36:15.000Z',
      url: 'https://x.com/TwitterDev/status/1307025659294674945',
      lang: 'en',
      isReply: true,
      isQuoteStatus: false,
      isRetweet: false,
      isLimitedReply: false,
      conversationId: '1304102743196356610',
      inReplyToId: '1304102743196356610',
      inReplyToUserId: '2244994945',
      inReplyToUsername: 'TwitterDev',
      likeCount: 70,
      retweetCount: 11,
      replyCount: 2,
      quoteCount: 1,
      bookmarkCount: 3,
      viewCount: 9000,
      author: {
        id: '2244994945',
        username: 'TwitterDev',
        name: 'Twitter Dev',
        followers: 513958,
        verified: false,
      },
      entities: {
        urls: [
          {
            url: 'https://t.co/oeF3ZHeKQQ',
            expandedUrl:
              'https://dev.to/twitterdev/understanding-the-new-tweet-payload-in-the-twitter-api-v2-1fg5',
            displayUrl: 'dev.to/twitterdev/und…',
          },
        ],
        hashtags: [{ text: 'APIv2' }],
        cashtags: [{ text: 'TWTR' }],
        mentions: [{ id: '2244994945', username: 'TwitterDev' }],
      },
    });
    expect(t.author?.profilePicture).toContain('pbs.twimg.com');
    expect(t).not.toHaveProperty('media');
    expect(t).not.toHaveProperty('retweetedAt');
  });

  it('joins the quoted post with its own author', async () => {
    server.use(...lookupHandlers());
    const t = await get(quoteTweet.id);
    expect(t.isQuoteStatus).toBe(true);
    expect(t.quoted_tweet).toMatchObject({
      id: '1409616429040197634',
      author: { username: 'X' },
      likeCount: 1000,
    });
    expect(t.quoted_tweet).not.toHaveProperty('quoted_tweet');
  });

  it('joins the retweeted post and stamps retweetedAt with the repost time', async () => {
    server.use(...lookupHandlers());
    const t = await get(retweet.id);
    expect(t).toMatchObject({
      isRetweet: true,
      retweetedAt: '2021-11-15T19:08:11.000Z',
      author: { username: 'X' },
    });
    expect(t.retweeted_tweet).toMatchObject({
      id: '1460323595637919744',
      author: { username: 'TwitterDev' },
    });
  });

  it('maps a photo with its t.co link, and keeps media links out of the URL entities', async () => {
    server.use(...lookupHandlers());
    const t = await get(photoTweet.id);
    expect(t.media).toEqual([
      {
        type: 'photo',
        mediaUrl: 'https://pbs.twimg.com/media/EfJ-C-JU0AAQL_C.jpg',
        url: 'https://t.co/FnGgIpJ5Tt',
        width: 1600,
        height: 900,
      },
    ]);
    expect(t.entities?.urls).toBeUndefined();
    expect(t.entities?.media).toEqual([
      { mediaUrl: 'https://pbs.twimg.com/media/EfJ-C-JU0AAQL_C.jpg', type: 'photo' },
    ]);
    expect(t.isLimitedReply).toBe(true);
  });

  it('maps videos and GIFs with their renditions', async () => {
    server.use(...lookupHandlers());
    const t = await get(videoTweet.id);
    expect(t.media?.map((m) => m.type)).toEqual(['video', 'animated_gif']);
    expect(t.media?.[0]).toMatchObject({
      mediaUrl: 'https://pbs.twimg.com/ext_tw_video_thumb/1534528347399876608/pu/img/preview.jpg',
      width: 1280,
      height: 720,
    });
    expect(t.media?.[0]?.variants).toEqual([
      { bitrate: 2176000, contentType: 'video/mp4', url: expect.stringContaining('1280x720') },
      { bitrate: 832000, contentType: 'video/mp4', url: expect.stringContaining('640x360') },
      { contentType: 'application/x-mpegURL', url: expect.stringContaining('.m3u8') },
    ]);
    expect(t.media?.[1]?.variants).toEqual([
      { bitrate: 0, contentType: 'video/mp4', url: 'https://video.twimg.com/tweet_video/FUp.mp4' },
    ]);
  });

  it('maps a poll with its options in position order', async () => {
    server.use(...lookupHandlers());
    const t = await get(pollTweet.id);
    expect(t.poll).toEqual({
      options: [
        { label: '“C Sharp”', votes: 795 },
        { label: '“C Hashtag”', votes: 156 },
      ],
      endsAt: '2019-11-28T20:26:41.000Z',
      votingStatus: 'closed',
    });
  });

  it('carries the complete text of a Note Tweet', async () => {
    server.use(...lookupHandlers());
    const t = await get(noteTweet.id);
    expect(t.isNoteTweet).toBe(true);
    expect(t.text).toBe(noteTweet.note_post.text);
    expect(t.text.length).toBeGreaterThan(280);
    expect(t.entities?.hashtags).toEqual([{ text: 'Notes' }]);
  });

  it('answers the missing reason of a post X does not return', async () => {
    server.use(...lookupHandlers());
    expect(await platform().getTweet('1999999999999999999')).toEqual({ missing: 'not_found' });
    expect(await platform().getTweet('1000000000000000001')).toEqual({ missing: 'protected' });
    expect(await platform().getTweet('not-an-id')).toEqual({ missing: 'not_found' });
    expect(seen).toHaveLength(2);
  });

  it('looks up posts in batches of 100 and skips the ones X reports missing', async () => {
    server.use(...lookupHandlers());
    const ids = [
      replyTweet.id,
      quoteTweet.id,
      '1999999999999999999',
      'bad',
      ...Array.from({ length: 120 }, (_, i) => `${9000 + i}`),
    ];
    const tweets = await platform().getTweets(ids);
    expect(tweets.map((t) => t.id)).toEqual([replyTweet.id, quoteTweet.id]);
    expect(seen.map((u) => u.searchParams.get('ids')?.split(',').length)).toEqual([100, 23]);
    for (const t of tweets) StrictTweet.parse(t);
  });
});
