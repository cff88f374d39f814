import { createHash } from 'node:crypto';
import { limits } from '@xsvc/sdk/contract';
import { HttpError } from '../../http/errors.js';
import type { Tweet } from '../../platform/platform.js';
import type { Services } from '../../services.js';
import { defineReadHandlers } from './define.js';
import { tweetNotFound } from './errors.js';
import { requireTweet, tweetIdOf } from './lookups.js';
import { paidCall } from './metering.js';

const TWEET_REF =
  /^(?:\d{1,25}|https?:\/\/(?:www\.|mobile\.)?(?:x|twitter)\.com\/\S+\/status(?:es)?\/\d{1,25}\S*)$/i;
/** Most tweets one gallery gathers. */
const MAX_TWEETS = limits.batchTweetIds;

/** Galleries this process has built, per server: a repeated request is a cache hit. */
const built = new WeakMap<Services, Set<string>>();

/** The tweet refs of a download body (exactly one source, checked by the contract). */
function refsOf(body: {
  tweetInput?: string;
  tweetId?: string;
  tweetUrl?: string;
  tweetIds?: string[];
}): string[] {
  if (body.tweetIds) return body.tweetIds;
  if (body.tweetInput !== undefined) {
    if (!TWEET_REF.test(body.tweetInput.trim())) {
      throw new HttpError('invalid_tweet_id', 'tweetInput: must be a numeric tweet id or a tweet URL');
    }
    return [body.tweetInput];
  }
  return [body.tweetId ?? body.tweetUrl ?? ''];
}

/** The photos, videos and GIFs of a tweet (a repost shows its original's). */
function mediaOf(t: Tweet) {
  return t.media ?? t.retweeted_tweet?.media ?? [];
}

/**
 * Gathers the media of one or more tweets into a gallery page on this server
 * (`<publicUrl>/media/gallery/<id>`, the id derived from the tweet ids, so the same tweets give the same
 * gallery). 1 credit per call; a missing tweet (404 `tweet_not_found`) or no media (404 `no_media`) is free.
 * The gallery page itself is not served by this feature.
 */
export const mediaHandlers = defineReadHandlers({
  downloadMedia: async (ctx) => {
    const refs = refsOf(ctx.body as Parameters<typeof refsOf>[0]);
    const ids = [...new Set(refs.map(tweetIdOf))];
    if (ids.length > MAX_TWEETS)
      throw new HttpError('too_many_tweets', `at most ${MAX_TWEETS} tweets per download`);
    const { platform } = ctx.services;
    return paidCall(ctx, async () => {
      const tweets =
        ids.length === 1 ? [await requireTweet(platform, ids[0] as string)] : await platform.getTweets(ids);
      if (!tweets.length) throw tweetNotFound('not_found');
      const totalMedia = tweets.reduce((n, t) => n + mediaOf(t).length, 0);
      if (!totalMedia) throw new HttpError('no_media', 'the tweets carry no photo, video or GIF');
      const galleryId = createHash('sha256')
        .update([...ids].sort().join(','))
        .digest('hex')
        .slice(0, 24);
      const seen = built.get(ctx.services) ?? new Set<string>();
      built.set(ctx.services, seen);
      const cacheHit = seen.has(galleryId);
      seen.add(galleryId);
      return {
        tweetId: tweets[0]?.id ?? (ids[0] as string),
        galleryUrl: `${ctx.services.publicUrl()}/media/gallery/${galleryId}`,
        cacheHit,
        totalTweets: tweets.length,
        totalMedia,
      };
    });
  },
});
