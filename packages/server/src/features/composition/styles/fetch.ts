import type { Platform, Tweet } from '../../../core/platform/platform.js';
import type { StyleTweet } from './repository.js';

/** Tweets kept in an analyzed style: the most recent originals (spec 2.9). */
export const STYLE_SAMPLE_SIZE = 50;

/** Pages of the user's timeline read at most to fill a sample (replies and reposts are skipped). */
const MAX_PAGES = 5;
const PAGE_SIZE = 50;

/**
 * True for a tweet written by its author in their own voice: not a reply and not a repost. Quotes count:
 * their text is the author's own.
 */
export function isOriginal(t: Tweet): boolean {
  return t.isReply !== true && t.isRetweet !== true && t.retweeted_tweet === undefined;
}

/** A timeline tweet as a style sample tweet (spec 2.9). */
export function toStyleTweet(t: Tweet, fallbackUsername: string): StyleTweet {
  return {
    id: t.id,
    text: t.text,
    authorUsername: t.author?.username ?? fallbackUsername,
    createdAt: t.createdAt,
    ...(t.media?.length ? { media: t.media } : {}),
  };
}

/**
 * The `want` most recent original tweets of a user, newest first, read from the same user-timeline listing
 * the `/x/users/{id}/tweets` read uses (replies excluded at the source, reposts filtered here).
 */
export async function fetchOriginalTweets(
  platform: Platform,
  user: { id: string; username: string },
  want: number,
): Promise<StyleTweet[]> {
  const out: StyleTweet[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES && out.length < want; page++) {
    const res = await platform.userTweets(
      user.id,
      { includeReplies: false, retweets: 'exclude' },
      { cursor, pageSize: PAGE_SIZE },
    );
    for (const t of res.items) {
      if (out.length >= want) break;
      if (isOriginal(t)) out.push(toStyleTweet(t, user.username));
    }
    cursor = res.nextCursor;
    if (!cursor) break;
  }
  return out;
}
