import type { Tweet } from '../../core/platform/platform.js';

type Author = NonNullable<Tweet['author']>;
type Nested = NonNullable<Tweet['quoted_tweet']>;

/** The author block of spec 6.3 (`id`, `userName`, `name`), keeping the tweet read's other author fields. */
function eventAuthor(author: Author): Record<string, unknown> {
  return { ...author, userName: author.username };
}

function nested(tweet: Nested): Record<string, unknown> | undefined {
  return tweet.author ? { ...tweet, author: eventAuthor(tweet.author) } : undefined;
}

/**
 * `data` of a tweet event (spec 6.3): the raw tweet as the reads return it, plus the fields every receiver
 * may rely on: `author { id, userName, name }`, `isRetweet`, `isReply`, `isQuote`, `createdAt`, and where
 * relevant `inReplyToId` and `quoted_tweet { id, text, author }` (also `retweeted_tweet` for a repost).
 */
export function tweetEventData(tweet: Tweet, author: Author): Record<string, unknown> {
  const { quoted_tweet, retweeted_tweet, ...rest } = tweet;
  const quoted = quoted_tweet && nested(quoted_tweet);
  const original = retweeted_tweet && nested(retweeted_tweet);
  return {
    ...rest,
    author: eventAuthor(tweet.author ?? author),
    isRetweet: tweet.isRetweet === true,
    isReply: tweet.isReply === true,
    isQuote: tweet.isQuoteStatus === true,
    ...(quoted && { quoted_tweet: quoted }),
    ...(original && { retweeted_tweet: original }),
  };
}
