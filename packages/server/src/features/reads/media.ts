import { createHash } from 'node:crypto';
import { limits } from '@xsvc/sdk/contract';
import { paidCall } from '../../core/billing/metering.js';
import { HttpError } from '../../core/http/errors.js';
import { tweetNotFound } from '../../core/http/platform-errors.js';
import type { Tweet } from '../../core/platform/platform.js';
import { defineReadHandlers } from '../../core/reads/define.js';
import { requireTweet, tweetIdOf } from '../../core/reads/lookups.js';
import { type GalleryItem, saveGallery } from './gallery/repository.js';

const TWEET_REF =
  /^(?:\d{1,25}|https?:\/\/(?:www\.|mobile\.)?(?:x|twitter)\.com\/\S+\/status(?:es)?\/\d{1,25}\S*)$/i;
/** Most tweets one gallery gathers. */
const MAX_TWEETS = limits.batchTweetIds;

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

/** What a gallery keeps of a tweet: its link, author, text and media. */
function galleryItem(t: Tweet): GalleryItem {
  const author = t.author ?? t.retweeted_tweet?.author;
  return {
    tweetId: t.id,
    tweetUrl: t.url ?? `https://x.com/${author?.username ?? 'i/web'}/status/${t.id}`,
    ...(author?.username && { authorUsername: author.username }),
    ...(author?.name && { authorName: author.name }),
    text: t.text,
    createdAt: t.createdAt,
    media: mediaOf(t),
  };
}

/**
 * Gathers the media of one or more tweets into a gallery page on this server
 * (`<publicUrl>/media/gallery/<id>`, served by `registerGalleryRoutes`; the id derives from the tweet ids,
 * so the same tweets give the same gallery, and `cacheHit` says it existed). Each download stores a fresh
 * snapshot of the media. 1 credit per call; a missing tweet (404 `tweet_not_found`) or no media (404
 * `no_media`) is free.
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
      const { cacheHit } = await saveGallery(ctx.services.database.db, {
        id: galleryId,
        tweetIds: ids,
        items: tweets.filter((t) => mediaOf(t).length > 0).map(galleryItem),
        totalMedia,
        now: ctx.services.clock.now(),
      });
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
