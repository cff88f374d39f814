import type { TweetEventType } from '@xsvc/sdk/contract';
import type { Tweet } from '../../core/platform/platform.js';

/** Characters of a standard tweet; longer text is a long-form (Note) tweet. */
const STANDARD_TWEET_CHARS = 280;

/**
 * The tweet event types a new tweet of a watched account (or a keyword match) yields, one stored event each
 * (spec 6.1; the rules for combined signals are ours, documented in the server README):
 *
 * - a repost yields `tweet.retweet` only: its content (media, links, …) is the original author's;
 * - otherwise the kind: `tweet.reply` for a reply, `tweet.quote` for a quote (both for a reply that quotes),
 *   `tweet.new` for an original with no reply, quote or repost signal;
 * - plus one type per content signal: `tweet.media` (attached media), `tweet.link` (a link in the text),
 *   `tweet.poll`, `tweet.mention` (an account named in the text other than the one replied to),
 *   `tweet.hashtag`, `tweet.longform` (a Note Tweet, or text over 280 characters).
 *
 * So a quote with a photo yields `tweet.quote` and `tweet.media`.
 */
export function tweetEventTypes(tweet: Tweet): TweetEventType[] {
  if (tweet.isRetweet === true || tweet.retweeted_tweet !== undefined) return ['tweet.retweet'];
  const reply = tweet.isReply === true || tweet.inReplyToId !== undefined;
  const quote = tweet.isQuoteStatus === true || tweet.quoted_tweet !== undefined;
  const types: TweetEventType[] = [];
  if (!reply && !quote) types.push('tweet.new');
  if (reply) types.push('tweet.reply');
  if (quote) types.push('tweet.quote');
  if ((tweet.media?.length ?? 0) > 0) types.push('tweet.media');
  if ((tweet.entities?.urls?.length ?? 0) > 0) types.push('tweet.link');
  if (tweet.poll !== undefined) types.push('tweet.poll');
  const mentioned = (tweet.entities?.mentions ?? []).filter(
    (m) =>
      !(tweet.inReplyToUserId && m.id === tweet.inReplyToUserId) &&
      !(tweet.inReplyToUsername && m.username.toLowerCase() === tweet.inReplyToUsername.toLowerCase()),
  );
  if (mentioned.length > 0) types.push('tweet.mention');
  if ((tweet.entities?.hashtags?.length ?? 0) > 0) types.push('tweet.hashtag');
  if (tweet.isNoteTweet === true || [...tweet.text].length > STANDARD_TWEET_CHARS)
    types.push('tweet.longform');
  return types;
}
