import { num } from '../../core/db/database.js';
import type { Tweet, UserProfile } from '../../core/platform/platform.js';
import { displayTextRange } from './entities.js';
import {
  parseJson,
  type StoredEntities,
  type StoredMedia,
  type StoredPoll,
  type TweetRow,
  type UserRow,
} from './stored.js';

type NestedTweet = NonNullable<Tweet['quoted_tweet']>;
type Entities = NonNullable<Tweet['entities']>;

/** An ISO 8601 UTC timestamp from epoch ms. */
export function iso(ms: bigint | number): string {
  return new Date(Number(ms)).toISOString();
}

/**
 * A user row in the API's `UserProfile` shape. A suspended account shows only who it was and why it is
 * unavailable (its other fields are hidden, as on the platform). Empty profile fields are omitted.
 */
export function toUserProfile(row: UserRow): UserProfile {
  if (num(row.suspended)) {
    return {
      id: row.id,
      username: row.username,
      name: row.name,
      unavailable: true,
      unavailableReason: 'suspended',
    };
  }
  const verified = num(row.verified) === 1;
  const organisation = row.verified_type === 'business' || row.verified_type === 'government';
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    ...(row.description && { description: row.description }),
    followers: num(row.followers_count),
    following: num(row.following_count),
    verified,
    isBlueVerified: verified && row.verified_type === 'blue',
    isVerified: verified,
    ...(verified && row.verified_type && { verifiedType: row.verified_type }),
    ...(row.profile_picture && { profilePicture: row.profile_picture }),
    ...(row.cover_picture && { coverPicture: row.cover_picture, profileBannerUrl: row.cover_picture }),
    ...(row.location && { location: row.location }),
    ...(row.url && { url: row.url }),
    createdAt: iso(row.created_at),
    statusesCount: num(row.statuses_count),
    mediaCount: num(row.media_count),
    favouritesCount: num(row.favourites_count),
    protected: num(row.protected) === 1,
    pinnedTweetIds: row.pinned_tweet_id ? [row.pinned_tweet_id] : [],
    profileImageShape: organisation ? 'Square' : 'Circle',
  };
}

/** The `author` block of a tweet (spec 2.10). */
export function toAuthor(row: UserRow): NonNullable<Tweet['author']> {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    followers: num(row.followers_count),
    verified: num(row.verified) === 1,
    ...(row.profile_picture && { profilePicture: row.profile_picture }),
  };
}

/** What a tweet's mapping looks up: users and tweets by id, community names, and the present. */
export interface MapContext {
  users: ReadonlyMap<string, UserRow>;
  tweets: ReadonlyMap<string, TweetRow>;
  communities: ReadonlyMap<string, string>;
  now: number;
}

/**
 * A tweet row in the API's shape (spec 2.10), with `quoted_tweet` / `retweeted_tweet` nested one level when
 * they are in `ctx.tweets` (the caller leaves out those that are not visible). A repost record carries
 * `retweetedAt` and the reposted tweet's counts and media.
 */
export function toTweet(row: TweetRow, ctx: MapContext): Tweet {
  const tweet: Tweet = toNestedTweet(row, ctx);
  const quoted = row.quoted_tweet_id ? ctx.tweets.get(row.quoted_tweet_id) : undefined;
  if (quoted) tweet.quoted_tweet = toNestedTweet(quoted, ctx);
  const original = row.retweet_of_id ? ctx.tweets.get(row.retweet_of_id) : undefined;
  if (original) tweet.retweeted_tweet = toNestedTweet(original, ctx);
  return tweet;
}

function toNestedTweet(row: TweetRow, ctx: MapContext): NestedTweet {
  const author = ctx.users.get(row.author_id);
  const stored = parseJson<StoredEntities>(row.entities) ?? {};
  const isRetweet = row.kind === 'retweet';
  const original = isRetweet && row.retweet_of_id ? ctx.tweets.get(row.retweet_of_id) : undefined;
  const counts = original ?? row;
  const media = parseJson<StoredMedia>((original ?? row).media);
  const poll = parseJson<StoredPoll>(row.poll);
  const replyTo = row.in_reply_to_user_id ? ctx.users.get(row.in_reply_to_user_id) : undefined;
  const communityName = row.community_id ? ctx.communities.get(row.community_id) : undefined;
  const entities = toEntities(stored, media);
  return {
    id: row.id,
    text: row.text,
    createdAt: iso(row.created_at),
    type: 'tweet',
    ...(author && { url: `https://x.com/${author.username}/status/${row.id}` }),
    lang: row.lang,
    source: row.source,
    ...(num(row.is_note) === 1 && { isNoteTweet: true }),
    isReply: row.in_reply_to_id !== null,
    isQuoteStatus: row.quoted_tweet_id !== null,
    ...(isRetweet && { isRetweet: true }),
    conversationId: row.conversation_id,
    ...(row.in_reply_to_id && { inReplyToId: row.in_reply_to_id }),
    ...(row.in_reply_to_user_id && { inReplyToUserId: row.in_reply_to_user_id }),
    ...(replyTo && { inReplyToUsername: replyTo.username }),
    displayTextRange: displayTextRange(row.text),
    ...(entities && { entities }),
    ...(stored.contentDisclosure && { contentDisclosure: stored.contentDisclosure }),
    likeCount: num(counts.like_count),
    retweetCount: num(counts.retweet_count),
    replyCount: num(counts.reply_count),
    quoteCount: num(counts.quote_count),
    viewCount: num(counts.view_count),
    bookmarkCount: num(counts.bookmark_count),
    ...(isRetweet && { retweetedAt: iso(row.created_at) }),
    ...(media?.length && { media }),
    ...(poll && {
      poll: {
        options: poll.options.map((o) => ({ label: o.label, votes: o.votes })),
        endsAt: iso(poll.endsAt),
        votingStatus: poll.endsAt > ctx.now ? 'open' : 'closed',
      },
    }),
    ...(author && { author: toAuthor(author) }),
    ...(author?.pinned_tweet_id === row.id && { isPinned: true }),
    ...(row.community_id && { communityId: row.community_id }),
    ...(communityName && { communityName }),
  };
}

function toEntities(stored: StoredEntities, media: StoredMedia | undefined): Entities | undefined {
  const out: Entities = {};
  if (stored.urls?.length) out.urls = stored.urls;
  if (stored.mentions?.length) out.mentions = stored.mentions;
  if (stored.hashtags?.length) out.hashtags = stored.hashtags;
  if (stored.cashtags?.length) out.cashtags = stored.cashtags;
  if (media?.length) out.media = media.map((m) => ({ mediaUrl: m.mediaUrl, type: m.type }));
  return Object.keys(out).length ? out : undefined;
}
